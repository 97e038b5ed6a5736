import ImageSniff
import ImageSniffMagic
import ImageSniffScan

/// `scan --cross-check`: libmagic's answer beside ours, one handle per worker thread.
package final class MagicCrossChecker: CrossChecker {
    private var magic: Result<Magic, MagicError>?

    package init() {}

    /// Makes one per worker (a libmagic handle is not shared between threads).
    package static let factory: @Sendable () -> any CrossChecker = { MagicCrossChecker() }

    /// libmagic's answer for the entry, reading the file the way detection did (`O_NOFOLLOW`
    /// unless following links, `O_NONBLOCK`, checked regular before reading).
    package func check(_ entry: WalkEntry, ours: ImageType, bytes: [UInt8]?) -> CrossCheckAnnotation {
        let handle: Magic
        switch magic {
        case .success(let m): handle = m
        case .failure(let e): return .failed(e.message)
        case nil:
            do throws(MagicError) {
                handle = try Magic()
                magic = .success(handle)
            } catch {
                magic = .failure(error)
                return .failed(error.message)
            }
        }
        do throws(MagicError) {
            let answer: MagicResult
            if let bytes {
                answer = try handle.identify(bytes)
            } else if entry.kind == .standardInput {
                answer = try handle.identify(fileDescriptor: FileDescriptor.standardInput.rawValue)
            } else {
                let (directory, name) = entry.location
                let flags = O_RDONLY | O_NONBLOCK | (entry.followSymlinks ? 0 : O_NOFOLLOW)
                let fd: FileDescriptor
                do throws(Errno) { fd = try FileDescriptor.open(Array(name), relativeTo: directory, flags: flags) } catch {
                    throw MagicError("cannot open (\(error))", code: error.rawValue)
                }
                defer { fd.close() }
                answer = try handle.identify(fileDescriptor: fd.rawValue)
            }
            let result = CrossCheckResult(ours: ours, libmagic: answer)
            return .compared(CrossCheckFields(mimeType: answer.mimeType, description: answer.description,
                                              uti: result.theirs?.identifier, verdict: result.verdict.rawValue))
        } catch {
            return .failed(error.message)
        }
    }
}

/// Whether `--cross-check` can run: libmagic's database loads (a missing or broken one fails the
/// scan at once with libmagic's message, rather than every record).
package enum CrossCheckSetup {
    package static func check() -> String? {
        do throws(MagicError) { _ = try Magic() } catch { return error.message }
        return nil
    }
}
