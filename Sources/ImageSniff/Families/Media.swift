// RIFF (WebP; WAVE and AVI as neighbours), Matroska/WebM, MP3, ZIP (and OpenRaster), gzip.

enum RIFF {
    static func detect(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("RIFF") else { return .no }
        guard v.count >= 16 else { return .need(16, fallback: nil) }
        if let early = v.signature("RIFF") { return early }
        if v.matches("WEBP", at: 8) {
            guard let chunk = v.u32be(12) else { return .need(16, fallback: nil) }
            switch chunk {
            case fourCC("VP8 "), fourCC("VP8L"):
                return .hit(Hit(.webP))
            case fourCC("VP8X"):
                guard let flags = v.u8(20) else { return .need(21, fallback: Hit(.webP)) }
                return .hit(Hit(.webP, animated: flags & 0x02 != 0))
            default:
                return ByteView.isFourCCByte(UInt8(chunk >> 24)) ? .hit(Hit(.webP, .likely)) : .no
            }
        }
        if v.matches("WAVE", at: 8) { return .hit(Hit(.wave)) }
        if v.matches("AVI ", at: 8) || v.matches("AVIX", at: 8) { return .hit(Hit(.avi)) }
        return .no
    }
}

enum Media {
    /// EBML header (`1A 45 DF A3`) with a DocType of `webm` or `matroska`.
    static func ebml(_ input: Input) -> Step {
        let v = input.view
        guard v.prefixMatches(0x1A45_DFA3, length: 4) else { return .no }
        guard v.count >= 4 else { return .need(4, fallback: nil) }
        let window = min(v.count, 64)
        var docType: Int?
        for i in 4..<max(4, window - 1) where v.base[i] == 0x42 && v.base[i + 1] == 0x82 { docType = i; break }
        if let at = docType, let len = v.u8(at + 2) {
            let n = Int(len & 0x7F)
            if v.matches("webm", at: at + 3) && n == 4 { return .hit(Hit(.webM)) }
            if v.matches("matroska", at: at + 3) { return .hit(Hit(.matroska)) }
            return .no
        }
        return v.count < 64 && input.hasMore ? .need(64, fallback: nil) : .no
    }

    static func gzip(_ input: Input) -> Step {
        let v = input.view
        guard let method = v.u8(2) else { return v.u8(1) == 0x8B ? .need(3, fallback: nil) : .no }
        guard v.u8(1) == 0x8B, method == 8 else { return .no }
        guard let flags = v.u8(3) else { return .need(10, fallback: nil) }
        guard flags & 0xE0 == 0 else { return .no }  // reserved flag bits are zero
        guard v.count >= 10 else { return .need(10, fallback: Hit(.gzip)) }
        // SVGZ: an SVG document inside. Inflate a bounded prefix and look at the root element.
        if let (inner, outcome) = Inflate.gunzipPrefix(v, limit: 1024) {
            // Decide only on all the output there is to see: a cut stream could turn to binary.
            if outcome == .ranOut && input.hasMore {
                return .need(min(input.limit, v.count * 2 + 4096), fallback: Hit(.gzip))
            }
            guard outcome == .complete else { return .hit(Hit(.gzip)) }
            let isSVG = inner.withUnsafeBytes { raw -> Bool in
                let view = ByteView(base: raw)
                var start = view.equals(0xEFBB_BF, length: 3) ? 3 : 0
                while start < view.count, ByteView.isSpace(view.base[start]) { start += 1 }
                guard Text.isText(view, upTo: view.count, dataEndsAtView: false) else { return false }
                return Text.markupRoot(view, from: start) == .svg
            }
            if isSVG { return .hit(Hit(.svg)) }
        }
        return .hit(Hit(.gzip))
    }

    /// `PK\3\4`; OpenRaster when the first member is an uncompressed `mimetype` of `image/openraster`.
    static func zip(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("PK\u{03}\u{04}") else {
            // An empty archive is only its end record.
            return v.matches("PK\u{05}\u{06}") ? .hit(Hit(.zip)) : .no
        }
        guard v.count >= 30 else { return .need(30, fallback: v.count >= 4 ? Hit(.zip) : nil) }
        let nameLength = Int(v.u16le(26) ?? 0), extraLength = Int(v.u16le(28) ?? 0)
        if nameLength == 8, v.matches("mimetype", at: 30) {
            let data = 30 + nameLength + extraLength
            guard v.has(data, 16) else { return .need(data + 16, fallback: Hit(.zip)) }
            if v.matches("image/openraster", at: data) { return .hit(Hit(.openRaster)) }
        }
        return .hit(Hit(.zip))
    }

    /// An ID3v2 tag: MP3 (the overwhelmingly common payload behind one).
    static func id3(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("ID3") else { return .no }
        guard v.count >= 10 else { return .need(10, fallback: nil) }
        guard let major = v.u8(3), major >= 2, major <= 4, v.u8(4) != 0xFF else { return .no }
        for i in 6..<10 where v.base[i] & 0x80 != 0 { return .no }  // sync-safe size
        return .hit(Hit(.mp3))
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
}
