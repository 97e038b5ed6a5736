// Every family's rules, in the order the detector tries them when two rules share a first byte
// (strong signatures before heuristics, see `Rule.Strength`) and in which the rules whose
// evidence is elsewhere are tried (DICOM and legacy PVR before the magic-less formats, text last).
// A family file declares its rules next to its checks; a new family file adds one line here.

enum Registry {
    static let rules: [Rule] = [
        ISOBMFF.rules, JPEG.rules, JPEG2000.rules, JPEGXL.rules, JPEGXR.rules, PNG.rules, GIF.rules,
        CameraRaw.rules, TIFF.rules, RIFF.rules, Bitmaps.rules, Netpbm.rules, Editors.rules, Codecs.rules,
        Film.rules, Scientific.rules, Textures.rules, Documents.rules, Media.rules, Archives.rules,
        Magicless.rules, Text.rules,
    ].flatMap { $0 }
}
