// JPEG's marker segments, from after SOI up to the start of scan: one walker for detection (MPF,
// JPEG-LS), properties (the frame header, EXIF, ICC, XMP) and the MPF secondary images.

/// One step of the walk.
enum JPEGSegment: Equatable {
    /// A marker segment: its marker and the range of its payload (after the length field).
    case segment(marker: UInt8, payload: Range<Int>)
    /// Start of scan (`DA`) or end of image (`D9`): every header segment has been seen.
    case scan(marker: UInt8, at: Int)
    /// Not a marker where one must be: a damaged stream.
    case damaged(at: Int)
}

/// The marker segments from `start` (after SOI), at most `Budget.jpegSegments` of them. Fill
/// bytes and standalone markers (RSTn, TEM, a repeated SOI) are passed over. So are a few stray
/// bytes between segments, as libjpeg passes over them ("extraneous bytes before marker", a
/// warning, not an error): up to `junkLimit` bytes to the next `FF` that starts a marker. When a
/// marker or a length lies past the view, the walk stops with `needs` set.
struct JPEGSegments: Sequence, IteratorProtocol {
    let view: ByteView
    private(set) var offset: Int
    private var steps = 0
    private var done = false
    /// The bytes the walk wanted and did not have.
    private(set) var needs: Range<Int>?

    init(_ v: ByteView, from start: Int = 2) {
        view = v
        offset = start
    }

    mutating func next() -> JPEGSegment? {
        while !done, needs == nil, steps < Budget.jpegSegments {
            steps += 1
            guard view.u8(offset) != nil, let marker = view.u8(offset + 1) else {
                needs = offset..<(offset + 4)
                return nil
            }
            // Stray bytes, or a stuffed FF 00 (no marker): on to the next FF, within reach.
            guard view.u8(offset) == 0xFF, marker != 0x00 else {
                switch JPEGSegments.nextMarker(view, junkAt: offset) {
                case .found(let at): offset = at; continue
                case .needs(let range): needs = range; return nil
                case .none:
                    done = true
                    return .damaged(at: offset)
                }
            }
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            if marker == 0xDA || marker == 0xD9 {
                done = true
                return .scan(marker: marker, at: offset)
            }
            guard let length = view.u16be(offset + 2) else {
                needs = offset..<(offset + 4)
                return nil
            }
            guard length >= 2 else {
                done = true
                return .damaged(at: offset)
            }
            let payload = (offset + 4)..<(offset + 2 + Int(length))
            offset = payload.upperBound
            return .segment(marker: marker, payload: payload)
        }
        return nil
    }

    /// Stray bytes passed over between two segments, at most (Pillow's and libjpeg's damaged
    /// test files have 1 to 16; the walk must not wander into entropy-coded data).
    static let junkLimit = 64

    enum Resync { case found(Int), needs(Range<Int>), none }

    /// Where a marker may start again after stray bytes at `junk` (where a segment ended): the
    /// first `FF` after it within `junkLimit` bytes. Both JPEG walks (this one and the whole-file
    /// `FrameWalk`) resync here.
    static func nextMarker(_ v: ByteView, junkAt junk: Int) -> Resync {
        let limit = junk + junkLimit
        var o = junk + 1
        while o <= limit {
            guard let b = v.u8(o) else { return .needs(o..<(limit + 2)) }
            if b == 0xFF { return .found(o) }
            o += 1
        }
        return .none
    }

    /// SOF0-SOF15 but DHT (C4), JPG (C8) and DAC (CC); SOF55 (F7) of JPEG-LS.
    static func isFrameHeader(_ marker: UInt8) -> Bool {
        ((0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) || marker == 0xF7
    }
}
