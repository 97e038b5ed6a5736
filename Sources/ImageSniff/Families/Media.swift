// Audio and video neighbours, recognised so that they are never called images: Matroska and
// WebM (EBML), MP3 (an ID3 tag, or two MPEG audio frame headers in a row), Flash video, MPEG-1/2
// video (a program stream's pack header or a sequence header).

enum Media: FormatFamily {
    static let rules = [
        Rule("Matroska, WebM", .firstByte([0x1A]), produces: [.webM, .matroska], check: ebml),
        Rule("ID3 (MP3)", .firstByte([0x49]), produces: [.mp3], check: id3),
        Rule("MPEG audio frames", .firstByte([0xFF]), strength: .heuristic, produces: [.mp3], check: mpegAudio),
        Rule("Flash video", .firstByte([0x46]), produces: [.flashVideo], check: flashVideo),
        Rule("MPEG video", .firstByte([0x00]), produces: [.mpeg], check: mpegVideo),
    ]

    /// EBML header (`1A 45 DF A3`) with a DocType of `webm` or `matroska`.
    static func ebml(_ input: Input) -> Step {
        let v = input.view
        guard v.prefixMatches(0x1A45_DFA3, length: 4) else { return .no }
        guard v.count >= 4 else { return .need(4, fallback: nil) }
        let window = min(v.count, Budget.ebmlHeader)
        var docType: Int?
        for i in 4..<max(4, window - 1) where v.base[i] == 0x42 && v.base[i + 1] == 0x82 { docType = i; break }
        if let at = docType, let len = v.u8(at + 2) {
            // The DocType's value is read whole, never as far as the view happens to reach.
            if !v.has(at + 3, 8) && input.hasMore { return .need(at + 11, fallback: nil) }
            let n = Int(len & 0x7F)
            if v.matches("webm", at: at + 3) && n == 4 { return .hit(Hit(.webM)) }
            if v.matches("matroska", at: at + 3) { return .hit(Hit(.matroska)) }
            return .no
        }
        return v.count < Budget.ebmlHeader && input.hasMore ? .need(Budget.ebmlHeader, fallback: nil) : .no
    }



    /// An ID3v2 tag, then an MPEG audio frame: MP3. A tag also stands in front of Musepack, APE,
    /// FLAC or AAC, or alone: what follows it decides. When that lies past the read cap, MP3 is
    /// the likely answer (the overwhelmingly common payload behind a large tag).
    static func id3(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("ID3") else { return .no }
        guard v.count >= 10 else { return .need(10, fallback: nil) }
        guard let major = v.u8(3), major >= 2, major <= 4, v.u8(4) != 0xFF, let flags = v.u8(5) else { return .no }
        var size = 0
        for i in 6..<10 {
            guard v.base[i] & 0x80 == 0 else { return .no }  // sync-safe size
            size = size << 7 | Int(v.base[i])
        }
        var o = 10 + size + (flags & 0x10 != 0 ? 10 : 0)
        // Some writers pad past the tag's own size with zeros.
        let padding = o + 4096
        while o < padding, let b = v.u8(o), b == 0 { o += 1 }
        guard v.has(o, 4) else { return .need(o + 4, fallback: input.hasMore ? Hit(.mp3, .likely) : nil) }
        return frameLength(v, at: o) != nil ? .hit(Hit(.mp3)) : .no
    }

    /// MPEG audio frames (MPEG-1/2/2.5, layer III or II) without a tag: two consecutive frame
    /// headers make it MP3.
    static func mpegAudio(_ input: Input) -> Step {
        let v = input.view
        guard let first = frameLength(v, at: 0) else { return .no }
        guard v.has(first, 4) else {
            return input.hasMore ? .need(first + 4, fallback: nil) : .no
        }
        return frameLength(v, at: first) != nil ? .hit(Hit(.mp3, .likely)) : .no
    }

    /// The MPEG audio bitrate tables (ISO/IEC 11172-3, 13818-3), in kbit/s, indices 1–14.
    private static func kilobitsPerSecond(table: Int, index: Int) -> Int {
        let rows: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        switch table {
        case 0: rows = (0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320)
        case 1: rows = (0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384)
        case 2: rows = (0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448)
        case 3: rows = (0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256)
        default: rows = (0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160)
        }
        return withUnsafeBytes(of: rows) { Int($0.load(fromByteOffset: index * 8, as: UInt64.self)) }
    }

    private static func frameLength(_ v: ByteView, at o: Int) -> Int? {
        guard let h = v.u32be(o), h >> 21 == 0x7FF else { return nil }
        let version = (h >> 19) & 3, layer = (h >> 17) & 3
        let bitrateIndex = Int((h >> 12) & 15), rateIndex = Int((h >> 10) & 3), padding = Int((h >> 9) & 1)
        guard version != 1, layer != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let mpeg1 = version == 3
        let table: Int
        switch (mpeg1, layer) {
        case (true, 1): table = 0  // MPEG-1 layer III
        case (true, 2): table = 1  // MPEG-1 layer II
        case (true, _): table = 2  // MPEG-1 layer I
        case (false, 3): table = 3  // MPEG-2/2.5 layer I
        default: table = 4  // MPEG-2/2.5 layers II and III
        }
        var rate = rateIndex == 0 ? 44100 : rateIndex == 1 ? 48000 : 32000
        if version == 2 { rate /= 2 } else if version == 0 { rate /= 4 }
        let bitrate = kilobitsPerSecond(table: table, index: bitrateIndex) * 1000
        let length: Int
        if layer == 3 {  // layer I
            length = (12 * bitrate / rate + padding) * 4
        } else {
            let samples = (layer == 1 && !mpeg1) ? 72 : 144
            length = samples * bitrate / rate + padding
        }
        return length >= 4 ? length : nil
    }

    /// `FLV`, version 1, flags with only the audio (4) and video (1) bits, a header of 9 bytes.
    static func flashVideo(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("FLV\u{01}") { return early }
        guard let flags = v.u8(4), let header = v.u32be(5) else { return .need(9, fallback: nil) }
        return flags & 0xFA == 0 && header == 9 ? .hit(Hit(.flashVideo)) : .no
    }

    /// `00 00 01 BA`: a program stream pack header (MPEG-1: marker bits 0010, MPEG-2: 01); or
    /// `00 00 01 B3`: a video sequence header with a size and valid aspect and frame rate codes.
    static func mpegVideo(_ input: Input) -> Step {
        let v = input.view
        guard v.prefixMatches(0x0000_01, length: 3) else { return .no }
        guard let code = v.u8(3), let next = v.u8(4) else { return v.count < 5 ? .need(12, fallback: nil) : .no }
        switch code {
        case 0xBA:
            return next & 0xF0 == 0x20 || next & 0xC0 == 0x40 ? .hit(Hit(.mpeg)) : .no
        case 0xB3:
            guard let size = v.u32be(4), let rates = v.u8(7) else { return .need(8, fallback: nil) }
            let width = size >> 20, height = (size >> 8) & 0xFFF
            let aspect = rates >> 4, frameRate = rates & 0x0F
            // Aspect codes 1-14 (MPEG-1's pel aspect ratios; MPEG-2 uses 1-4), frame rates 1-8.
            return width > 0 && height > 0 && (1...14).contains(aspect) && (1...8).contains(frameRate) ? .hit(Hit(.mpeg)) : .no
        default:
            return .no
        }
    }
}
