// Every family's rules. The detector tries the rules that share a first byte, and then the rules
// whose evidence is elsewhere, strong signatures before heuristics (see `Rule.Strength`) and, within
// a strength, in this order (the FormatReference article lists the resulting dispatch); text (a
// heuristic, registered last) ends the walk. A family file declares its rules next to its checks;
// a new family file adds one entry here.

enum Registry {
    static let rules: [Rule] = [
        ISOBMFF.rules, JPEG.rules, JPEG2000.rules, JPEGXL.rules, JPEGXR.rules, PNG.rules, GIF.rules,
        CameraRaw.rules, TIFF.rules, RIFF.rules, Bitmaps.rules, Netpbm.rules, Editors.rules, Codecs.rules,
        Scientific.rules, Film.rules, Textures.rules, Documents.rules, Media.rules, Archives.rules,
        Magicless.rules, Resources.rules, Metafiles.rules, Compound.rules, Bilevel.rules, Retro.rules,
        Devices.rules, GraphicsSoftware.rules, Text.rules,
    ].flatMap { $0 }
}
