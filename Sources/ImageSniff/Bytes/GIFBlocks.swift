// GIF's blocks after the logical screen descriptor: extensions, images and the trailer, each
// followed through its chain of sub-blocks. One walker for detection (a second image, a looping
// extension) and properties (transparency, frame count).

/// One GIF block.
enum GIFBlock: Equatable {
    /// An extension introducer (`21`), its label, and where its sub-blocks start.
    case `extension`(label: UInt8, at: Int)
    /// An image descriptor (`2C`) at `at`.
    case image(at: Int)
    /// The trailer (`3B`).
    case trailer(at: Int)
    /// Not a GIF block where one must be.
    case damaged(at: Int)
}

/// The blocks of a GIF from the end of its screen descriptor (and global colour table), at most
/// `Budget.gifBlocks` of them. When the walk needs bytes past the view, it stops with `needs` set.
struct GIFBlocks: Sequence, IteratorProtocol {
    let view: ByteView
    private(set) var offset: Int
    private var steps = 0
    private var pending: GIFBlock?
    /// The bytes the walk wanted and did not have.
    private(set) var needs: Range<Int>?
    private(set) var ended = false

    /// Where the blocks start: after the 13-byte header and screen descriptor and the global
    /// colour table (nil when the descriptor is not in view).
    static func start(_ v: ByteView) -> Int? {
        guard let packed = v.u8(10) else { return nil }
        return 13 + (packed & 0x80 != 0 ? 3 << (Int(packed & 7) + 1) : 0)
    }

    init(_ v: ByteView, from start: Int) {
        view = v
        offset = start
    }

    /// The offset after a chain of sub-blocks at `o`, or the range wanted when it runs past the view.
    static func skipSubBlocks(_ v: ByteView, from o: Int) -> Result<Int, Wanted> {
        var at = o
        while true {
            guard let size = v.u8(at) else { return .failure(Wanted(range: at..<(at + 1))) }
            if size == 0 { return .success(at + 1) }
            at += 1 + Int(size)
        }
    }

    struct Wanted: Error, Equatable { let range: Range<Int> }

    mutating func next() -> GIFBlock? {
        guard needs == nil, !ended, steps < Budget.gifBlocks else { return nil }
        steps += 1
        guard let block = view.u8(offset) else {
            needs = offset..<(offset + 1)
            return nil
        }
        switch block {
        case 0x21:
            guard let label = view.u8(offset + 1) else {
                needs = offset..<(offset + 3)
                return nil
            }
            switch GIFBlocks.skipSubBlocks(view, from: offset + 2) {
            case .success(let end):
                defer { offset = end }
                return .extension(label: label, at: offset + 2)
            case .failure(let wanted):
                // The extension is in view up to its label: report it, then want the rest.
                let found = GIFBlock.extension(label: label, at: offset + 2)
                needs = wanted.range
                return found
            }
        case 0x2C:
            guard let local = view.u8(offset + 9) else {
                needs = offset..<(offset + 10)
                return nil
            }
            let data = offset + 10 + (local & 0x80 != 0 ? 3 << (Int(local & 7) + 1) : 0)
            let at = offset
            switch GIFBlocks.skipSubBlocks(view, from: data + 1) {
            case .success(let end):
                offset = end
            case .failure(let wanted):
                needs = wanted.range
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
