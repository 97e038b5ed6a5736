import Foundation
import ImageSniff
import Testing
import TestSupport

/// A scan reading many files' first bytes at once (io_uring) hands each file over with the bytes
/// it read: `FileSniffer.inspect(openedFile:)` must answer as `inspect(fileDescriptor:)` does,
/// whatever part of the first 4 KiB came with it (a read may give less than asked, as a FUSE or
/// network file system's does: the sniffer reads the rest).
@Suite("A file handed over open, with some of its first bytes")
struct OpenedFileTests {
    @Test(arguments: Manifest.entries)
    func anyPrefixGivesTheFilesAnswer(_ entry: ManifestEntry) throws {
        let bytes = try entry.bytes()
        let fd = open(entry.url.path, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let sniffer = FileSniffer()
        let expected = try sniffer.inspect(fileDescriptor: fd, hint: nil)
        let full = min(bytes.count, 4096)
        for given in Set([0, 1, 17, full / 2, full]) where given <= full {
            let answer = try bytes.withUnsafeBytes { raw in
                try sniffer.inspect(openedFile: fd, length: bytes.count, prefix: UnsafeRawBufferPointer(rebasing: raw[..<given]),
                                    hint: nil, properties: true)
            }
            #expect(answer == expected, "\(entry.file) handed over with \(given) of its first bytes")
            #expect(sniffer.lastLength == bytes.count)
        }
    }
}
