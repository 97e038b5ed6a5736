// Chunked containers: PNG (and MNG, JNG), RIFF (WebP, ANI, WAVE, AVI) and EA IFF 85 (ILBM, PBM,
// ANIM, AIFF). One walker for every check and property reader.

/// How a container lays out its chunks.
enum ChunkLayout {
    /// Length (big-endian, excluding name and CRC), name, data, CRC.
    case png
    /// Name, length (little-endian), data, a pad byte to an even length.
    case riff
    /// Name, length (big-endian), data, a pad byte to an even length.
    case iff

    var headerSize: Int { 8 }
}

/// One chunk: its name and where its data lies.
struct Chunk: Equatable {
    /// A PNG chunk whose length passes PNG's limit of 2^31 - 1 (damaged): the walk ends at it.
    var isOversized: Bool { length > 0x7FFF_FFFF }
    let name: UInt32
    let start: Int
    let data: Int
    /// The data's length, as declared.
    let length: Int
    var dataEnd: Int { data + length }
}

/// The chunks from `start` on, in order, at most `Budget.chunks` of them, up to `end`. When a
/// chunk header lies past the bytes in view, the walk stops with `needs` set.
struct Chunks: Sequence, IteratorProtocol {
    let view: ByteView
    let layout: ChunkLayout
    private(set) var offset: Int
    let end: Int
    private var steps = 0
    /// The bytes the walk wanted and did not have.
    private(set) var needs: Range<Int>?

    init(_ v: ByteView, _ layout: ChunkLayout, from start: Int, to end: Int = Int.max) {
        view = v
        self.layout = layout
        offset = start
        self.end = end
    }

    mutating func next() -> Chunk? {
        guard needs == nil, steps < Budget.chunks, offset < end, end - offset >= 8 else { return nil }
        steps += 1
        let name: UInt32?, length: UInt32?
        switch layout {
        case .png: (length, name) = (view.u32be(offset), view.u32be(offset + 4))
        case .riff: (name, length) = (view.u32be(offset), view.u32le(offset + 4))
        case .iff: (name, length) = (view.u32be(offset), view.u32be(offset + 4))
        }
        guard let name, let length else {
            needs = offset..<(offset + 8)
            return nil
        }
        let chunk = Chunk(name: name, start: offset, data: offset + 8, length: Int(length))
        // PNG's integers stop at 2^31 - 1: the chunk is the walk's last (its name may still count).
        if layout == .png && length > 0x7FFF_FFFF {
            steps = Budget.chunks
            return chunk
        }
        switch layout {
        case .png: offset = chunk.dataEnd + 4
        case .riff, .iff: offset = chunk.dataEnd + Int(length & 1)
        }
        return chunk
    }
}
