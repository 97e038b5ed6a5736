// What an adopter's first program does: detect each file named on the command line.
import ImageSniff

let sniffer = FileSniffer()
for path in CommandLine.arguments.dropFirst() {
    do {
        let inspection = try sniffer.inspect(fileAt: path)
        let p = inspection.properties
        let size = p.width.flatMap { w in p.height.map { h in " \(w)x\(h)" } } ?? ""
        print("\(path): \(inspection.detection.type.identifier) (\(inspection.detection.confidence))\(size)")
    } catch {
        print("\(path): \(error)")
    }
}
print("ImageSniff \(ImageSniffer.version)")
