// What an image's header says: the counterpart of ImageIO's `CGImageSourceCopyPropertiesAtIndex`
// (pixel size, depth, colour model, alpha, orientation) and `CGImageSourceGetCount` (frames), read
// from the same bounded prefix detection reads, before anything is decoded.

/// What the header of an image says about its primary image (what ImageIO reports at index 0).
///
/// Every field is optional: `nil` means the header does not state it within reach (or the format
/// has no such notion, or the header states a value the format forbids: a width or height of 0,
/// an APNG frame count past PNG's 2^31-1), never a guess. A field is filled only from the bytes.
///
/// ```swift
/// let inspection = try ImageSniffer.inspect(fileAt: "upload.bin")
/// if let pixels = inspection.properties.pixelCount, pixels > 100_000_000 {
///     throw TooLarge()          // refused before a decoder allocates a byte
/// }
/// ```
public struct ImageProperties: Sendable, Hashable, Codable {
    /// Pixel width of the primary image (ImageIO's `kCGImagePropertyPixelWidth`), before any EXIF
    /// orientation is applied, and as displayed where the format's own transforms are mandatory: a
    /// HEIF's or AVIF's clean aperture (`clap`) and rotation (`irot`), an OpenEXR's display window.
    /// What libheif and ImageMagick's `identify` report.
    public var width: Int?
    /// Pixel height of the primary image (`kCGImagePropertyPixelHeight`), as `width`.
    public var height: Int?
    /// Bits per component (`kCGImagePropertyDepth`): 8 for an 8-bit RGB JPEG, 16 for a 16-bit
    /// PNG, 32 for float EXR or PFM data.
    public var bitDepth: Int?
    /// How pixels are stored (`kCGImagePropertyColorModel`, with `indexed` for palettes).
    public var colorModel: ColorModel?
    /// Whether the pixels carry alpha (`kCGImagePropertyHasAlpha`): an alpha channel, a
    /// transparent palette entry or colour key.
    public var hasAlpha: Bool?
    /// Frames or pages (`CGImageSourceGetCount`): stated by the header (APNG's `acTL`) or counted
    /// by a bounded walk (GIF blocks, TIFF IFDs); `nil` when the walk would pass the read cap, or
    /// when a GIF ends before its trailer (a count of the frames before a cut is not the file's).
    /// A GIF damaged before its end counts the images before the damage.
    public var frameCount: Int?
    /// EXIF orientation, 1-8 (`kCGImagePropertyOrientation`), where the header states it in reach.
    public var orientation: Int?
    /// Whether the image carries an HDR gain map (Ultra HDR / ISO 21496-1, or Apple's).
    public var hasGainMap: Bool?
    /// Whether an ICC colour profile is embedded.
    public var hasICCProfile: Bool?
    /// The coded width, where it differs from `width`: a HEIF's or AVIF's image before its clean
    /// aperture and rotation (`ispe`), an OpenEXR's data window. nil when the two are the same (or
    /// unknown). A decoder allocates the coded size: `pixelCount` takes the larger of the two.
    public var codedWidth: Int?
    /// The coded height, where it differs from `height`; as `codedWidth`.
    public var codedHeight: Int?

    /// How pixels are stored.
    public enum ColorModel: String, Sendable, Hashable, Codable, CaseIterable {
        case gray, rgb, cmyk, lab, indexed
    }

    public init(width: Int? = nil, height: Int? = nil, bitDepth: Int? = nil, colorModel: ColorModel? = nil,
                hasAlpha: Bool? = nil, frameCount: Int? = nil, orientation: Int? = nil, hasGainMap: Bool? = nil,
                hasICCProfile: Bool? = nil, codedWidth: Int? = nil, codedHeight: Int? = nil) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorModel = colorModel
        self.hasAlpha = hasAlpha
        self.frameCount = frameCount
        self.orientation = orientation
        self.hasGainMap = hasGainMap
        self.hasICCProfile = hasICCProfile
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
    }

    /// Nothing known.
    public static let unknown = ImageProperties()

    /// Whether nothing is known.
    public var isEmpty: Bool { self == .unknown }

    /// `width × height`, when both are known, or the coded size's product when it is larger (what
    /// a decoder allocates: an OpenEXR data window far larger than its display window). Saturating:
    /// a hostile 2^32 × 2^32 header gives `Int.max`, not an overflow. The number to compare with a
    /// decompression budget.
    public var pixelCount: Int? {
        func product(_ w: Int?, _ h: Int?) -> Int? {
            guard let w, let h else { return nil }
            let (p, overflow) = w.multipliedReportingOverflow(by: h)
            return overflow ? Int.max : p
        }
        guard let shown = product(width, height) else { return nil }
        return max(shown, product(codedWidth, codedHeight) ?? 0)
    }
}

extension ImageProperties {
    /// These properties without a width or height no image can have: 0 (or less). Every format's
    /// spec forbids a zero dimension (PNG's IHDR, TIFF's ImageWidth, GIF's logical screen, JPEG
    /// 2000's SIZ, netpbm's header...; a format where 0 stands for another value, as ICO's 256,
    /// says so in its reader), so a header that says 0 does not state the size. Every reader's
    /// answer passes through this: a caller that multiplies width by height never sees 0.
    var statedOnly: ImageProperties {
        var p = self
        if let w = p.width, w <= 0 { p.width = nil }
        if let h = p.height, h <= 0 { p.height = nil }
        if let w = p.codedWidth, w <= 0 { p.codedWidth = nil }
        if let h = p.codedHeight, h <= 0 { p.codedHeight = nil }
        // The coded size whole (both stated) and only where it differs from the displayed one.
        if p.codedWidth == nil || p.codedHeight == nil || (p.codedWidth == p.width && p.codedHeight == p.height) {
            p.codedWidth = nil; p.codedHeight = nil
        }
        return p
    }
}

/// A detection and the properties of the image it found.
public struct Inspection: Sendable, Hashable {
    public let detection: Detection
    /// Empty (every field nil) for anything but an image whose header could be read.
    public let properties: ImageProperties

    public init(detection: Detection, properties: ImageProperties) {
        self.detection = detection
        self.properties = properties
    }
}
