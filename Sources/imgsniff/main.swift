import ArgumentParser
import Foundation
import ImageSniff

@main
struct IMGSniff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imgsniff",
        abstract: "Tell image formats from their bytes, and name them with Uniform Type Identifiers.",
        subcommands: [Scan.self]
    )
}

struct Scan: ParsableCommand {
    @Option var format: String = "ndjson"
    @Argument var paths: [String] = ["."]

    func run() throws {
        let sniffer = FileSniffer()
        var out = ""
        func visit(_ path: String) {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
                let items = (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? []
                for item in items { visit(path + "/" + item) }
                return
            }
            var fields: [String] = ["\"path\":\(json(path))"]
            do {
                let d = try sniffer.detect(fileAt: path)
                fields += ["\"uti\":\(json(d.type.identifier))", "\"mime\":\(d.type.preferredMIMEType.map(json) ?? "null")",
                           "\"extension\":\(d.type.preferredFilenameExtension.map(json) ?? "null")",
                           "\"isImage\":\(d.type.isImage)", "\"confidence\":\(json(d.confidence.rawValue))", "\"animated\":\(d.isAnimated)"]
            } catch {
                fields.append("\"error\":\(json(error.description))")
            }
            out += "{" + fields.joined(separator: ",") + "}\n"
        }
        for p in paths { visit(p) }
        FileHandle.standardOutput.write(out.data(using: .utf8)!)
    }

    func json(_ s: String) -> String {
        var r = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": r += "\\\""
            case "\\": r += "\\\\"
            case "\n": r += "\\n"
            default: r.unicodeScalars.append(c)
            }
        }
        return r + "\""
    }
}
