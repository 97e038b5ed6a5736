// ISO base media boxes (HEIF, AVIF, MP4, CR3), and the JPEG 2000 and JPEG XL containers, which box
// their data the same way: size (32-bit; 1: a 64-bit size follows; 0: to the end), then type.

/// One box: its type and extent.
struct Box: Equatable {
    let type: UInt32
    let start: Int
    /// Where the payload starts (after the 8- or 16-byte header).
    let payload: Int
    /// Where the box ends (clamped to its parent's end).
    let end: Int
    /// A full box's payload (after version and flags).
    var fullPayload: Int { payload + 4 }
}

/// The boxes among siblings from `start` to `end`, in order, at most `Budget.boxes` of them.
/// When a box header lies past the bytes in view, the walk stops with `needs` set.
struct Boxes: Sequence, IteratorProtocol {
    let view: ByteView
    private var offset: Int
    let end: Int
    /// The length of the whole data, for a last box whose size is 0 ("to the end").
    let dataEnd: Int
    /// Whether `dataEnd` is only what is held (a stream whose end has not come): a box that runs
    /// to the end then wants more, for its end is not known yet.
    let openEnded: Bool
    private var steps = 0
    /// The bytes the walk wanted and did not have.
    private(set) var needs: Range<Int>?

    init(_ v: ByteView, from start: Int, to end: Int, dataEnd: Int? = nil, openEnded: Bool = false) {
        view = v
        offset = start
        self.end = end
        self.dataEnd = dataEnd ?? end
        self.openEnded = openEnded
    }

    mutating func next() -> Box? {
        guard needs == nil, steps < Budget.boxes, offset < end, end - offset >= 8 else { return nil }
        steps += 1
        guard let size32 = view.u32be(offset), let type = view.u32be(offset + 4) else {
            needs = offset..<(offset + 16)
            return nil
        }
        var header = 8
        var size = Int(size32)
        if size32 == 1 {
            guard let large = view.u64(offset + 8, bigEndian: true) else {
                needs = offset..<(offset + 16)
                return nil
            }
            size = clampOffset(large)
            header = 16
        } else if size32 == 0 {
            if openEnded && end > dataEnd {
                // To the end of a stream whose end has not come: all of it is wanted.
                needs = offset..<(dataEnd + 1)
                return nil
            }
            size = Swift.min(end, dataEnd) - offset
        }
        guard size >= header else { return nil }
        let box = Box(type: type, start: offset, payload: offset + header, end: Swift.min(offset + size, end))
        offset = size32 == 0 ? end : offset + size
        return box
    }

    /// The first box of `type`.
    static func first(_ type: UInt32, in v: ByteView, from start: Int, to end: Int, dataEnd: Int? = nil) -> Box? {
        var boxes = Boxes(v, from: start, to: end, dataEnd: dataEnd)
        while let box = boxes.next() { if box.type == type { return box } }
        return nil
    }
}
