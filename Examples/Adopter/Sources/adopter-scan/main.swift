// A directory-walking client: every image under the paths given, as JSON lines an adopter
// defines itself from the library's Codable results.
import Foundation
import ImageSniff
import ImageSniffScan

struct Line: Codable {
    let path: String
    let detection: Detection
    let properties: ImageProperties?
}

var options = DirectoryScan.Options()
options.filter.onlyImages = true
options.properties = true
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
var count = 0
for try await record in DirectoryScan(Array(CommandLine.arguments.dropFirst()), options: options) {
    guard let detection = record.detection else { continue }
    let line = Line(path: record.displayPath, detection: detection, properties: record.properties)
    print(String(decoding: try encoder.encode(line), as: UTF8.self))
    count += 1
}
FileHandle.standardError.write(Data("adopter-scan: \(count) images\n".utf8))
