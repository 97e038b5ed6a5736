import Foundation
import Testing
import ImageSniff
import TestSupport
@testable import IMGSniffKit

@Suite("Rename rules and journal, in process")
struct RenameLogicTests {
    private func decide(_ name: String, _ type: ImageType, _ confidence: Detection.Confidence = .conclusive,
                        fix: Bool = false, allTypes: Bool = false, floor: Detection.Confidence = .conclusive,
                        completeness: Detection.Completeness = .complete, includeTruncated: Bool = false) -> RenameDisposition {
        var policy = RenamePolicy()
        policy.fix = fix
        policy.allTypes = allTypes
        policy.minimumConfidence = floor
        policy.includeTruncated = includeTruncated
        return RenameRules.decide(name: Array(name.utf8), detection: Detection(type: type, confidence: confidence, completeness: completeness),
                                  policy: policy)
    }

    /// `scan --mismatches` and `rename` share one rule: a name whose extension fits is kept by
    /// rename exactly when the scan says its extension matches.
    @Test func scanAndRenameAgree() {
        let types: [ImageType] = [.jpeg, .mpo, .png, .tiff, .nef, .dng, .heics, .avis, .bmp, .ilbm, .xml, .svg, .gzip, .jpeg2000, .pdf]
        let extensions = ["jpg", "png", "tif", "tiff", "nef", "dng", "heic", "avif", "avifs", "rle", "iff", "pchg", "html", "gz",
                          "svgz", "jpc", "jp2", "ai", "ico", "tx", "svs", "txt", "docx"]
        for type in types {
            for confidence in [Detection.Confidence.conclusive, .family] {
                let detection = Detection(type: type, confidence: confidence)
                for ext in extensions {
                    let scan = MismatchRule.extensionMatches(ext, detection: detection)
                    var policy = RenamePolicy()
                    policy.fix = true
                    policy.allTypes = true
                    policy.minimumConfidence = .likely
                    let kept = RenameRules.decide(name: Array("f.\(ext)".utf8), detection: detection, policy: policy) == .keep(.extensionFits(ext))
                    #expect((scan == true) == kept, "\(ext) on \(type.identifier) (\(confidence))")
                }
            }
        }
    }

    @Test func rules() {
        #expect(decide("a", .png) == .rename(to: Array("a.png".utf8), reason: .noExtension, suffixed: false))
        #expect(decide("a.JPG", .jpeg) == .keep(.extensionFits("JPG")))
        #expect(decide("a.tif", .nef) == .keep(.extensionFits("tif")), "a family's extension fits its members")
        #expect(decide("a.nef", .tiff, .family) == .keep(.extensionFits("nef")))
        // A family answer renames only when asked (--min-confidence family), and never replaces a
        // member's name.
        #expect(decide("a", .tiff, .family) == .keep(.notSure(.family)))
        #expect(decide("a", .tiff, .family, floor: .family) == .rename(to: Array("a.tiff".utf8), reason: .noExtension, suffixed: false))
        #expect(decide("a.dng", .tiff, .family, fix: true, floor: .family) == .keep(.extensionFits("dng")))
        // A detection of data that ends before the checks were done renames only when asked.
        #expect(decide("x", .tiff, completeness: .truncated) == .keep(.truncated))
        #expect(decide("x", .tiff, completeness: .truncated, includeTruncated: true)
                == .rename(to: Array("x.tiff".utf8), reason: .noExtension, suffixed: false))
        #expect(decide("notes.md", .plainText, .likely, allTypes: true) == .keep(.unknownExtension("md")))
        #expect(decide("app.jar", .zip, allTypes: true) == .keep(.unknownExtension("jar")))
        #expect(decide("x.backup", .png) == .keep(.unknownExtension("backup")))
        #expect(decide("x.backup", .png, fix: true) == .rename(to: Array("x.png".utf8), reason: .unknownExtension("backup"), suffixed: false))
        #expect(decide("Makefile", .plainText, .likely) == .keep(.notAnImage))
        #expect(decide("song", .mp3) == .keep(.notAnImage))
        #expect(decide("song", .mp3, allTypes: true) == .rename(to: Array("song.mp3".utf8), reason: .noExtension, suffixed: false))
        #expect(decide("t", .tga, .likely) == .keep(.notSure(.likely)))
        #expect(decide("photo.tiff", .jpeg) == .keep(.wrongExtension("tiff", names: .tiff)))
        #expect(decide("report.2024", .jpeg) == .rename(to: Array("report.2024.jpg".utf8), reason: .noExtension, suffixed: false))
        #expect(decide("x", .data, .unknown) == .keep(.unknownContent))
        // The extension replaced sets the case of the new one (unless --extension-case says).
        #expect(decide("SCAN.JPG", .png, fix: true) == .rename(to: Array("SCAN.PNG".utf8), reason: .wrongExtension("JPG", names: .jpeg), suffixed: false))
        #expect(decide("Scan.Jpg", .png, fix: true) == .rename(to: Array("Scan.png".utf8), reason: .wrongExtension("Jpg", names: .jpeg), suffixed: false))
        // Backups and partial copies: never a second extension.
        for name in ["image.png~", "photo.jpg.1", "photo.", "IMG 1.JPG ", ".jpg", "#draft#", "photo.jpg.part",
                     "photo.jpg.crdownload", ".x.jpg.AbCd12"] {
            #expect(decide(name, .png, fix: true) == .keep(.backupName), "\(name)")
        }
        #expect(decide(".face", .png) == .rename(to: Array(".face.png".utf8), reason: .noExtension, suffixed: false))
        #expect(decide("scan.2", .png) == .rename(to: Array("scan.2.png".utf8), reason: .noExtension, suffixed: false))
    }

    @Test func versionControlAndConventionalNames() {
        #expect(RenameRules.versionControlDirectory(in: Array("repo/.git/lfs/objects/4d/7a/4d7a21".utf8)) == ".git")
        #expect(RenameRules.versionControlDirectory(in: Array("/home/u/.hg/store/x".utf8)) == ".hg")
        #expect(RenameRules.versionControlDirectory(in: Array("repo/.github/logo".utf8)) == nil)
        #expect(RenameRules.versionControlDirectory(in: Array("srv/project.git/objects/ab/cd".utf8)) == "project.git", "a bare repository")
        #expect(RenameRules.versionControlDirectory(in: Array("repo/.git".utf8)) == nil, "a file named .git is a name, not a directory on the way")
        #expect(RenameRules.isConventionallyUnextended(Array("Makefile".utf8), permissions: 0o644))
        #expect(RenameRules.isConventionallyUnextended(Array("LICENSE".utf8), permissions: 0o644))
        #expect(RenameRules.isConventionallyUnextended(Array("build".utf8), permissions: 0o755), "executable")
        #expect(!RenameRules.isConventionallyUnextended(Array("notes".utf8), permissions: 0o644))
    }

    /// An intent line damaged in the middle of a journal: undo cannot revert that rename, and says so.
    @Test func damagedIntentIsLost() throws {
        let dir = try Trees.scratch("journal-lost")
        defer { Trees.remove(dir) }
        let path = Array(dir.appendingPathComponent("j.jsonl").path.utf8)
        let status = try FileDescriptor.currentDirectory.status(of: Array(dir.path.utf8), followSymlink: true)
        let writer = try JournalWriter(path: path, header: JournalHeader(roots: [Array(dir.path.utf8)], argv: ["imgsniff", "rename"]))
        let entries = (1...3).map { JournalEntry(n: $0, directory: Array(dir.path.utf8), from: Array("f\($0)".utf8), to: Array("f\($0).png".utf8), file: status) }
        try writer.append([entries[0].encoded(), Array(entries[1].encoded().prefix(20)), entries[2].encoded()], sync: true)
        try writer.done([1, 2, 3])
        let read = try JournalContents(path: path)
        #expect(read.entries.map(\.n) == [1, 3])
        #expect(read.lostEntries == [2])
    }

    @Test func journalRoundTripAndResync() throws {
        let dir = try Trees.scratch("journal")
        defer { Trees.remove(dir) }
        let path = Array(dir.appendingPathComponent("j.jsonl").path.utf8)
        let status = try FileDescriptor.currentDirectory.status(of: Array(dir.path.utf8), followSymlink: true)
        let header = JournalHeader(roots: [Array(dir.path.utf8)], argv: ["imgsniff", "rename"])
        let writer = try JournalWriter(path: path, header: header)
        let entries = (1...3).map { JournalEntry(n: $0, directory: Array(dir.path.utf8) + [0xFF], from: Array("f\($0)".utf8), to: Array("f\($0).png".utf8), file: status) }
        try writer.append(entries.map { $0.encoded() }, sync: true)
        try writer.done([1, 2])
        // A torn line glued to the next record.
        let torn = entries[2].encoded()
        try writer.append([Array(torn.prefix(30)) + JournalEntry(n: 4, directory: Array(dir.path.utf8), from: Array("g".utf8), to: Array("g.png".utf8), file: status).encoded()], sync: false)
        let read = try JournalContents(path: path)
        #expect(read.header.roots == [Array(dir.path.utf8)])
        #expect(read.entries.map(\.n) == [1, 2, 3, 4])
        #expect(read.entries[0] == entries[0], "non-UTF-8 directory bytes survive")
        #expect(read.done == [1, 2])
        #expect(read.damagedLines == [7])
        #expect(read.lostEntries.isEmpty, "the torn entry 3 was recovered from its line")
        // Refused: writable by others; not a journal.
        chmod(dir.appendingPathComponent("j.jsonl").path, 0o620)
        #expect(throws: JournalError.self) { try JournalContents(path: path) }
        try "{\"n\":1}\n".write(to: dir.appendingPathComponent("other"), atomically: false, encoding: .utf8)
        chmod(dir.appendingPathComponent("other").path, 0o600)
        #expect(throws: JournalError.self) { try JournalContents(path: Array(dir.appendingPathComponent("other").path.utf8)) }
    }
}
