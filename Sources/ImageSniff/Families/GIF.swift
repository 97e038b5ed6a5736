// GIF: animated when it holds a looping application extension or more than one image.

enum GIF: FormatFamily {
    static let rules = [
        Rule("GIF", .firstByte([0x47]), produces: [.gif], check: detect),
    ]

    static func detect(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("GIF87a") || v.matchesAvailablePrefix("GIF89a") else { return .no }
        guard v.count >= 13 else { return .need(13, fallback: v.count >= 6 ? Hit(.gif) : nil) }
        // The logical screen descriptor: a background index and aspect ratio byte follow the
        // packed fields; text that starts "GIF89a" is caught by the block walk below failing at
        // once, so the first block after the screen descriptor (and colour table) must be valid.
        var images = 0
        var walked = false  // a block was read
        let first = GIFBlocks.start(v) ?? 13
        var blocks = GIFBlocks(v, from: first)
        while let block = blocks.next() {
            walked = true
            switch block {
            case .extension(let label, let at, _):
                if label == 0xFF, v.u8(at) == 11,
                   v.matches("NETSCAPE2.0", at: at + 1) || v.matches("ANIMEXTS1.0", at: at + 1) {
                    return .hit(Hit(.gif, animated: true))
                }
            case .image:
                images += 1
                if images > 1 { return .hit(Hit(.gif, animated: true)) }
            case .trailer:
                return .hit(Hit(.gif))
            case .damaged(let at):
                // Not a GIF block: damaged data, or text that begins with "GIF89a" (whose byte 10
                // may well announce a colour table: the first block is then past it).
                if images > 0 || at > first { return .hit(Hit(.gif)) }
                return textOrDamaged(input)
            }
        }
        // No block read yet (the data ends inside the colour table, or at the first block): text
        // is not a cut GIF.
        if !walked, looksLikeText(v) { return textOrDamaged(input) }
        switch blocks.needs {
        case .block(let at)?: return walkBudgetLeft(at) ? .need(at + 1, fallback: Hit(.gif)) : .hit(Hit(.gif))
        case .header(let range)?: return .need(range.upperBound, fallback: Hit(.gif))
        case .subBlocks(let at, let start)?:
            return walkBudgetLeft(start) ? .need(chainNeed(v, at), fallback: Hit(.gif)) : .hit(Hit(.gif))
        case nil: return .hit(Hit(.gif))
        }
    }

    /// Following GIF image data to find a second frame is worth `Budget.frameWalk`, not the whole file.
    private static func walkBudgetLeft(_ offset: Int) -> Bool { offset < Budget.frameWalk }

    /// How much to read when a chain of sub-blocks runs past the view at `missing`: a good step
    /// more, not a byte at a time.
    static func chainNeed(_ v: ByteView, _ missing: Int) -> Int { max(missing + 256, v.count + 4096) }

    /// How many first bytes decide between text and a damaged GIF.
    private static let textWindow = 256

    /// Text's rules (`Text.isText`) over the first 256 bytes: a screen descriptor of binary
    /// numbers, or noise after the signature (a damaged file), is not text; prose is.
    private static func looksLikeText(_ v: ByteView) -> Bool {
        Text.isText(v, upTo: textWindow, dataEndsAtView: false)
    }

    /// No GIF block could be read after the screen descriptor: prose that begins "GIF89a" is not
    /// a GIF (`.no`, so the text rules answer), anything else is a damaged one. Judged on the
    /// first 256 bytes, asked for first when more can come, so that a stream's first chunk and
    /// the whole file get the same answer.
    private static func textOrDamaged(_ input: Input) -> Step {
        if input.view.count < textWindow && input.hasMore { return .need(textWindow, fallback: Hit(.gif)) }
        return looksLikeText(input.view) ? .no : .hit(Hit(.gif))
    }
}

// MARK: - Properties

extension GIF {
    static let readers = [
        PropertyReader([.gif], read: properties),
    ]

    /// Whole: a walk over every block reaches the trailer (a GIF's end cannot be told from its
    /// last bytes: 3B is also data).
    static let verifiers = [
        Verifier([.gif], walk: { v in GIFBlocks.start(v).map { FrameWalk(.gif(inChain: false), at: $0) } }) { _, _, walked in
            walked.map(Verifier.step(for:)) ?? .needWalk
        },
    ]

    /// The logical screen (ImageIO reports its size), 8-bit indexed colour, transparency from the
    /// first graphic control extension, and the number of images, counted by a walk over every
    /// block to the trailer (`FrameWalk`: nil when it would pass the walk's budget).
    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties(bitDepth: 8, colorModel: .indexed, hasAlpha: false)
        guard v.count >= 13 else { return .need(13, partial: p) }
        p.width = v.u16le(6).map(Int.init)
        p.height = v.u16le(8).map(Int.init)
        var images = 0
        var sawControl = false
        var blocks = GIFBlocks(v, from: GIFBlocks.start(v) ?? 13)
        while let block = blocks.next() {
            switch block {
            case .extension(let label, let at, _):
                if label == 0xF9, !sawControl {
                    guard let flags = v.u8(at + 1) else { return .need(at + 2, partial: p) }
                    p.hasAlpha = flags & 1 != 0
                    sawControl = true
                }
            case .image:
                if images == 0 { sawControl = true }  // only the first image's extension counts
                images += 1
            case .trailer:
                p.frameCount = images
                return .done(p)
            case .damaged(let at):
                // Zeros where a block should start may pad a file cut short to its length: the
                // frame walk passes them and decides (to the end of the data: no count).
                if images > 0, v.u8(at) == 0 { return .walk(FrameWalk(.gif(inChain: false), at: at, frames: images), partial: p) }
                // Damaged: the images counted so far are all there is to say.
                p.frameCount = images > 0 ? images : nil
                return .done(p)
            }
        }
        switch blocks.needs {
        case let need? where images > 0:
            // The first image is known: the rest only counts frames, by a walk over the data.
            switch need {
            case .subBlocks(let at, _):
                return .walk(FrameWalk(.gif(inChain: true), at: at, frames: images), partial: p)
            case .block(let at):
                return .walk(FrameWalk(.gif(inChain: false), at: at, frames: images), partial: p)
            case .header(let range):
                // The block starts again from its first byte (an image was counted already).
                let counted = v.u8(range.lowerBound) == 0x2C ? 1 : 0
                return .walk(FrameWalk(.gif(inChain: false), at: range.lowerBound, frames: images - counted), partial: p)
            }
        case .header(let range)?: return .need(range.upperBound, partial: p)
        case let need?: return .need(chainNeed(v, need.position), partial: p)
        case nil: return .done(p)
        }
    }
}
