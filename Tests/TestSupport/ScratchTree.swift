// Scratch trees of files, and parsers for what the command writes.

import Foundation
#if canImport(Glibc)
import Glibc
#endif


/// A minimal JFIF JPEG: SOI, APP0, SOS, EOI.
public let jpegBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) +
    [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
     0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0xFF, 0xD9]

/// A PNG signature and IHDR (enough for the detector).
public let pngBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) +
    [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE, 0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]

/// A TGA without the 2.0 footer: RLE true-colour (type 10), 2x2, 24 bpp, one run packet, then
/// bytes the image data does not account for (so that only the hint can name it).
public let tgaBytes: [UInt8] = [0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 24, 0] + [0x83, 0x10, 0x20, 0x30]
    + [UInt8](repeating: 0x55, count: 40)

/// A name that is not valid UTF-8 (raw bytes), with a '%' to check the escaping.
public let invalidName: [UInt8] = Array("bad-".utf8) + [0xFF, 0xFE] + Array("%name.png".utf8)

public final class ScratchTree {
    public let root: URL

    public init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-tree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    public func file(_ path: String, _ bytes: [UInt8]) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// Creates a file whose name is raw bytes (Foundation cannot spell them).
    public func rawFile(in dir: String, name: [UInt8], _ bytes: [UInt8]) throws {
        var path = Array(root.appendingPathComponent(dir).path.utf8) + [UInt8(ascii: "/")] + name
        path.append(0)
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
        guard fd >= 0 else { throw CLIError("open failed: \(errno)") }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    public func fifo(_ path: String) throws {
        guard mkfifo(root.appendingPathComponent(path).path, 0o644) == 0 else { throw CLIError("mkfifo failed: \(errno)") }
    }

    public func symlink(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent(path).path, withDestinationPath: target)
    }

    /// nested folders, a FIFO, a symlink loop, an empty file, a non-UTF-8 name, a JPEG named
    /// photo.tiff, a PNG, a hidden file.
    public static func hostile() throws -> ScratchTree {
        let t = try ScratchTree()
        try t.file("a/b/c/deep.png", pngBytes)
        try t.file("a/photo.tiff", jpegBytes)
        try t.file("a/right.jpg", jpegBytes)
        try t.file("empty", [])
        try t.file("notes.txt", Array("hello, world\n".utf8))
        try t.file(".hidden/secret.png", pngBytes)
        try t.rawFile(in: "a", name: invalidName, pngBytes)
        try t.fifo("a/pipe")
        try t.symlink("a/b/loop", to: "../..")
        try t.symlink("a/link.png", to: "../a/b/c/deep.png")
        return t
    }
}

public func parseNDJSON(_ r: RunResult) throws -> [[String: Any]] {
    try r.lines.map { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw CLIError("not a JSON object: \(line)")
        }
        return object
    }
}

public func byPath(_ records: [[String: Any]]) -> [String: [String: Any]] {
    var map: [String: [String: Any]] = [:]
    for r in records { map[r["path"] as? String ?? ""] = r }
    return map
}

/// RFC 4180 parser (quoted fields, doubled quotes, CRLF).
public func parseCSV(_ text: String) throws -> [[String]] {
    var rows: [[String]] = [], row: [String] = [], field = ""
    var quoted = false, i = text.unicodeScalars.startIndex
    let s = text.unicodeScalars
    while i != s.endIndex {
        let c = s[i]
        if quoted {
            if c == "\"" {
                let n = s.index(after: i)
                if n != s.endIndex && s[n] == "\"" { field += "\""; i = n } else { quoted = false }
            } else { field.unicodeScalars.append(c) }
        } else if c == "\"" {
            guard field.isEmpty else { throw CLIError("quote inside unquoted field") }
            quoted = true
        } else if c == "," {
            row.append(field); field = ""
        } else if c == "\r" {
            let n = s.index(after: i)
            guard n != s.endIndex, s[n] == "\n" else { throw CLIError("bare CR") }
            row.append(field); rows.append(row); row = []; field = ""; i = n
        } else if c == "\n" {
            throw CLIError("bare LF line ending")
        } else { field.unicodeScalars.append(c) }
        i = s.index(after: i)
    }
    if quoted { throw CLIError("unterminated quote") }
    if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
    return rows
}

