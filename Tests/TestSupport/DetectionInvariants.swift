// The detector's invariants, in one place for the test suite and the fuzz target (Fuzz/run.sh
// compiles this file into the core module with -D IMAGESNIFF_FUZZ; the tests import it from
// TestSupport). Standard library only: no Foundation.

#if !IMAGESNIFF_FUZZ
import ImageSniff
#endif

/// What must hold of every answer the detector gives, whatever the bytes.
public enum DetectionInvariants {
    /// Hints that reach every hint rule: family members, formats without magic, a family node
    /// itself, and a name nothing knows.
    public static let hints: [String] = [
        "nef", "tga", "wbmp", "pict", "heic", "public.tiff",
        ".NEF", "image/x-tga", "mpo", "eps", "rwl", "heics", "avif", "jls", "no-such-type",
    ]

    /// Whether `cut`, the answer for a prefix, is compatible with `whole`, the answer for all of
    /// the data: the same, an ancestor or the family node, unknown, or generic text for a
    /// text-based format. A cut SVGZ is still the gzip container it was written in.
    public static func isAcceptablePrefixAnswer(_ cut: ImageType, whole: ImageType) -> Bool {
        if cut == whole || cut == .data || whole.conforms(to: cut) || whole.belongs(toFamily: cut) { return true }
        if whole == .svg && cut == .gzip { return true }
        let textual: Set<ImageType> = [.svg, .xbm, .xpm, .html, .xml, .json, .plainText, .postScript, .eps, .pdf]
        return textual.contains(whole) && (cut == .plainText || cut == .xml || cut == .html)
    }

    /// Invariants of any single answer.
    public static func basic(_ d: Detection, _ what: String) -> [String] {
        var problems: [String] = []
        func require(_ condition: Bool, _ message: String) { if !condition { problems.append("\(what): \(message): \(d)") } }
        require((d.type == .data) == (d.confidence == .unknown), "public.data exactly when unknown")
        if d.confidence == .family { require(d.type.isFamilyNode, "a family answer names a family node") }
        if d.confidence == .unknown { require(!d.isAnimated, "unknown is never animated") }
        if d.isAnimated { require(d.type.isImage, "only images are animated") }
        if case .needsMoreData = d.completeness { require(d.type == .data && d.confidence == .unknown, "a request for more bytes answers nothing yet") }
        return problems
    }

    /// Every invariant for `data` taken whole, its first `prefixLength` bytes taken as a prefix of
    /// the whole length, and the whole with `hint`. Empty when all hold.
    public static func violations(_ data: UnsafeRawBufferPointer, prefixLength: Int, hint: String) -> [String] {
        var problems: [String] = []
        func require(_ condition: Bool, _ message: @autoclosure () -> String) { if !condition { problems.append(message()) } }

        // The whole data.
        let d = ImageSniffer.detect(data)
        problems += basic(d, "whole")
        require(d.confidence != .hinted, "hinted without a hint: \(d)")
        if case .needsMoreData = d.completeness { require(false, "whole data needs more: \(d)") }
        require(ImageSniffer.detect(data) == d, "not deterministic: \(d)")

        // A prefix of the real length.
        let n = min(max(prefixLength, 0), data.count)
        let p = ImageSniffer.detect(UnsafeRawBufferPointer(rebasing: data[0..<n]), totalLength: data.count)
        problems += basic(p, "prefix")
        require(p.confidence != .hinted, "prefix: hinted without a hint: \(p)")
        if n < data.count {
            // A request for more must ask for more than was given (else a caller loops forever).
            if case .needsMoreData(let more) = p.completeness { require(more > n, "prefix of \(n)/\(data.count) asks for \(more): \(p)") }
            require(isAcceptablePrefixAnswer(p.type, whole: d.type), "prefix of \(n)/\(data.count) says more than the whole: \(p) vs \(d)")
        } else {
            require(p == d, "prefix of everything differs from the whole: \(p) vs \(d)")
        }

        // With a hint.
        let h = ImageSniffer.detect(data, hint: hint)
        problems += basic(h, "hinted")
        require(h.completeness == d.completeness, "hint \(hint) changed completeness: \(d) -> \(h)")
        require(h.isAnimated == d.isAnimated, "hint \(hint) changed animation: \(d) -> \(h)")
        switch d.confidence {
        case .conclusive, .likely:
            // Rule 1: a hint never overrides what the bytes say.
            require(h == d, "hint \(hint) overrode the bytes: \(d) -> \(h)")
        case .family, .unknown:
            if h.confidence == .hinted {
                require(ImageType.types(hint: hint).contains(h.type), "hinted type not named by hint \(hint): \(d) -> \(h)")
                if d.confidence == .family {
                    // Rule 2: the family node or one of its members.
                    require(h.type.belongs(toFamily: d.type), "hint \(hint) named a type outside the family: \(d) -> \(h)")
                } else {
                    // Rule 3: only formats without magic are settled from nothing.
                    require(h.type.acceptsHintWithoutMagic, "hint \(hint) named a format with magic: \(d) -> \(h)")
                }
            } else {
                require(h == d, "hint \(hint) changed the answer without saying so: \(d) -> \(h)")
            }
        case .hinted:
            require(false, "whole data answered hinted without a hint: \(d)")
        }
        return problems
    }
}
