// Walks over the whole data: a GIF's frames are known only by walking every block of every frame
// to the trailer, an animated WebP's by walking its chunks; whether a file is whole (`verify`) by
// walking its structure to its end marker (a JPEG's EOI after the entropy-coded scans, a PNG's
// IEND, an ISO BMFF file's boxes to its length, a Sun raster's or PCX's run-length pixels); a
// TIFF's pages by following its IFD chain. Such a
// walk is resumable: it holds its position and count, not the bytes, so a driver serves it block
// by block (a file in reads of `blockSize`, a stream as its chunks come, memory at once) and forgets each block once passed. It covers at most
// `ReadBudget.bytesSkipped` bytes of the data past its start (every byte with
// `ReadBudget.verify`); beyond that its answer is not within reach, never a guess.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A resumable walk over a structure to its end.
struct FrameWalk: Equatable {
    enum Kind: Equatable {
        /// GIF blocks to the trailer, counting images: `inChain` when the position is a sub-block
        /// size byte of a chain.
        case gif(inChain: Bool)
        /// RIFF chunks up to `end` (the RIFF size's end), counting chunks named `name`.
        case riffChunks(name: UInt32, end: Int)
        /// JPEG marker segments and entropy-coded scans to EOI (`inScan`: within scan data, where
        /// only a marker that is not a restart ends it), and on through the images that follow
        /// at once (an MPO's, a gain map's) to the last one's EOI.
        case jpeg(inScan: Bool)
        /// PNG chunks to the chunk named `end`: IEND for a PNG or a JNG, MEND for an MNG (whose
        /// embedded PNGs end with IENDs of their own).
        case pngChunks(end: UInt32)
        /// Zeros where a GIF block or a JPEG segment's length should be, passed over: zeros to the
        /// end of the data pad a file cut short (a download or a recovery that wrote the length
        /// it expected), so it is truncated; any other byte is damage.
        case zeros
        /// ISO BMFF top-level boxes to the end of the data (which must be a box's end, or fewer
        /// bytes than a box header after one: a trailer).
        case boxes
        /// A TIFF's IFD chain, counting pages (IFDs whose NewSubfileType bit 0 is clear), to an
        /// offset of 0, a directory already counted (a loop), or one that cannot be read (damaged,
        /// or past the end of the data: the pages before it are those readers show). The
        /// chain may go back only into the first `firstBytes` bytes, which every source holds (a
        /// stream cannot go back further): one that does has no count.
        case tiffIFDs(TIFFLayout, firstBytes: Int)
        /// Run-length packets that must decode to `remaining` more bytes (a Sun raster's, a
        /// PCX's or a Radiance picture's pixels); counted, the walk's count is the offset where
        /// they end.
        case runLength(RunLengthCode, remaining: Int)
    }

    /// The run-length codes a walk decodes.
    enum RunLengthCode: Equatable {
        /// Sun raster: `80 00` is one 0x80, `80 n b` is n + 1 bytes b, any other byte itself.
        case sun
        /// PCX: a byte of 0xC0 or more repeats the next byte its low 6 bits times.
        case pcx
        /// Radiance RGBE scan lines of `width` pixels, each counted as 4 x width bytes and one
        /// more for its start: a scan line of 8 to 32,767 pixels that begins `02 02` and its width
        /// (16 bits) holds its four channels apart, each in packets (a count over 128 repeats the
        /// next byte the count less 128 times; any other count is that many bytes as they are);
        /// any other scan line is 4 bytes a pixel as they are.
        case radiance(width: Int)

        /// The bytes a packet takes and makes, and the bytes it needs, given its bytes (`byte(k)`:
        /// its k-th, nil when not held) and the bytes the walk has still to make (`remaining`);
        /// one that needs more than are held takes nothing yet.
        func packet(remaining: Int, _ byte: (Int) -> UInt8?) -> (taken: Int, made: Int, need: Int) {
            guard let b = byte(0) else { return (0, 0, 1) }
            switch self {
            case .sun:
                guard b == 0x80 else { return (1, 1, 1) }
                guard let count = byte(1) else { return (0, 0, 2) }
                if count == 0 { return (2, 1, 2) }
                return byte(2) == nil ? (0, 0, 3) : (3, Int(count) + 1, 3)
            case .pcx:
                guard b >= 0xC0 else { return (1, 1, 1) }
                return byte(1) == nil ? (0, 0, 2) : (2, Int(b & 0x3F), 2)
            case .radiance(let width):
                let line = 4 * width
                if remaining % (line + 1) == 0 {  // a scan line starts
                    if (8...0x7FFF).contains(width) {
                        guard let b1 = byte(1), byte(3) != nil else { return (0, 0, 4) }
                        if b == 2 && b1 == 2 { return (4, 1, 4) }
                    }
                    return byte(line - 1) == nil ? (0, 0, line) : (line, line + 1, line)
                }
                guard b > 128 else { return byte(Int(b)) == nil ? (0, 0, Int(b) + 1) : (Int(b) + 1, Int(b), Int(b) + 1) }
                return byte(1) == nil ? (0, 0, 2) : (2, Int(b) - 128, 2)
            }
        }
    }

    /// How a walk ended, or what it wants.
    enum Progress: Equatable {
        /// The bytes wanted next (a few: a block's first bytes, a size byte, a chunk header).
        case wants(Range<Int>)
        /// The walk reached the end of the structure: the count is exact.
        case counted(Int)
        /// The data ended before the structure did.
        case truncated
        /// Not the structure where it must be (damaged): no count.
        case broken
        /// The walk would pass its limit: its answer is not within reach.
        case beyondReach

        /// The count, when the walk reached the end of the structure.
        var count: Int? {
            if case .counted(let n) = self { return n }
            return nil
        }
    }

    var kind: Kind
    /// A GIF's walk: damage ends it with the images found before it (`frameCount`).
    private let countsBeforeDamage: Bool
    /// Where the walk stands.
    private(set) var offset: Int
    /// What the walk counts (frames), so far.
    private(set) var frames: Int
    /// Where the walk started (its budget counts from here).
    let start: Int
    /// A TIFF walk: the furthest directory reached, and the directories counted that a chain may
    /// return to (IFD0, and those within the first bytes: none other can be gone back to).
    private var reached = 0
    private var visited: Set<Int> = []
    /// A TIFF walk: the directories read (pages or not).
    private var directories = 0
    /// A TIFF walk for the completeness check (`tiffChain`): a directory that lies past the end of
    /// the data is a cut, where the page count counts the pages before it; and its count is where
    /// the values and image data the directories' entries place end.
    private var cutIsTruncation = false
    private var placedEnd = 0
    /// A box walk: whether the last box passed is a `moof` (its samples come in the `mdat` after
    /// it: at the end of the data, they are cut off).
    private var lastBoxIsMoof = false
    /// A box walk: whether the last box passed is text throughout its header (`looksLikeText`).
    private var lastBoxIsText = false

    init(_ kind: Kind, at offset: Int, frames: Int = 0) {
        self.kind = kind
        self.offset = offset
        self.frames = frames
        start = offset
        if case .gif = kind { countsBeforeDamage = true } else { countsBeforeDamage = false }
    }

    /// A TIFF's page count from the IFD after IFD0 (at `ifd0`, counted as the first page).
    static func tiffPages(_ layout: TIFFLayout, ifd0: Int, next: Int, firstBytes: Int) -> FrameWalk {
        var w = FrameWalk(.tiffIFDs(layout, firstBytes: firstBytes), at: next, frames: 1)
        w.reached = ifd0
        w.visited.insert(ifd0)  // wherever it lies: a chain back to it ends there
        return w
    }

    /// A TIFF's chain of directories from IFD0 (at `ifd0`) to its end, for the completeness
    /// check: truncated when a directory lies past the end of the data; counted, its count is
    /// where what the directories' entries place ends (`TIFF.page`'s `dataEnd`); broken at a
    /// directory that does not read as one, or a chain that goes back (a stream has passed those
    /// bytes, and every source answers alike).
    static func tiffChain(_ layout: TIFFLayout, ifd0: Int) -> FrameWalk {
        var w = FrameWalk(.tiffIFDs(layout, firstBytes: 0), at: ifd0)
        w.cutIsTruncation = true
        return w
    }

    /// A box walk's end: the boxes counted, unless the last is a `moof` whose `mdat` is missing.
    private var endOfBoxes: Progress { lastBoxIsMoof ? .truncated : .counted(frames) }

    /// Whether a box header at `o` is text throughout: its size bytes as well as its type
    /// printable (or tabs and line ends). Text appended to a whole file ("garbage!", "hello
    /// world") reads as a box of half a gigabyte or more; taken for one only when it runs past
    /// the end of the data, it is a trailer there, and the format's own check (the items' data,
    /// the samples, the codestream) still says whether the file is cut.
    static func looksLikeText(_ v: ByteView, at o: Int) -> Bool {
        (0..<8).allSatisfy { i in v.u8(o + i).map { (0x20...0x7E).contains($0) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } ?? false }
    }

    /// The frame count properties give for how the walk ended: the count at the end of the
    /// structure; for a GIF, also the images found before damage (as decoders show them, and as
    /// the properties count them at damage in the first bytes, so that all the data in memory
    /// and a file read in blocks say the same); nil when the data ended first (a count of the
    /// frames before a cut would be taken for the file's) or the rest is out of reach.
    func frameCount(_ outcome: Progress) -> Int? {
        if let n = outcome.count { return n }
        guard countsBeforeDamage, outcome == .broken else { return nil }
        return frames > 0 ? frames : nil
    }

    /// How far the walk may go within `budget` (the end of the data with `verify`).
    func limit(_ budget: ReadBudget) -> Int {
        budget.verify ? Int.max : start &+ budget.bytesSkipped
    }

    /// The bytes a file's walk reads at once: 1 MiB for a walk that passes over every byte (a
    /// GIF's sub-blocks, a JPEG's scans), 64 KiB for one that jumps from header to header (RIFF and
    /// PNG chunks, boxes), so that large frames are skipped rather than read; 4 KiB from IFD to IFD
    /// (a larger IFD is read whole).
    var blockSize: Int {
        switch kind {
        case .gif, .jpeg, .zeros, .runLength: return 1 << 20
        case .riffChunks, .pngChunks, .boxes: return 64 << 10
        case .tiffIFDs: return 4096
        }
    }

    /// Advances over what `v` holds, up to `limit`; answers what it wants next, or how it
    /// ended. The data is `length` bytes long when known (nil: a stream whose end has not come).
    mutating func advance(_ v: ByteView, length: Int?, limit: Int) -> Progress {
        while true {
            let step = self.step(v, length: length)
            guard case .wants(var r) = step else { return step }
            if let length, r.upperBound > length {
                // A TIFF's pages are those that can be read (as readers count them).
                if case .tiffIFDs = kind { return cutIsTruncation ? .truncated : .counted(frames) }
                // Of a range that runs past the end, the bytes before the end first: what the
                // step looks for may lie among them (a JPEG's next marker after stray bytes, as
                // the whole data in memory shows it). Wanted past the end with those held, it
                // is truncation.
                guard r.lowerBound < length, !v.has(r.lowerBound..<length) else {
                    // Fewer bytes left than a box header (8): not a box but a trailer after the
                    // last one (padding, as in a movie ffprobe reads whole; a line feed a tool
                    // appended, as libheif, Pillow and OpenJPEG read whole), unless that box is
                    // a `moof` whose `mdat` is missing. The boxes end there; the format's own
                    // check (the items' data, the samples, the codestream) says whether the
                    // file is cut. A longer box header cut short is truncation.
                    if case .boxes = kind {
                        if r.lowerBound < length, length - r.lowerBound < 8 { return endOfBoxes }
                        // The last box ran past the end: a cut, unless its header is text (a
                        // line appended to a whole file, which decoders read whole).
                        if r.lowerBound > length, lastBoxIsText {
                            frames -= 1
                            lastBoxIsText = false
                            return endOfBoxes
                        }
                    }
                    return .truncated
                }
                r = r.lowerBound..<length
            }
            if r.upperBound > limit {
                // A TIFF chain cut short counts the pages before the cut: a stream whose end is
                // not known yet cannot tell a jump past its limit from one past its end, and
                // waits to see which (holding nothing meanwhile).
                if length == nil, case .tiffIFDs = kind { return step }
                return .beyondReach
            }
            if !v.has(r) { return .wants(r) }
        }
    }

    /// One step: consumes what it can at the position.
    private mutating func step(_ v: ByteView, length: Int?) -> Progress {
        switch kind {
        case .gif(let inChain):
            if inChain {
                // The chain's size bytes, over the run of bytes held from here (most of a block).
                let run = v.run(from: offset)
                var i = 0
                while i < run.count {
                    let size = Int(run[i])
                    if size == 0 {
                        offset += i + 1
                        kind = .gif(inChain: false)
                        return .wants(offset..<(offset + 1))
                    }
                    i += 1 + size
                }
                offset += i
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
            case 0x00:
                kind = .zeros
                return .wants(offset..<(offset + 1))
            default:
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
        case .jpeg(let inScan):
            if inScan { return scanStep(v) }
            guard let fill = v.u8(offset), let marker = v.u8(offset + 1) else { return .wants(offset..<(offset + 2)) }
            guard fill == 0xFF, marker != 0x00 else {
                // Stray bytes between segments, passed over as `JPEGSegments` passes over them.
                switch JPEGSegments.nextMarker(v, junkAt: offset) {
                case .found(let at):
                    offset = at
                    return .wants(offset..<(offset + 2))
                case .needs(let r): return .wants(r)
                case .none:
                    // More stray bytes than a resync passes over: the whole-file walk goes on to
                    // the next marker, as libjpeg discards any number of them (with a warning),
                    // so that a header followed by junk or zeros to the end is cut short rather
                    // than "damaged" (which says nothing of completeness).
                    kind = .jpeg(inScan: true)
                    return scanStep(v)
                }
            }
            switch marker {
            case 0xFF:
                offset += 1  // fill byte
            case 0xD9:
                // Another image right after (SOI), or the end (what follows is a trailer).
                let after = offset + 2
                if let length, after + 2 > length { return .counted(frames) }
                guard let a = v.u8(after), let b = v.u8(after + 1) else { return .wants(after..<(after + 2)) }
                guard a == 0xFF && b == 0xD8 else { return .counted(frames) }
                offset = after + 2
            case 0xD8, 0x01, 0xD0...0xD7:
                offset += 2  // standalone markers
            default:
                guard let size = v.u16be(offset + 2) else { return .wants(offset..<(offset + 4)) }
                guard size >= 2 else {
                    guard size == 0 else { return .broken }
                    offset += 2
                    kind = .zeros
                    return .wants(offset..<(offset + 1))
                }
                offset += 2 + Int(size)
                if marker == 0xDA {
                    frames += 1  // scans
                    kind = .jpeg(inScan: true)
                }
            }
            return .wants(offset..<(offset + 2))
        case .zeros:
            let run = v.run(from: offset)
            if run.contains(where: { $0 != 0 }) { return .broken }
            offset += run.count
            return .wants(offset..<(offset + 1))
        case .pngChunks(let last):
            guard let size = v.u32be(offset), let name = v.u32be(offset + 4) else { return .wants(offset..<(offset + 8)) }
            guard size <= 0x7FFF_FFFF else { return .broken }
            let end = offset + 12 + Int(size)
            if name == last {
                // Whole: the chunk and its CRC within the data.
                return v.has(offset..<end) ? .counted(frames) : .wants(offset..<end)
            }
            frames += 1
            offset = end
            return .wants(offset..<(offset + 8))
        case .tiffIFDs(let layout, let firstBytes):
            // Bytes behind the furthest directory reached are held only within the first bytes.
            func reachable(_ r: Range<Int>) -> Bool { r.lowerBound >= reached || r.upperBound <= firstBytes }
            let ended = Progress.counted(cutIsTruncation ? placedEnd : frames)
            // A loop back to a directory counted (the walk may start on one): readers stop there.
            if visited.contains(offset) { return ended }
            // A directory behind the furthest one reached is read from the first bytes alone,
            // whatever `v` holds (all of the data, in memory): a stream has passed the rest.
            let back = offset < reached
            reached = max(reached, offset)
            let page = back ? FrameWalk.withView(v, before: firstBytes) { TIFF.page($0, at: offset, layout, dataEnd: cutIsTruncation) }
                            : TIFF.page(v, at: offset, layout, dataEnd: cutIsTruncation)
            switch page {
            case .needs(let r): return (back ? r.upperBound <= firstBytes : reachable(r)) ? .wants(r) : .broken
            case .bad: return cutIsTruncation ? .broken : ended  // damage past the last good page: readers stop there
            case .ok(let isPage, let next, let dataEnd):
                if isPage { frames += 1 }
                directories += 1
                placedEnd = max(placedEnd, dataEnd)
                if offset < firstBytes { visited.insert(offset) }
                if next == 0 || next == offset || visited.contains(next) { return .counted(cutIsTruncation ? placedEnd : frames) }
                let r = next..<(next + layout.countSize)
                // Directories, not pages, are bounded: reduced-resolution ones are read too.
                guard reachable(r), directories < FrameWalk.maxPages else { return .broken }
                offset = next
                return .wants(r)
            }
        case .runLength(let code, var remaining):
            while remaining > 0 {
                // The packets of the run of bytes held from here, then one the run does not hold
                // whole, from wherever the view holds its bytes (a window may go on past it).
                let run = v.run(from: offset)
                var i = 0
                while remaining > 0, i < run.count {
                    let (taken, made, _) = code.packet(remaining: remaining) { k in i + k < run.count ? run[i + k] : nil }
                    guard taken > 0 else { break }
                    i += taken
                    remaining -= made
                }
                offset += i
                guard remaining > 0 else { break }
                let at = offset
                let (taken, made, need) = code.packet(remaining: remaining) { k in v.u8(at + k) }
                guard taken > 0 else {
                    kind = .runLength(code, remaining: remaining)
                    return .wants(offset..<(offset + need))
                }
                offset += taken
                remaining -= made
            }
            kind = .runLength(code, remaining: remaining)
            return .counted(offset)
        case .boxes:
            if let length, offset == length { return lastBoxIsMoof ? .truncated : .counted(frames) }
            guard let size32 = v.u32be(offset), v.has(offset + 4, 4) else { return .wants(offset..<(offset + 8)) }
            // A tag that audio taggers append to any file (ID3v1 from `TAG`, APEv2 from
            // `APETAGEX`) after the last box: not a box cut short. (As sizes, those bytes would
            // make a box of 1.4 or 1.1 GB with a type no box has; a stream whose end is not known
            // yet must tell them at once, as a file does.)
            if v.matches("TAG", at: offset) || v.matches("APETAGEX", at: offset) { return .broken }
            // A box type is four printable characters (© in QuickTime's): anything else is junk
            // after the last box, not a box cut short.
            for i in 4..<8 {
                let c = v.u8(offset + i) ?? 0
                guard (0x20...0x7E).contains(c) || c == 0xA9 else { return .broken }
            }
            let isText = FrameWalk.looksLikeText(v, at: offset)
            var size = Int(size32)
            if size32 == 1 {
                guard let large = v.u64(offset + 8, bigEndian: true) else { return .wants(offset..<(offset + 16)) }
                size = clampOffset(large)
                guard size >= 16 else { return .broken }
            } else if size32 == 0 {
                return .counted(frames + 1)  // the last box runs to the end
            }
            guard size >= 8 else { return .broken }
            frames += 1
            offset += size
            lastBoxIsMoof = v.u32be(offset - size + 4) == fourCC("moof")
            lastBoxIsText = isText
            if let length {
                if offset == length { return endOfBoxes }
                if offset > length {
                    // Past the end: a box cut short, or a line of text appended to a whole file.
                    guard isText else { return .truncated }
                    frames -= 1
                    lastBoxIsMoof = false
                    return endOfBoxes
                }
            }
            return .wants(offset..<(offset + 8))
        }
    }

    /// Calls `body` with the bytes of `v` before offset `end` alone.
    private static func withView<R>(_ v: ByteView, before end: Int, _ body: (ByteView) -> R) -> R {
        let base = UnsafeRawBufferPointer(rebasing: v.base.prefix(end))
        let windows: [FarWindow] = v.windows.compactMap { w in
            w.offset >= end ? nil : FarWindow(offset: w.offset, bytes: UnsafeRawBufferPointer(rebasing: w.bytes.prefix(end - w.offset)))
        }
        return windows.withUnsafeBufferPointer { body(ByteView(base: base, windows: $0)) }
    }

    /// The most directories a TIFF walk reads, pages or not (each IFD's entries are scanned for
    /// NewSubfileType: at most 4,096 of them, so a walk reads at most 2^24 entries).
    static let maxPages = 4096

    /// Entropy-coded data: passes to the next marker that is not a stuffed zero or a restart.
    private mutating func scanStep(_ v: ByteView) -> Progress {
        while true {
            let run = v.run(from: offset)
            guard let base = run.baseAddress, run.count > 0 else { return .wants(offset..<(offset + 2)) }
            guard let hit = memchr(base, 0xFF, run.count) else {
                offset += run.count
                continue
            }
            offset += base.distance(to: UnsafeRawPointer(hit))
            guard let next = v.u8(offset + 1) else { return .wants(offset..<(offset + 2)) }
            switch next {
            case 0x00, 0xD0...0xD7:
                offset += 2
            case 0xFF:
                offset += 1
            default:
                kind = .jpeg(inScan: false)
                return .wants(offset..<(offset + 2))
            }
        }
    }
}
