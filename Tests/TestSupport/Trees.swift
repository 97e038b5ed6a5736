// Files with raw-byte names, snapshots of directories, and sample images for the command's tests.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum Trees {
    /// A fresh scratch directory under the system's temporary directory.
    public static func scratch(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("imgsniff-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    public static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url) }

    /// Creates a file whose name is raw bytes (never replacing one).
    public static func write(_ bytes: [UInt8], name: [UInt8], in dir: URL) throws {
        let path = Array(dir.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        guard fd >= 0 else { throw CLIError("cannot create \(String(decoding: name, as: UTF8.self)): errno \(errno)") }
        defer { close(fd) }
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw CLIError("short write") }
    }

    public static func write(_ bytes: [UInt8], _ name: String, in dir: URL) throws {
        try write(bytes, name: Array(name.utf8), in: dir)
    }

    /// A chain of `levels` directories named `component` under `root`, and a file `leaf` at the
    /// bottom, made with directory-relative calls (the whole path may exceed PATH_MAX).
    public static func chain(in root: URL, component: String, levels: Int, leaf: String, bytes: [UInt8]) throws {
        var fd = open(root.path, O_RDONLY | O_DIRECTORY)
        for _ in 0..<levels {
            guard mkdirat(fd, component, 0o755) == 0 else { throw CLIError("mkdirat: errno \(errno)") }
            let next = openat(fd, component, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
        }
        let file = openat(fd, leaf, O_CREAT | O_WRONLY, 0o644)
        _ = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) }
        close(file)
        close(fd)
    }

    /// Removes a directory tree of any depth with directory-relative calls.
    public static func removeDeep(_ path: String) {
        func remove(_ dirfd: Int32) {
            guard let dir = fdopendir(dup(dirfd)) else { return }
            var names: [(String, Bool)] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                names.append((name, entry.pointee.d_type == UInt8(DT_DIR)))
            }
            closedir(dir)
            for (name, isDir) in names {
                if isDir {
                    let child = openat(dirfd, name, O_RDONLY | O_DIRECTORY)
                    if child >= 0 { remove(child); close(child) }
                    unlinkat(dirfd, name, AT_REMOVEDIR)
                } else {
                    unlinkat(dirfd, name, 0)
                }
            }
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        remove(fd)
        close(fd)
        rmdir(path)
    }

    /// Every entry of a directory (not recursive), by raw name, with its bytes.
    public static func snapshot(_ dir: URL) -> [[UInt8]: [UInt8]] {
        var result: [[UInt8]: [UInt8]] = [:]
        guard let d = opendir(dir.path) else { return result }
        defer { closedir(d) }
        while let ent = readdir(d) {
            let name: [UInt8] = withUnsafePointer(to: &ent.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: 256) { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
            }
            if name == [46] || name == [46, 46] { continue }
            result[name] = contents(Array(dir.path.utf8) + [47] + name) ?? []
        }
        return result
    }

    /// A file's bytes, by raw path.
    public static func contents(_ path: [UInt8]) -> [UInt8]? {
        let fd = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_NONBLOCK) } }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[..<n]
        }
        return out
    }

    /// The names of a snapshot, as text, sorted.
    public static func names(_ snapshot: [[UInt8]: [UInt8]]) -> [String] {
        snapshot.keys.map { String(decoding: $0, as: UTF8.self) }.sorted()
    }
}

/// Real files of TestImages, for trees that need images of known types.
public enum Samples {
    public static func bytes(_ identifier: String) -> [UInt8] {
        guard let entry = Manifest.first(identifier), let bytes = try? entry.bytes() else { return [] }
        return bytes
    }

    public static let png = bytes("public.png")
    public static let jpeg = bytes("public.jpeg")
    public static let gif = bytes("com.compuserve.gif")
    public static let heic = bytes("public.heic")
    public static let tiffFamily = (try? [UInt8](Data(contentsOf: Repository.testImages.appendingPathComponent("raw/plain-tiff-nikon-make")))) ?? []

    /// Bytes that mean nothing (a fixed pseudo-random sequence).
    public static let noise: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<2048).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }()
}

/// NDJSON rows keyed by the last component of their `path`.
public func rowsByName(_ rows: [[String: Any]]) -> [String: [String: Any]] {
    var result: [String: [String: Any]] = [:]
    for row in rows {
        if let path = row["path"] as? String { result[String(path.split(separator: "/").last ?? "")] = row }
    }
    return result
}
