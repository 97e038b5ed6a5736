import Foundation
@testable import ImageSniff
@_exported import TestSupport

/// Bytes from a string, for hand-built inputs.
func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

/// Detection of hand-built bytes.
func sniff(_ b: [UInt8], hint: String? = nil) -> Detection { ImageSniffer.detect(b, hint: hint) }

/// Little builders for binary headers.
struct ByteBuilder {
    var bytes: [UInt8] = []
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16le(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    mutating func u16be(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    mutating func u32le(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }
    mutating func u32be(_ v: UInt32) { for i in (0..<4).reversed() { bytes.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }
    mutating func ascii(_ s: String) { bytes += Array(s.utf8) }
    mutating func zeros(_ n: Int) { bytes += [UInt8](repeating: 0, count: n) }
}

/// A little-endian TIFF with one IFD0 holding the given entries (tag, type, count, value or
/// offset); string values are appended after the IFD. Used to build minimal camera RAW
/// structures from the TIFF 6.0 layout.
func makeTIFF(entries: [(tag: UInt16, type: UInt16, value: TIFFValue)], extra: [UInt8] = []) -> [UInt8] {
    var b = ByteBuilder()
    b.ascii("II"); b.u16le(42); b.u32le(8)
    let sorted = entries.sorted { $0.tag < $1.tag }
    let ifdSize = 2 + sorted.count * 12 + 4
    var dataOffset = 8 + ifdSize
    var data: [UInt8] = []
    b.u16le(UInt16(sorted.count))
    for e in sorted {
        b.u16le(e.tag); b.u16le(e.type)
        switch e.value {
        case .short(let v): b.u32le(1); b.u16le(v); b.u16le(0)
        case .long(let v): b.u32le(1); b.u32le(v)
        case .ascii(let s):
            var payload = Array(s.utf8) + [0]
            b.u32le(UInt32(payload.count))
            if payload.count <= 4 {
                payload += [UInt8](repeating: 0, count: 4 - payload.count)
                b.bytes += payload
            } else {
                b.u32le(UInt32(dataOffset)); data += payload; dataOffset += payload.count
            }
        case .undefined(let count): b.u32le(count); b.u32le(0)
        }
    }
    b.u32le(0)
    return b.bytes + data + extra
}

enum TIFFValue {
    case short(UInt16)
    case long(UInt32)
    case ascii(String)
    case undefined(UInt32)
}
