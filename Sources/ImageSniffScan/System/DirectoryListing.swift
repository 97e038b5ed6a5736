/// The names in a directory with their `d_type`, sorted bytewise, in one flat buffer (no
/// allocation per name).
package struct DirectoryListing: Sendable {
    package struct Item: Sendable {
        /// The name's first 8 bytes, the first highest, zero past its end: names compare as
        /// their keys do wherever the keys differ (a name holds no NUL), so sorting compares
        /// the bytes themselves only for names that share their first 8.
        let key: UInt64
        let start: Int32
        let length: Int32
        /// `d_type` (`DT_UNKNOWN` when the file system does not say).
        package let type: UInt8
    }

    private var storage: [UInt8] = []
    package private(set) var items: [Item] = []

    /// Lists the directory open on `fd` (which stays open; `.` and `..` are left out).
    package init(_ fd: FileDescriptor) throws(Errno) {
        let listing = dup(fd.rawValue)
        if listing < 0 { throw Errno.current }
        guard let dir = fdopendir(listing) else {
            let error = Errno.current
            close(listing)
            throw error
        }
        defer { closedir(dir) }
        errno = 0
        while let entry = readdir(dir) {
            let type = entry.pointee.d_type
            let appended: Bool = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) { name in
                    let length = strlen(name)
                    if length == 1 && name[0] == 0x2E { return false }
                    if length == 2 && name[0] == 0x2E && name[1] == 0x2E { return false }
                    let start = storage.count
                    storage.append(contentsOf: UnsafeRawBufferPointer(start: name, count: length))
                    var key: UInt64 = 0
                    for i in 0..<8 { key = key << 8 | UInt64(i < length ? UInt8(bitPattern: name[i]) : 0) }
                    items.append(Item(key: key, start: Int32(start), length: Int32(length), type: type))
                    return true
                }
            }
            _ = appended
        }
        if errno != 0 { throw Errno.current }
        storage.withUnsafeBufferPointer { bytes in
            items.sort { a, b in
                if a.key != b.key { return a.key < b.key }
                let n = Int(min(a.length, b.length))
                if n > 0 {
                    let c = memcmp(bytes.baseAddress! + Int(a.start), bytes.baseAddress! + Int(b.start), n)
                    if c != 0 { return c < 0 }
                }
                return a.length < b.length
            }
        }
    }

    package var count: Int { items.count }

    /// The name of item `i`.
    package func name(_ i: Int) -> [UInt8] {
        let item = items[i]
        return Array(storage[Int(item.start)..<Int(item.start + item.length)])
    }

    /// Appends item `i`'s name to `bytes`.
    package func appendName(_ i: Int, to bytes: inout [UInt8]) {
        let item = items[i]
        bytes.append(contentsOf: storage[Int(item.start)..<Int(item.start + item.length)])
    }

    /// Whether item `i`'s name starts with a dot.
    package func isHidden(_ i: Int) -> Bool { storage[Int(items[i].start)] == UInt8(ascii: ".") }

    /// Calls `body` with item `i`'s name (no copy).
    package func withName<R>(_ i: Int, _ body: (ArraySlice<UInt8>) -> R) -> R {
        let item = items[i]
        return body(storage[Int(item.start)..<Int(item.start + item.length)])
    }
}
