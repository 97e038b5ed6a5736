// The properties of the Text family's formats (the rules are in Text.swift).

extension Text {
    static let readers = [
        PropertyReader([.xbm], read: { input, _ in
            let v = input.view
            let range = 0..<min(v.count, 1024)
            let w = v.number(after: "_width ", in: range), h = v.number(after: "_height ", in: range)
            if (w == nil || h == nil) && v.count < 1024 && input.hasMore { return .need(1024, partial: .unknown) }
            return .done(ImageProperties(width: w, height: h, bitDepth: 1, colorModel: .gray, hasAlpha: false, frameCount: 1))
        }),
        PropertyReader([.xpm], read: { input, _ in
            // XPM3: the first string of the array, "W H NCOLORS CPP"; XPM2: the line after the magic.
            let v = input.view
            let range = 0..<min(v.count, 4096)
            var o: Int
            if v.matches("! XPM2") {
                guard let line = v.find("\n", in: range) else { return .need(4096, partial: .unknown) }
                o = line + 1
            } else {
                guard let brace = v.find("{", in: range), let quote = v.find("\"", in: brace..<range.upperBound) else {
                    return v.count < 4096 && input.hasMore ? .need(4096, partial: .unknown) : .done(.unknown)
                }
                o = quote + 1
            }
            guard let w = v.decimal(at: &o), let h = v.decimal(at: &o) else { return .done(.unknown) }
            return .done(ImageProperties(width: w, height: h, bitDepth: 8, colorModel: .indexed, frameCount: 1))
        }),
    ]
}
