// libFuzzer entry point for the detector. Compiled into the ImageSniff module itself (see
// Fuzz/run.sh), so it may use internal API. Every invariant is checked with `require`, a
// `precondition` that also prints its message in -O builds (where `precondition` drops it): a
// violation crashes, and libFuzzer saves the input under Fuzz/crashes/.

/// `precondition` with the message kept in optimized builds.
@inline(__always)
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant violated: " + message()) }
}

/// Hints the fuzzer tries: extensions, identifiers and MIME types that reach every hint rule
/// (a family member, a magic-less format, a family node itself, an unknown name).
private let fuzzHints: [String] = [
    "nef", "tga", "wbmp", "pict", "heic", "public.tiff",
    ".NEF", "image/x-tga", "mpo", "eps", "rwl", "heics", "avif", "jls", "no-such-type",
]

/// Whether `cut`, the answer for a prefix, is compatible with `whole`, the answer for all of
/// the data: the same, an ancestor or the family node, unknown, or generic text for a text-based
/// format (as `isAcceptableCutAnswer` in Tests/ImageSniffTests/HostileInputTests.swift).
private func isAcceptablePrefixAnswer(_ cut: ImageType, whole: ImageType) -> Bool {
    if cut == whole || cut == .data || whole.conforms(to: cut) || whole.belongs(toFamily: cut) { return true }
    // SVGZ: the inflater sees only the prefix's compressed bytes; the gzip container is all a short
    // prefix shows (the test suite's rule for cut SVGZ; FileSniffer's first 4 KiB read always
    // holds the 1 KiB of inflated text the check looks at).
    if whole == .svg && cut == .gzip { return true }
    let textual: Set<ImageType> = [.svg, .xbm, .xpm, .html, .xml, .json, .plainText, .postScript, .eps, .pdf]
    return textual.contains(whole) && (cut == .plainText || cut == .xml || cut == .html)
}

#if FUZZ_TOLERATE_KNOWN
/// Bugs reported and not yet fixed, tolerated when built with `-D FUZZ_TOLERATE_KNOWN` so that a
/// long run can go past them. Empty this as they are fixed (the default build tolerates none).
/// Add a clause per open bug, naming the file and line, e.g. (fixed in d575f8a):
///     d.type == .jpegLS && d.confidence == .family  // Families/JPEG.swift:19, :32
private func isKnownBug(_ d: Detection) -> Bool {
    false
}

/// The same for a prefix answer `p` that says more than the whole answer `d`.
/// (Fixed: MacPaint 7fbc016; gzip flags 1c7be52; icns, need past the data's end, text window,
/// SVG(Z) 22b26f5.)
private func isKnownPrefixBug(_ p: Detection, _ d: Detection) -> Bool {
    // Families/TIFF.swift:242-262: a vendor decided from the bytes a prefix holds (a Software
    // string past it reads as absent: 3FR for FFF; SRW where the whole is a truncated family).
    p.type.detectionFamily == .tiff && (d.type.detectionFamily == .tiff || d.type == .tiff)
}
#else
private func isKnownBug(_ d: Detection) -> Bool { false }
private func isKnownPrefixBug(_ p: Detection, _ d: Detection) -> Bool { false }
#endif

/// Invariants of any answer.
private func checkBasic(_ d: Detection, _ what: String) {
    require((d.type == .data) == (d.confidence == .unknown), "\(what): \(d)")
    if d.confidence == .family { require(d.type.isFamilyNode || isKnownBug(d), "\(what): \(d)") }
    if d.confidence == .unknown { require(!d.isAnimated, "\(what): \(d)") }
    if d.isAnimated { require(d.type.isImage, "\(what): \(d)") }
    if case .needsMoreData = d.completeness {
        require(d.type == .data && d.confidence == .unknown, "\(what): \(d)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let whole = UnsafeRawBufferPointer(start: data, count: size)

    // 1. The whole data.
    let d = ImageSniffer.detect(whole)
    checkBasic(d, "whole")
    require(d.confidence != .hinted, "hinted without a hint")
    if case .needsMoreData = d.completeness { require(false, "whole data needs more: \(d)") }
    // Deterministic.
    require(ImageSniffer.detect(whole) == d, "not deterministic: \(d)")

    // 2. The first half, as a prefix of `size` bytes.
    let half = size / 2
    let p = ImageSniffer.detect(UnsafeRawBufferPointer(start: data, count: half), totalLength: size)
    checkBasic(p, "prefix")
    require(p.confidence != .hinted, "prefix: hinted without a hint")
    if half < size {
        // (A prefix may say `.truncated`: the data can be known to end before a structure does.)
        // A request for more must ask for more than was given (else a caller loops forever).
        if case .needsMoreData(let n) = p.completeness { require(n > half, "prefix of \(half)/\(size) needs no more than it has: \(p)") }
        // A prefix of the real length never claims more than the whole says.
        require(isAcceptablePrefixAnswer(p.type, whole: d.type) || isKnownPrefixBug(p, d), "prefix of \(half)/\(size) says more than the whole: \(p) vs \(d)")
    } else {
        require(p == d, "prefix of everything differs from whole: \(p) vs \(d)")
    }

    // 3. With a hint. The hint is picked by the last byte: the first picks the detection root,
    // so picking by it would pair each format with one hint only.
    let hint = fuzzHints[Int(size > 0 ? data[size - 1] : 0) % fuzzHints.count]
    let h = ImageSniffer.detect(whole, hint: hint)
    checkBasic(h, "hinted")
    require(h.completeness == d.completeness, "hint changed completeness: hint \(hint), \(d) -> \(h)")
    require(h.isAnimated == d.isAnimated, "hint changed animation: hint \(hint), \(d) -> \(h)")
    switch d.confidence {
    case .conclusive, .likely:
        // Rule 1: a hint never overrides what the bytes say.
        require(h == d, "hint overrode the bytes: hint \(hint), \(d) -> \(h)")
    case .family, .unknown:
        if h.confidence == .hinted {
            let named = ImageType.types(hint: hint)
            require(named.contains(h.type), "hinted type not named by the hint: hint \(hint), \(d) -> \(h)")
            if d.confidence == .family {
                // Rule 2: the hinted type is the family node or one of its members.
                require(h.type.belongs(toFamily: d.type), "hinted type outside the family: hint \(hint), \(d) -> \(h)")
            } else {
                // Rule 3: only formats without magic may be settled from nothing.
                require(h.type == .tga || h.type == .wbmp || h.type == .pict, "hinted type has magic: hint \(hint), \(d) -> \(h)")
            }
        } else {
            require(h == d, "hint changed the answer without saying so: hint \(hint), \(d) -> \(h)")
        }
    case .hinted:
        require(false, "unreachable")
    }
    return 0
}
