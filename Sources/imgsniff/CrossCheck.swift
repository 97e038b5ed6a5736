// `imgsniff scan --cross-check`: libmagic's answer beside ours, as a `RecordAnnotator`.
//
// Every record gains a "libmagic" object: {"mime", "description", "uti", "verdict"} (or
// {"error"} when libmagic could not examine the file). The table shows libmagic's MIME type and
// the verdict; its summary counts verdicts and lists the most common differing pairs.
// libmagic costs about 50 times what detection does: it runs on the scan's worker threads, one
// `Magic` handle per worker (libmagic handles are not thread-safe).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import ImageSniff
import ImageSniffMagic

final class CrossCheckAnnotator: RecordAnnotator {
    let fieldNames = ["libmagic"]
    let columnTitles = ["LIBMAGIC", "VERDICT"]
    private var summary = CrossCheckSummary()

    /// Loads the magic database once, so that a missing or broken one fails the scan at once
    /// with libmagic's message (workers load their own handles).
    init() throws(MagicError) {
        _ = try Magic()
    }

    /// The annotator, or a message on standard error and exit status 1 when libmagic's database
    /// cannot be loaded.
    static func make() throws -> CrossCheckAnnotator {
        do throws(MagicError) {
            return try CrossCheckAnnotator()
        } catch {
            FileHandleLite.stderr("imgsniff: --cross-check: \(error.message)")
            throw ExitCode.failure
        }
    }

    func makeWorker() -> any RecordAnnotatorWorker { CrossCheckWorker() }

    func didEmit(_ record: ScanRecord) {
        guard let members = record.extraFields.lazy.compactMap(CrossCheckAnnotator.ownObject).first else { return }
        let value = { (name: String) -> String? in
            for m in members where m.name == name { if case .string(let s) = m.value { return s } }
            return nil
        }
        if value("error") != nil {
            summary.addError()
        } else if let d = record.detection, let mime = value("mime"), let description = value("description") {
            summary.add(CrossCheckResult(ours: d.type, libmagic: MagicResult(mimeType: mime, description: description)))
        }
    }

    func summaryLines() -> [String] {
        guard summary.total + summary.errors > 0 else { return [] }
        return [""] + summary.report(pairLimit: 10).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Our object among a record's extra fields (the one with a "verdict" member).
    private static func ownObject(_ value: AnnotationValue) -> [AnnotationMember]? {
        guard case .object(let members) = value, members.contains(where: { $0.name == "verdict" }) else { return nil }
        return members
    }
}

/// One per worker thread: owns that thread's libmagic handle.
final class CrossCheckWorker: RecordAnnotatorWorker {
    private var magic: Result<Magic, MagicError>?

    func annotate(_ record: inout ScanRecord, entry: WalkEntry) {
        guard let detection = record.detection else {
            record.extraFields.append(.null)
            record.extraCells += ["", ""]
            return
        }
        do throws(MagicError) {
            let answer = try identify(entry)
            let result = CrossCheckResult(ours: detection.type, libmagic: answer)
            record.extraFields.append(.object([
                AnnotationMember(name: "mime", value: .string(answer.mimeType)),
                AnnotationMember(name: "description", value: .string(answer.description)),
                AnnotationMember(name: "uti", value: result.theirs.map { .string($0.identifier) } ?? .null),
                AnnotationMember(name: "verdict", value: .string(result.verdict.rawValue)),
            ]))
            record.extraCells += [answer.mimeType, result.verdict.rawValue]
        } catch {
            record.extraFields.append(.object([
                AnnotationMember(name: "mime", value: .null),
                AnnotationMember(name: "description", value: .null),
                AnnotationMember(name: "uti", value: .null),
                AnnotationMember(name: "verdict", value: .null),
                AnnotationMember(name: "error", value: .string(error.message)),
            ]))
            record.extraCells += ["(error)", ""]
        }
    }

    /// libmagic's answer for the entry: the file opened the way detection opened it
    /// (`O_NOFOLLOW` unless following links, `O_NONBLOCK`, checked regular before reading).
    private func identify(_ entry: WalkEntry) throws(MagicError) -> MagicResult {
        let magic: Magic
        switch self.magic {
        case .success(let m): magic = m
        case .failure(let e): throw e
        case nil:
            do throws(MagicError) {
                magic = try Magic()
                self.magic = .success(magic)
            } catch {
                self.magic = .failure(error)
                throw error
            }
        }
        if entry.kind == .standardInput {
            var st = stat()
            guard fstat(0, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
                throw MagicError("standard input is not a regular file (already read by detection)")
            }
            return try magic.identify(fileDescriptor: 0)
        }
        guard !entry.kind.isSpecial else { throw MagicError("not a regular file") }
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (entry.followSymlinks ? 0 : O_NOFOLLOW)
        let fd = entry.withLocation { dir, name in openat(dir, name, flags) }
        if fd < 0 {
            let code = errno
            throw MagicError("cannot open (\(String(cString: strerror(code))))", code: code)
        }
        defer { close(fd) }
        return try magic.identify(fileDescriptor: fd)
    }
}
