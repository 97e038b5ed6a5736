// The one list of format families. A family file declares its rules (how its formats are
// detected) and its property readers (what their headers say) together; the detector's dispatch
// and the readers' table are both built from this list. Adding a family adds one entry here.

/// A format family: the formats one concept covers (JPEG and its relatives, the TIFF-based RAWs,
/// the texture formats...), with the rules that detect them and the readers of their properties.
protocol FormatFamily: Sendable {
    /// The detection rules, in the order the detector tries those that share a first byte.
    static var rules: [Rule] { get }
    /// The property readers (none for families of neighbours: audio, video, archives).
    static var readers: [PropertyReader] { get }
    /// The whole-file completeness checks (`ReadBudget.verify`), for the formats that have one.
    static var verifiers: [Verifier] { get }
}

extension FormatFamily {
    static var readers: [PropertyReader] { [] }
    static var verifiers: [Verifier] { [] }
}

enum Registry {
    /// The families, in the order their rules are tried (strong signatures before heuristics,
    /// then this order; text, a heuristic registered last, ends the walk). The FormatReference
    /// article lists the resulting dispatch.
    static let families: [any FormatFamily.Type] = [
        ISOBMFF.self, JPEG.self, JPEG2000.self, JPEGXL.self, JPEGXR.self, PNG.self, GIF.self,
        CameraRaw.self, TIFF.self, RIFF.self, Bitmaps.self, Netpbm.self, Editors.self, Codecs.self,
        Scientific.self, Film.self, Textures.self, Documents.self, Media.self, Archives.self,
        Magicless.self, Resources.self, Metafiles.self, Compound.self, Bilevel.self, Retro.self,
        Devices.self, GraphicsSoftware.self, Text.self,
    ]

    /// Every rule, family by family.
    static let rules: [Rule] = families.flatMap { $0.rules }

    /// Every property reader, family by family.
    static let readers: [PropertyReader] = families.flatMap { $0.readers }

    /// Every completeness check, family by family.
    static let verifiers: [Verifier] = families.flatMap { $0.verifiers }
}
