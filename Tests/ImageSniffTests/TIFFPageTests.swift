import Foundation
import ImageSniff
import Testing
import TestSupport

/// A TIFF's pages are counted along its IFD chain, stopping where libtiff and Pillow stop: at an
/// offset of 0, a loop back to a directory counted, or a directory that cannot be read (a cut
/// file: the pages before it). A chain may go back into the first bytes (Pillow's multipage_out_of_order
/// does) but not further, since a stream has passed those bytes: then there is no count. Each
/// case is Pillow's 40-page TIFF (one IFD every 30,144 bytes) with its chain rewired, and each
/// gives the same answer from memory, a file and a stream.
@Suite("TIFF pages along the IFD chain")
struct TIFFPageTests {
    /// The test image and the offsets of its IFDs, in chain order.
    static func fortyPages() throws -> (bytes: [UInt8], ifds: [Int]) {
        let bytes = try #require(Manifest.entries.first { $0.file == "far/tiff-pillow-40pages" }).bytes()
        #expect(bytes[0] == 0x49 && bytes[2] == 42, "little-endian classic TIFF")
        var ifds: [Int] = []
        var next = Int(u32(bytes, 4))
        while next != 0 {
            ifds.append(next)
            next = Int(u32(bytes, nextField(bytes, next)))
        }
        return (bytes, ifds)
    }

    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    /// Where the next-IFD offset of the IFD at `ifd` lies.
    static func nextField(_ b: [UInt8], _ ifd: Int) -> Int {
        ifd + 2 + 12 * (Int(b[ifd]) | Int(b[ifd + 1]) << 8)
    }

    /// The bytes with the IFD at `ifd` pointing to `target`.
    static func link(_ b: inout [UInt8], _ ifd: Int, to target: Int) {
        let at = nextField(b, ifd)
        for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: target >> (8 * k)) }
    }

    /// Records where a file or a stream (in 1,460- and 64 KiB chunks, length known or not) says
    /// otherwise than the bytes in memory, detection and properties.
    static func recordDisagreements(_ bytes: [UInt8], budget: ReadBudget) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-pages-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        bytes.withUnsafeBytes { b in
            for problem in DetectionInvariants.fileViolations(b, scratchPath: scratch, budget: budget) { Issue.record("\(bytes.count) bytes: \(problem)") }
            for chunk in [1460, 65536] {
                for known in [true, false] {
                    for problem in DetectionInvariants.incrementalViolations(b, chunk: chunk, lengthKnown: known, properties: true, budget: budget) {
                        Issue.record("\(bytes.count) bytes: \(problem)")
                    }
                }
            }
        }
    }

    /// The page count from memory, after checking that a file and a stream say the same.
    static func pages(_ bytes: [UInt8], budget: ReadBudget = .default) -> Int? {
        recordDisagreements(bytes, budget: budget)
        return ImageSniffer.inspect(bytes, budget: budget).properties.frameCount
    }

    @Test func theWholeChain() throws {
        let (bytes, ifds) = try Self.fortyPages()
        #expect(ifds.count == 40)
        #expect(Self.pages(bytes) == 40)
    }

    @Test func aLoopEndsTheCount() throws {
        var (bytes, ifds) = try Self.fortyPages()
        Self.link(&bytes, ifds[4], to: ifds[2])
        #expect(Self.pages(bytes) == 5, "IFD 4 points back to IFD 2: five pages, as libtiff counts")
        (bytes, ifds) = try Self.fortyPages()
        Self.link(&bytes, ifds[0], to: ifds[0])
        #expect(Self.pages(bytes) == 1, "IFD 0 points to itself")
    }

    @Test func aChainOutOfOrderWithinTheFirstBytes() throws {
        var (bytes, ifds) = try Self.fortyPages()
        Self.link(&bytes, ifds[0], to: ifds[2])
        Self.link(&bytes, ifds[2], to: ifds[1])
        Self.link(&bytes, ifds[1], to: 0)
        #expect(Self.pages(bytes) == 3, "0 -> 2 -> 1: the first bytes are held by every source")
    }

    @Test func aChainBackPastTheFirstBytesHasNoCount() throws {
        var (bytes, ifds) = try Self.fortyPages()
        #expect(ifds[20] > ReadBudget.default.prefixCap)
        // 0 ... 19 -> 21 ... 30 -> 20.
        Self.link(&bytes, ifds[19], to: ifds[21])
        Self.link(&bytes, ifds[30], to: ifds[20])
        Self.link(&bytes, ifds[20], to: 0)
        #expect(Self.pages(bytes) == nil, "a stream has passed IFD 20 when IFD 30 points to it")
        // 0 -> 2 -> 3 -> 1: under a budget whose first bytes end at 8 KiB, IFD 1 is as far.
        (bytes, ifds) = try Self.fortyPages()
        Self.link(&bytes, ifds[0], to: ifds[2])
        Self.link(&bytes, ifds[3], to: ifds[1])
        Self.link(&bytes, ifds[1], to: 0)
        #expect(Self.pages(bytes) == 4)
        #expect(Self.pages(bytes, budget: ReadBudget(reads: 64, bytesKept: 16 * 1024, bytesSkipped: 64 << 20)) == nil)
    }

    /// IFD0 pointing to itself is one page wherever it lies (past the first bytes too).
    @Test func ifd0PointingToItselfPastTheFirstBytes() throws {
        // Under a budget whose first bytes end at 8 KiB, IFD 1 of the 40 lies past them; made the
        // first IFD and pointed at itself, it is one page.
        var (bytes, ifds) = try Self.fortyPages()
        for k in 0..<4 { bytes[4 + k] = UInt8(truncatingIfNeeded: ifds[1] >> (8 * k)) }
        Self.link(&bytes, ifds[1], to: ifds[1])
        #expect(Self.pages(bytes, budget: ReadBudget(reads: 64, bytesKept: 16 * 1024, bytesSkipped: 64 << 20)) == 1)
    }

    /// An IFD larger than the walk's 4 KiB block (here 600 entries, 7,206 bytes) is read whole
    /// by a file as by memory and a stream.
    @Test func anIFDLargerThanABlock() throws {
        var (bytes, ifds) = try Self.fortyPages()
        // A new IFD 1 of 600 unknown tags at the end of the file, after which the chain ends.
        let big = bytes.count
        var ifd: [UInt8] = [0x58, 0x02]  // 600 entries
        for k in 0..<600 {
            let tag = 40000 + k
            ifd += [UInt8(tag & 0xFF), UInt8(tag >> 8), 3, 0, 1, 0, 0, 0, 0, 0, 0, 0]  // SHORT, count 1, value 0
        }
        ifd += [0, 0, 0, 0]
        bytes += ifd
        Self.link(&bytes, ifds[0], to: big)
        #expect(Self.pages(bytes) == 2)
    }

    /// A chain of reduced-resolution IFDs (no pages) is bounded like a chain of pages: past 4,096
    /// directories there is no count, and the walk stops (each step scans its IFD's entries).
    @Test func aLongChainOfThumbnailsIsBounded() {
        // Header, then 5,000 one-entry IFDs (NewSubfileType 1), each pointing to the next.
        var b: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        for k in 0..<5000 {
            let next = k == 4999 ? 0 : 8 + 18 * (k + 1)
            b += [1, 0, 0xFE, 0, 4, 0, 1, 0, 0, 0, 1, 0, 0, 0]  // one entry: 254 LONG 1 = 1
            b += [UInt8(next & 0xFF), UInt8(next >> 8 & 0xFF), UInt8(next >> 16 & 0xFF), 0]
        }
        #expect(Self.pages(b) == nil)
        #expect(Self.pages(Array(b.prefix(8 + 18 * 100)) + [UInt8](repeating: 0, count: 4)) == 1, "100 thumbnails, cut: IFD0 alone is a page")
    }

    /// More directories than the budget's reads: the completeness check walks the chain alone
    /// past them, so a file cut after its first pages is still found cut (a stranger's 120- and
    /// 200-page TIFFs cut short were complete once 64 reads ran out). Each answer is the same from
    /// memory, a file and a stream.
    @Test func aChainLongerThanTheBudgetIsWalkedForCompleteness() throws {
        let (bytes, ifds) = try Self.fortyPages()
        // 16 KiB of first bytes and 4 reads: IFD 1 on lies past them, and only three are read.
        let budget = ReadBudget(reads: 4, bytesKept: 32 * 1024, verify: true)
        func completeness(_ data: [UInt8]) -> Detection.Completeness {
            Self.recordDisagreements(data, budget: budget)
            return ImageSniffer.inspect(data, budget: budget).detection.completeness
        }
        #expect(completeness(bytes) == .complete)
        // Cut within page 31's pixels (its IFD comes first), right after IFD 39, within the
        // last page's pixels.
        for end in [ifds[30] + 1000, ifds[39] + 200, bytes.count - 100] {
            #expect(completeness(Array(bytes.prefix(end))) == .truncated, "cut at \(end)")
        }
    }

    /// IFD0 past the first bytes (ImageMagick and libtiff write a page's pixels before its
    /// directory; detection then reads a far window): the walk starts from the header, as a
    /// stream starts it before those bytes pass (a 100-page, 144 MB ImageMagick TIFF cut by a
    /// byte was complete).
    @Test func aChainWhoseFirstDirectoryLiesPastTheFirstBytes() throws {
        var (bytes, ifds) = try Self.fortyPages()
        for k in 0..<4 { bytes[4 + k] = UInt8(truncatingIfNeeded: ifds[1] >> (8 * k)) }  // IFD0 is IFD 1
        let budget = ReadBudget(reads: 4, bytesKept: 32 * 1024, verify: true)
        #expect(ifds[1] > budget.prefixCap)
        Self.recordDisagreements(bytes, budget: budget)
        #expect(ImageSniffer.inspect(bytes, budget: budget).detection.completeness == .complete)
        for end in [ifds[30] + 1000, bytes.count - 100] {
            let cut = Array(bytes.prefix(end))
            Self.recordDisagreements(cut, budget: budget)
            #expect(ImageSniffer.inspect(cut, budget: budget).detection.completeness == .truncated, "cut at \(end)")
        }
    }

    /// A JPEG thumbnail of length 0 places nothing, wherever its offset points (a whole file
    /// was truncated when the walk took such an offset for data).
    @Test func aThumbnailOfLengthZeroPlacesNothing() {
        func entry(_ tag: Int, _ type: Int, _ value: Int) -> [UInt8] {
            [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type), 0, 1, 0, 0, 0] + (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        // Header; IFD0 (4 x 1 grey, one strip of 4 bytes at 62) pointing to IFD1 at 66, whose
        // thumbnail offset lies far past the end with a length of 0.
        var b: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 4, 0]
        b += entry(256, 3, 4) + entry(257, 3, 1) + entry(273, 4, 62) + entry(279, 4, 4) + [66, 0, 0, 0]
        b += [1, 2, 3, 4]
        b += [2, 0] + entry(513, 4, 0x0FFF_FFF0) + entry(514, 4, 0) + [0, 0, 0, 0]
        #expect(b.count == 66 + 30)
        Self.recordDisagreements(b, budget: .verifying)
        #expect(ImageSniffer.inspect(b, budget: .verifying).detection.completeness == .complete)
        #expect(ImageSniffer.inspect(Array(b.prefix(64)), budget: .verifying).detection.completeness == .truncated, "the strip cut")
    }

    @Test func aCutFileCountsThePagesBeforeTheCut() throws {
        let (bytes, ifds) = try Self.fortyPages()
        let cut = Array(bytes.prefix(ifds[25] + 20))  // within IFD 25's entries
        #expect(Self.pages(cut) == 25)
    }
}
