// Paths are bytes on Linux: a name that is not valid UTF-8 must still be scanned and renamed. The
// command keeps paths as `[UInt8]` from the argument vector or `readdir` to the system call, and
// turns them into text only for people (`Path.display`).

package enum Path {
    /// Calls `body` with `bytes` NUL-terminated, in a temporary buffer (on the stack when small).
    @inline(__always)
    package static func withCString<R, E: Error>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        try withCString(bytes[...], body)
    }

    /// `withCString` for a part of an array (a name at the end of a path), without copying it out first.
    package static func withCString<R, E: Error>(_ bytes: ArraySlice<UInt8>, _ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            bytes.withUnsafeBufferPointer { source in
                if let from = source.baseAddress, source.count > 0 {
                    UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: from, byteCount: source.count)
                }
            }
            buffer[bytes.count] = 0
            do throws(E) { return .success(try body(UnsafePointer(buffer.baseAddress!))) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The bytes of a NUL-terminated C string.
    package static func bytes(_ cString: UnsafePointer<CChar>) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
    }

    /// The last component (trailing slashes left out).
    package static func baseName(_ path: [UInt8]) -> ArraySlice<UInt8> {
        var end = path.endIndex
        while end > path.startIndex + 1, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let slash = path[..<end].lastIndex(of: UInt8(ascii: "/"))
        return path[(slash.map { $0 + 1 } ?? path.startIndex)..<end]
    }

    /// Directory and last component: "a" -> (".", "a"), "/a" -> ("/", "a"), "d//a" -> ("d", "a").
    package static func split(_ path: [UInt8]) -> (directory: [UInt8], name: [UInt8]) {
        var trimmed = path
        while trimmed.count > 1, trimmed.last == UInt8(ascii: "/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return ([UInt8(ascii: ".")], trimmed) }
        var directory = Array(trimmed[..<slash])
        while directory.count > 1, directory.last == UInt8(ascii: "/") { directory.removeLast() }
        if directory.isEmpty { directory = [UInt8(ascii: "/")] }
        return (directory, Array(trimmed[(slash + 1)...]))
    }

    /// `directory` + "/" + `name` (no doubled slash).
    package static func join(_ directory: [UInt8], _ name: [UInt8]) -> [UInt8] {
        var path = directory
        if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        return path + name
    }

    /// The filename extension of the last component, without the dot, when it is valid UTF-8:
    /// none for "name", ".hidden" or "name.".
    package static func fileExtension<C: BidirectionalCollection>(_ path: C) -> String? where C.Element == UInt8 {
        let slash = path.lastIndex(of: UInt8(ascii: "/")).map { path.index(after: $0) } ?? path.startIndex
        let base = path[slash...]
        guard let dot = base.lastIndex(of: UInt8(ascii: ".")), dot != base.startIndex,
              base.index(after: dot) != base.endIndex else { return nil }
        return String(validating: base[base.index(after: dot)...], as: UTF8.self)
    }

    /// `fileExtension` of a path in an array, in one backward pass over its last component (the
    /// generic one costs 190 instructions a path; every record asks).
    package static func fileExtension(_ path: [UInt8]) -> String? {
        path.withUnsafeBufferPointer { p -> String? in
            var i = p.count - 1
            while i >= 0 {
                let b = p[i]
                if b == UInt8(ascii: "/") { return nil }
                if b == UInt8(ascii: ".") { break }
                i -= 1
            }
            // No dot, a dot that starts the name, or one that ends it: no extension.
            guard i > 0, p[i - 1] != UInt8(ascii: "/"), i + 1 < p.count else { return nil }
            return String(validating: UnsafeBufferPointer(rebasing: p[(i + 1)...]), as: UTF8.self)
        }
    }

    /// Whether the bytes are valid UTF-8.
    package static func isValidUTF8<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// The lossless text form of a path. A path that is valid UTF-8 is shown as it is. In one
    /// that is not, each byte that is not part of valid UTF-8 is written `%XX` (two upper-case
    /// hex digits) and each `%` is written `%25`; valid characters stay as they are.
    package static func display(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var position = 0
        // Decode scalar by scalar; an invalid byte is escaped and decoding resumes after it.
        while position < bytes.count {
            var decoder = UTF8()
            var slice = bytes[position...].makeIterator()
            switch decoder.decode(&slice) {
            case .scalarValue(let scalar):
                let length = UTF8.width(scalar)
                if scalar == "%" {
                    out += Array("%25".utf8)
                } else {
                    out += bytes[position..<(position + length)]
                }
                position += length
            case .emptyInput:
                position = bytes.count
            case .error:
                let b = bytes[position]
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
                position += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
