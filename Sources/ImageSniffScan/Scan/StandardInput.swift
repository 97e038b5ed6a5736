import ImageSniff

/// Reading `-`: a regular file is read like any other; a pipe (or a file that says it is empty)
/// is read as it comes, until the answer is decided (`IncrementalSniffer`), and its length is
/// known only when it was read to the end.
package enum StandardInput {
    /// What was read: the detection, the length (nil when the stream was not read to its end),
    /// and the first bytes read from a pipe, up to the cap (for `--cross-check`: libmagic reads
    /// them from memory, since a pipe is read once).
    package struct Reading: Sendable {
        package let detection: Detection
        /// The image's properties (with `properties`; `.unknown` otherwise).
        package let properties: ImageProperties
        package let length: Int?
        package let bytes: [UInt8]?
    }

    /// - Parameter properties: whether to read the image's properties too (from a pipe, as they
    ///   settle: the same answer as the same bytes in a file).
    /// - Parameter verify: whether to check that the data is whole (`ReadBudget.verify`): a pipe
    ///   is then read to its end.
    package static func detect(hint: String?, properties: Bool = false, verify: Bool = false) throws(Errno) -> Reading {
        let stdin = FileDescriptor.standardInput
        let budget: ReadBudget = verify ? .verifying : .default
        // A regular file that says it is empty is read as a stream: a file of /proc or /sys
        // says 0 and has bytes (`imgsniff scan - < /proc/cpuinfo` was "empty"; `file -` reads
        // it). A file that is empty indeed reads nothing and is empty either way.
        if let status = try? stdin.status(), status.kind == .regular, status.size > 0 {
            let sniffer = FileSniffer(budget: budget)
            sniffer.cancellationCheck = { Interrupt.requested }
            do throws(FileError) {
                if properties {
                    let inspection = try sniffer.inspect(fileDescriptor: stdin.rawValue, hint: hint)
                    return Reading(detection: inspection.detection, properties: inspection.properties, length: sniffer.lastLength, bytes: nil)
                }
                let d = try sniffer.detect(fileDescriptor: stdin.rawValue, hint: hint)
                return Reading(detection: d, properties: .unknown, length: sniffer.lastLength, bytes: nil)
            } catch {
                if error.isCancellation { throw Errno.interrupted }
                throw Errno(error.code == 0 ? EIO : error.code)
            }
        }
        // A pipe or terminal: read as the bytes come, only until the answer is decided (an
        // endless stream is answered; a decided format is not read on). An answer that waits for
        // the end of the data (a TGA without a footer is named by its length; an icon whose
        // images lie past the first bytes may be cut) reads on to it, passing the bytes over,
        // within the budget a stream may pass over (`ReadBudget.bytesSkipped`): a 2 MB TGA piped
        // was data, and its properties and a large icon's were null.
        var sniffer = IncrementalSniffer(hint: hint, budget: budget, readsProperties: properties)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var ended = false
        func awaitsEnd(_ s: IncrementalSniffer) -> Bool {
            guard case .provisional(_, .end) = s.status else { return false }
            return s.bytesSeen < budget.prefixCap + budget.bytesSkipped
        }
        while sniffer.wantsMoreData || awaitsEnd(sniffer) {
            // A stream that never ends (`yes | imgsniff scan --verify -`) stops at a signal.
            if Interrupt.requested { throw Errno.interrupted }
            let n = try chunk.withMutableBytes { (raw) throws(Errno) -> Int in try stdin.readUnlessInterrupted(into: raw) }
            if n == 0 {
                ended = true
                break
            }
            let piece = chunk[0..<n]
            if bytes.count < Limits.maxPrefix { bytes.append(contentsOf: piece.prefix(Limits.maxPrefix - bytes.count)) }
            sniffer.append(piece)
        }
        if ended { sniffer.finish() }
        let detection = sniffer.detection ?? Detection(type: .data, confidence: .unknown, completeness: .truncated)
        return Reading(detection: detection, properties: sniffer.propertyProgress.properties,
                       length: ended ? sniffer.bytesSeen : nil, bytes: bytes)
    }
}
