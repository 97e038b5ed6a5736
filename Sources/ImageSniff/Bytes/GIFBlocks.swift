// GIF's blocks after the logical screen descriptor: extensions, images and the trailer, each
// followed through its chain of sub-blocks. One walker for detection (a second image, a looping
// extension), properties (transparency, frame count) and the frame walk.

/// One GIF block.
enum GIFBlock: Equatable {
    /// An extension introducer (`21`) at `start`, its label, and where its sub-blocks start.
    case `extension`(label: UInt8, at: Int, start: Int)
    /// An image descriptor (`2C`) at `at`.
    case image(at: Int)
    /// The trailer (`3B`).
    case trailer(at: Int)
    /// Not a GIF block where one must be.
    case damaged(at: Int)
}

/// The blocks of a GIF from the end of its screen descriptor (and global colour table), at most
/// `Budget.gifBlocks` of them. A block is reported as soon as its first bytes say what it is;
/// its sub-blocks are passed over when the next one is asked for. When the walk needs bytes past
/// the view, it stops with `needs` set.
struct GIFBlocks: Sequence, IteratorProtocol {
    /// What the walk wanted and did not have.
    enum Need: Equatable {
        /// The byte that starts the next block.
        case block(at: Int)
        /// An extension's label, or an image descriptor's fields.
        case header(Range<Int>)
        /// The next sub-block's size byte in a chain, in the block that starts at `blockStart`.
        case subBlocks(at: Int, blockStart: Int)

        var position: Int {
            switch self {
            case .block(let at), .subBlocks(let at, _): return at
            case .header(let range): return range.lowerBound
            }
        }
    }

    let view: ByteView
    /// Where the block being walked starts.
    private(set) var blockStart: Int
    private var offset: Int
    /// The sub-block chain of the block reported last, still to pass over.
    private var chain: Int?
    private var steps = 0
    private(set) var needs: Need?
    private var ended = false

    /// Where the blocks start: after the 13-byte header and screen descriptor and the global
    /// colour table (nil when the descriptor is not in view).
    static func start(_ v: ByteView) -> Int? {
        guard let packed = v.u8(10) else { return nil }
        return 13 + (packed & 0x80 != 0 ? 3 << (Int(packed & 7) + 1) : 0)
    }

    init(_ v: ByteView, from start: Int) {
        view = v
        offset = start
        blockStart = start
    }

    /// The offset after the chain of sub-blocks at `o`, or the offset of the size byte that is
    /// not in view.
    static func skipSubBlocks(_ v: ByteView, from o: Int) -> (end: Int?, missing: Int) {
        var at = o
        while let size = v.u8(at) {
            if size == 0 { return (at + 1, at) }
            at += 1 + Int(size)
        }
        return (nil, at)
    }

    mutating func next() -> GIFBlock? {
        guard needs == nil, !ended else { return nil }
        if let at = chain {
            let (end, missing) = GIFBlocks.skipSubBlocks(view, from: at)
            guard let end else {
                needs = .subBlocks(at: missing, blockStart: blockStart)
                return nil
            }
            chain = nil
            offset = end
        }
        guard steps < Budget.gifBlocks else { return nil }
        steps += 1
        blockStart = offset
        guard let block = view.u8(offset) else {
            needs = .block(at: offset)
            return nil
        }
        switch block {
        case 0x21:
            guard let label = view.u8(offset + 1) else {
                needs = .header(offset..<(offset + 3))
                return nil
            }
            chain = offset + 2
            return .extension(label: label, at: offset + 2, start: offset)
        case 0x2C:
            let at = offset
            // The descriptor's packed field says whether a local colour table follows.
            if let local = view.u8(offset + 9) {
                chain = offset + 10 + (local & 0x80 != 0 ? 3 << (Int(local & 7) + 1) : 0) + 1
            } else {
                needs = .header(offset..<(offset + 10))
            }
            return .image(at: at)
        case 0x3B:
            ended = true
            return .trailer(at: offset)
        default:
            ended = true
            return .damaged(at: offset)
        }
    }
}
