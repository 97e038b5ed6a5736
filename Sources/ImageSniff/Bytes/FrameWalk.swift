// Counting frames over the whole data: a GIF's frames are known only by walking every block of
// every frame to the trailer; an animated WebP's by walking its chunks. Such a walk is resumable:
// it holds its position and count, not the bytes, so a driver serves it block by block (a file in
// 1 MiB reads, a stream as its chunks come, memory at once) and forgets each block once passed.
// The walk covers at most `ReadBudget.bytesSkipped` bytes of the data past its start (every byte
// with `ReadBudget.verify`); beyond that the count is not within reach (nil), never a guess.

/// A resumable frame count.
struct FrameWalk: Equatable {
    enum Kind: Equatable {
        /// GIF blocks: `inChain` when the position is a sub-block size byte of a chain.
        case gif(inChain: Bool)
        /// RIFF chunks up to `end` (the RIFF size's end), counting chunks named `name`.
        case riffChunks(name: UInt32, end: Int)
    }

    /// How a walk ended, or what it wants.
    enum Progress: Equatable {
        /// The bytes wanted next (a few: a block's first bytes, a size byte, a chunk header).
        case wants(Range<Int>)
        /// The walk reached the end of the structure: the count is exact.
        case counted(Int)
        /// The structure ends without its end marker, or the data ended first: no count.
        case broken
        /// The walk would pass its limit: the count is not within reach.
        case beyondReach

        /// The count, when the walk reached the end of the structure.
        var count: Int? {
            if case .counted(let n) = self { return n }
            return nil
        }
    }

    var kind: Kind
    /// Where the walk stands.
    private(set) var offset: Int
    /// Frames counted so far.
    private(set) var frames: Int
    /// Where the walk started (its budget counts from here).
    let start: Int

    init(_ kind: Kind, at offset: Int, frames: Int) {
        self.kind = kind
        self.offset = offset
        self.frames = frames
        start = offset
    }

    /// How far the walk may go within `budget` (the end of the data with `verify`).
    func limit(_ budget: ReadBudget) -> Int {
        budget.verify ? Int.max : start &+ budget.bytesSkipped
    }

    /// The bytes a file's walk reads at once.
    static let blockSize = 1 << 20

    /// Advances over what `v` holds, up to `limit`; answers what it wants next, or how it
    /// ended. The data is `length` bytes long when known (nil: a stream whose end has not come).
    mutating func advance(_ v: ByteView, length: Int?, limit: Int) -> Progress {
        while true {
            let step = self.step(v)
            guard case .wants(let r) = step else { return step }
            // The data ends before the structure does.
            if let length, r.upperBound > length { return .broken }
            if r.upperBound > limit { return .beyondReach }
            if !v.has(r) { return step }
        }
    }

    /// One step: consumes what it can at the position.
    private mutating func step(_ v: ByteView) -> Progress {
        switch kind {
        case .gif(let inChain):
            if inChain {
                guard let size = v.u8(offset) else { return .wants(offset..<(offset + 1)) }
                offset += 1 + Int(size)
                if size == 0 { kind = .gif(inChain: false) }
                return .wants(offset..<(offset + 1))
            }
            guard let block = v.u8(offset) else { return .wants(offset..<(offset + 1)) }
            switch block {
            case 0x21:
                // Extension: introducer, label, then its sub-blocks.
                guard v.u8(offset + 1) != nil else { return .wants(offset..<(offset + 2)) }
                offset += 2
            case 0x2C:
                // Image: a 10-byte descriptor, its local colour table, the LZW code size, then
                // the image data's sub-blocks.
                guard let packed = v.u8(offset + 9) else { return .wants(offset..<(offset + 10)) }
                offset += 10 + (packed & 0x80 != 0 ? 3 << (Int(packed & 7) + 1) : 0) + 1
                frames += 1
            case 0x3B:
                return .counted(frames)
            default:
                // Not a block where one must be: what was counted may be all, or not.
                return .broken
            }
            kind = .gif(inChain: true)
            return .wants(offset..<(offset + 1))
        case .riffChunks(let name, let end):
            if offset + 8 > end { return .counted(frames) }
            guard let chunk = v.u32be(offset), let size = v.u32le(offset + 4) else { return .wants(offset..<(offset + 8)) }
            if chunk == name { frames += 1 }
            offset += 8 + Int(size) + Int(size & 1)
            if offset > end { return .broken }
            return offset + 8 > end ? .counted(frames) : .wants(offset..<(offset + 8))
        }
    }
}
