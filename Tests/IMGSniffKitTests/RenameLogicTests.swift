import Foundation
import Testing
import Synchronization
import ImageSniff
import TestSupport
@testable import IMGSniffKit
@testable import ImageSniffScan

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
                    let scan = MismatchRule.extensionMatches(ext, detection: detection, length: 1)
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
                     "photo.jpg.crdownload", ".x.jpg.AbCd12",
                     // a download in progress, a temporary, a backup, whatever comes before (a
                     // stranger's `Unconfirmed 123.crdownload` became `Unconfirmed 123.jpg` with --fix)
                     "Unconfirmed 123.crdownload", "a.part", "b.PARTIAL", "c.tmp", "d.bak", "e.orig", "f.swp", "g.filepart",
                     // exiftool's backup of the file it edited (a stranger's became IMG_2.jpg under --fix)
                     "IMG_1.JPG_original", "scan.png_original"] {
            #expect(decide(name, .png, fix: true) == .keep(.backupName), "\(name)")
        }
        #expect(decide("logo_original", .png) == .rename(to: Array("logo_original.png".utf8), reason: .noExtension, suffixed: false),
                "a stem that ends in _original is not exiftool's backup")
        #expect(decide(".face", .png) == .rename(to: Array(".face.png".utf8), reason: .noExtension, suffixed: false))
        #expect(decide("scan.2", .png) == .rename(to: Array("scan.2.png".utf8), reason: .noExtension, suffixed: false))
    }

    @Test func versionControlAndConventionalNames() {
        #expect(RenameRules.versionControlDirectory(in: Array("repo/.git/lfs/objects/4d/7a/4d7a21".utf8)) == ".git")
        #expect(RenameRules.versionControlDirectory(in: Array("/home/u/.hg/store/x".utf8)) == ".hg")
        #expect(RenameRules.versionControlDirectory(in: Array("repo/.github/logo".utf8)) == nil)
        #expect(RenameRules.versionControlDirectory(in: Array("repo/.dvc/cache/files/md5/4d/7a21".utf8)) == ".dvc", "DVC's cache")
        #expect(RenameRules.versionControlDirectory(in: Array("srv/project.git/objects/ab/cd".utf8)) == "project.git", "a bare repository")
        #expect(RenameRules.versionControlDirectory(in: Array("repo/.git".utf8)) == nil, "a file named .git is a name, not a directory on the way")
        #expect(RenameRules.isConventionallyUnextended(Array("Makefile".utf8), permissions: 0o644))
        #expect(RenameRules.isConventionallyUnextended(Array("LICENSE".utf8), permissions: 0o644))
        #expect(RenameRules.isConventionallyUnextended(Array("build".utf8), permissions: 0o755), "executable")
        #expect(!RenameRules.isConventionallyUnextended(Array("notes".utf8), permissions: 0o644))
        // Keys and configuration found by name: a stranger's --all-types gave them `.txt`.
        for name in ["id_rsa", "id_ed25519", "known_hosts", "authorized_keys", "config", "crontab", "CNAME"] {
            #expect(RenameRules.isConventionallyUnextended(Array(name.utf8), permissions: 0o600), "\(name)")
        }
    }

    /// A journal in a scratch directory, signed with a key made there.
    static func journal(_ dir: URL) throws -> (path: [UInt8], key: JournalKey, writer: JournalWriter, status: FileStatus) {
        let key = try JournalKey.loadOrCreate(in: Array(dir.path.utf8))
        let path = Array(dir.appendingPathComponent("j.jsonl").path.utf8)
        let status = try FileDescriptor.currentDirectory.status(of: Array(dir.path.utf8), followSymlink: true)
        let writer = try JournalWriter(path: path, header: JournalHeader(roots: [Array(dir.path.utf8)], argv: ["imgsniff", "rename"]), key: key)
        return (path, key, writer, status)
    }

    static func entry(_ n: Int, _ dir: URL, _ status: FileStatus, directory: [UInt8]? = nil) -> JournalEntry {
        JournalEntry(n: n, directory: directory ?? Array(dir.path.utf8), from: Array("f\(n)".utf8), to: Array("f\(n).png".utf8), file: status)
    }

    /// An intent line damaged in the middle of a journal: undo cannot revert that rename, and says so.
    @Test func damagedIntentIsLost() throws {
        let dir = try Trees.scratch("journal-lost")
        defer { Trees.remove(dir) }
        let (path, key, writer, status) = try Self.journal(dir)
        let entries = (1...3).map { Self.entry($0, dir, status) }
        try writer.append([entries[0].encoded()], sync: true)
        try writer.write([Array(entries[1].encoded().prefix(20))], sync: true)
        try writer.append([entries[2].encoded()], sync: true)
        try writer.done([1, 2, 3])
        try writer.end(intents: 3)
        let reader = try JournalReader(path: path, key: key)
        var numbers: [Int] = []
        let summary = try RenameUndo.undo(reader) { numbers.append($0.entry.n); return true }
        #expect(numbers == [3, 1], "last first")
        #expect(summary.lost == [2...2])
        #expect(summary.ended)
        #expect(!summary.isComplete)
    }

    @Test func journalRoundTripAndResync() throws {
        let dir = try Trees.scratch("journal")
        defer { Trees.remove(dir) }
        let (path, key, writer, status) = try Self.journal(dir)
        let entries = (1...3).map { Self.entry($0, dir, status, directory: Array(dir.path.utf8) + [0xFF]) }
        try writer.append(entries.map { $0.encoded() }, sync: true)
        try writer.done([1, 2])
        // A torn line glued to the next record.
        let torn = key.sign(entries[2].encoded(), scope: JournalHeader(roots: [], argv: []).id)
        let glued = key.sign(Self.entry(4, dir, status).encoded(), scope: try JournalReader(path: path, key: key).header.id)
        try writer.write([Array(torn.prefix(30)) + glued], sync: false)
        let read = try JournalReader(path: path, key: key).all()
        #expect(read.records.compactMap { if case .intent(let e) = $0 { return e.n } else { return nil } } == [1, 2, 3, 4])
        #expect(read.records.first == .intent(entries[0]), "non-UTF-8 directory bytes survive")
        #expect(read.records.contains(.done(1)) && read.records.contains(.done(2)))
        #expect(read.damagedLines == [7])
        // Refused: writable by others; not a journal; signed under another key; edited.
        chmod(dir.appendingPathComponent("j.jsonl").path, 0o620)
        #expect(throws: JournalError.self) { try JournalReader(path: path, key: key) }
        chmod(dir.appendingPathComponent("j.jsonl").path, 0o600)
        try "{\"n\":1}\n".write(to: dir.appendingPathComponent("other"), atomically: false, encoding: .utf8)
        chmod(dir.appendingPathComponent("other").path, 0o600)
        #expect(throws: JournalError.self) { try JournalReader(path: Array(dir.appendingPathComponent("other").path.utf8), key: key) }
        let otherKeyDir = try Trees.scratch("journal-other-key")
        defer { Trees.remove(otherKeyDir) }
        let otherKey = try JournalKey.loadOrCreate(in: Array(otherKeyDir.path.utf8))
        #expect(throws: JournalError.self) { try JournalReader(path: path, key: otherKey) }
    }

    /// A signed line whose content was changed afterwards is damaged: never acted on.
    @Test func editedLineIsNotActedOn() throws {
        let dir = try Trees.scratch("journal-edit")
        defer { Trees.remove(dir) }
        let (path, key, writer, status) = try Self.journal(dir)
        try writer.append([Self.entry(1, dir, status).encoded(), Self.entry(2, dir, status).encoded()], sync: true)
        try writer.end(intents: 2)
        var text = try String(contentsOf: dir.appendingPathComponent("j.jsonl"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"from\":\"f2\"", with: "\"from\":\"xx\"")
        try text.write(to: dir.appendingPathComponent("j.jsonl"), atomically: false, encoding: .utf8)
        let read = try JournalReader(path: path, key: key).all()
        #expect(read.records.compactMap { if case .intent(let e) = $0 { return e.n } else { return nil } } == [1])
        #expect(read.damagedLines == [3])
    }

    /// Versions 1 and 2 carry no signature: refused, unless accepted as unsigned; then a version
    /// 1 journal (no roots) acts nowhere, and a version 2 one only inside its roots.
    @Test func unsignedJournals() throws {
        let dir = try Trees.scratch("journal-unsigned")
        defer { Trees.remove(dir) }
        let key = try JournalKey.loadOrCreate(in: Array(dir.path.utf8))
        let status = try FileDescriptor.currentDirectory.status(of: Array(dir.path.utf8), followSymlink: true)
        for version in [1, 2] {
            let url = dir.appendingPathComponent("v\(version).jsonl")
            let roots = version == 2 ? ",\"roots\":[\"/nowhere\"]" : ""
            let line = String(decoding: Self.entry(1, dir, status).encoded(), as: UTF8.self)
            try "{\"imgsniff\":\"rename-journal\",\"version\":\(version)\(roots)}\n\(line)\n".write(to: url, atomically: false, encoding: .utf8)
            chmod(url.path, 0o600)
            let path = Array(url.path.utf8)
            #expect(throws: JournalError.self) { try JournalReader(path: path, key: key) }
            let reader = try JournalReader(path: path, key: key, acceptUnsigned: true)
            var outcomes: [UndoOutcome] = []
            _ = try RenameUndo.undo(reader) { outcomes.append($0); return true }
            #expect(outcomes.count == 1 && outcomes[0].status == .refused && outcomes[0].reason.contains("outside the journal's roots"))
        }
    }

    /// A stranger's finds: the key was created under its name and written after, so a full disk
    /// left an empty one that every later run refused, and a run started beside the first one
    /// could read it still empty. It is written aside and linked into place: runs started at
    /// once all get the one key, whole, and leave nothing else. An empty key (from an earlier
    /// version) is refused with what to do.
    @Test func journalKeyIsWholeOnceNamed() throws {
        let dir = try Trees.scratch("journal-key")
        defer { Trees.remove(dir) }
        let path = Array(dir.path.utf8)
        let keys = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let key = try? JournalKey.loadOrCreate(in: path) { keys.withLock { $0.append(key.bytes) } }
        }
        let made = keys.withLock { $0 }
        #expect(made.count == 8 && Set(made).count == 1 && made[0].count == 32)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["journal.key"])
        // An empty key: refused, saying it signed nothing and to remove it.
        let empty = try Trees.scratch("journal-key-empty")
        defer { Trees.remove(empty) }
        let keyFile = empty.appendingPathComponent("journal.key")
        #expect(FileManager.default.createFile(atPath: keyFile.path, contents: Data(), attributes: [.posixPermissions: 0o600]))
        do {
            _ = try JournalKey.loadOrCreate(in: Array(empty.path.utf8))
            Issue.record("an empty key was used")
        } catch {
            #expect(error.description.contains("is empty") && error.description.contains("remove it"), "\(error)")
        }
    }

    /// Journals written at the same time (a file system of coarse times) are told apart by their
    /// names' time stamp, then process id as a number: 9991 before 10011 (a reviewer's find).
    @Test func journalNamesInOrder() {
        func earlier(_ a: String, _ b: String) -> Bool { JournalWriter.namedEarlier(Array(a.utf8), Array(b.utf8)) }
        #expect(earlier("rename-20261128-130115-9991.jsonl", "rename-20261128-130115-10011.jsonl"))
        #expect(!earlier("rename-20261128-130115-10011.jsonl", "rename-20261128-130115-9991.jsonl"))
        #expect(earlier("rename-20261128-130114-99999.jsonl", "rename-20261128-130115-2.jsonl"))
        #expect(earlier("rename-a.jsonl", "rename-b.jsonl"), "other names: as text")
    }

    /// SHA-256 and HMAC-SHA-256 known answers (FIPS 180-4 examples, RFC 4231 test case 2).
    @Test func hashKnownAnswers() {
        #expect(String(decoding: Hex.encode(SHA256.hash(Array("abc".utf8))), as: UTF8.self)
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(String(decoding: Hex.encode(SHA256.hash([UInt8]())), as: UTF8.self)
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(String(decoding: Hex.encode(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))), as: UTF8.self)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(String(decoding: Hex.encode(HMAC.sha256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))), as: UTF8.self)
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }
}
