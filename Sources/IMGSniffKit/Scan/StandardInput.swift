import ImageSniff

/// Reading `-`: a regular file is read like any other; a pipe is read up to the detection cap.
public enum StandardInput {
    /// What was read: the detection, the length (nil when not known), and the bytes read from a
    /// pipe (for `--cross-check`: libmagic reads them from memory, since a pipe is read once).
    public struct Reading: Sendable {
        public let detection: Detection
        public let length: Int?
        public let bytes: [UInt8]?
    }

    public static func detect(hint: String?) throws(Errno) -> Reading {
        let stdin = FileDescriptor.standardInput
        if let status = try? stdin.status(), status.kind == .regular {
            let sniffer = FileSniffer()
            do throws(FileError) {
                let d = try sniffer.detect(fileDescriptor: stdin.rawValue, hint: hint)
                return Reading(detection: d, length: sniffer.lastLength, bytes: nil)
            } catch {
                throw Errno(error.code == 0 ? EIO : error.code)
            }
        }
        let cap = Limits.maxPrefix
        var buffer = [UInt8](repeating: 0, count: cap)
        let have = try buffer.withMutableBytes { (raw) throws(Errno) -> Int in try stdin.readFully(into: raw) }
        buffer.removeLast(cap - have)
        if have < cap { return Reading(detection: ImageSniffer.detect(buffer, hint: hint), length: have, bytes: buffer) }
        // More than the cap: count the rest so that the length is right.
        var total = have
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try scratch.withMutableBytes { (raw) throws(Errno) -> Int in try stdin.read(into: raw) }
            if n == 0 { break }
            total += n
        }
        return Reading(detection: ImageSniffer.detect(prefix: buffer, totalLength: total, hint: hint), length: total, bytes: buffer)
    }
}
