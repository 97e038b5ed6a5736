// Every bound on what detection reads and walks, in one place. A check never loops or reads on a
// number taken from the file alone: it stops at one of these.

/// Hard caps on what detection reads.
public enum Limits {
    /// The first read of a file.
    public static let initialRead = 4096
    /// How far the first bytes grow by default (`ReadBudget.prefixCap` of the default budget):
    /// the APIs that take a prefix look at no more of it. Structures further on are read as far
    /// windows (see `ReadBudget`).
    public static let maxPrefix = 512 * 1024
    /// How many bytes of a file's end are read for trailers (TGA 2.0's footer is 26).
    public static let tailLength = 26
    /// The most segments, chunks, boxes or IFD entries any walk visits.
    public static let maxWalkSteps = 4096
}

/// Named budgets of the individual walks.
enum Budget {
    /// How far a walk over GIF blocks or MNG chunks follows image data to find a second frame.
    static let frameWalk = 64 * 1024
    /// Text is judged on this much of its start (or the whole, when shorter).
    static let textWindow = 2048
    /// How far markup may be read to find its first element (past a long prolog or comment).
    static let markupWindow = 64 * 1024
    /// Prolog items (declarations, comments, doctype) skipped before the first element.
    static let markupItems = 256
    /// A first line that must hold a header keyword (PostScript, XBM) is at most this long.
    static let headerLine = 256
    /// Gzip members one completeness check follows (`cat a.gz b.gz` makes two).
    static let gzipMembers = 256
    /// Bytes of a gzip stream inflated to see whether it holds SVG.
    static let inflatedSVGZ = 1024
    /// Bytes inflated first, to see whether the stream can hold markup at all: its first byte
    /// past a byte order mark and white space, which nearly every stream reaches in 8 (a stream
    /// that does not goes on to `inflatedSVGZ`).
    static let inflatedLead = 8
    /// The largest `ftyp` box taken as real (ISO BMFF).
    static let ftypBox = 4096
    /// Compatible brands kept beyond the first 16 (an `ftyp` box lists at most ~1000).
    static let extraBrands = 256
    /// Where Canon's `CNCV` compressor string is looked for in a `crx ` file.
    static let canonCompressorWindow = 8192
    /// IFDs one TIFF walk visits (IFD0 and SubIFDs), and SubIFDs followed from IFD0.
    static let tiffIFDs = 16
    static let tiffSubIFDs = 8
    /// IFDs (pages, SubIFDs, EXIF and GPS IFDs) a TIFF completeness check follows.
    static let verifiedIFDs = 1024
    /// Marker segments and tile-parts a JPEG 2000 codestream's completeness check follows.
    static let codestreamMarkers = 4096
    /// Bytes of a TIFF ASCII value (Make, Model, Software) compared.
    static let tiffString = 64
    /// The most directory entries an ICO or CUR file may declare.
    static let iconEntries = 512
    /// Rows (of all channels) whose run-length offsets an SGI completeness check reads: 2 MiB
    /// of tables.
    static let sgiRows = 1 << 18
    /// Header attributes an OpenEXR completeness check reads, and chunks whose offsets it reads
    /// (2 MiB of table).
    static let exrAttributes = 1024
    static let exrChunks = 1 << 18
    /// Header-and-data units a FITS completeness check follows, and 2,880-byte blocks of one
    /// header it reads (36 cards each).
    static let fitsUnits = 1024
    /// Extension headers a FITS property reader reads for the first image (past empty ones).
    static let fitsImageSearch = 8
    static let fitsHeaderBlocks = 256
    /// The EBML header bytes searched for Matroska's DocType.
    static let ebmlHeader = 64
    /// Entries one TIFF directory may declare (TIFF, BigTIFF, Exif, MPF, JPEG XR).
    static let ifdEntries = 4096
    /// What a far read of a top-level ISO BMFF box header takes along: a `meta` box after the
    /// media data is read whole with its header when it is no larger (pillow-heif's 200 MP test
    /// image has a 39 KB `meta` after a 2.4 MB `mdat`).
    static let topLevelBoxWindow = 64 * 1024
    /// Sibling boxes one ISO BMFF, JPEG 2000 or JPEG XL walk visits.
    static let boxes = 4096
    /// Chunks one PNG, RIFF or IFF walk visits.
    static let chunks = 4096
    /// How far into an IFF FORM its property chunks (ANNO, CMAP, CAMG...) are walked to find
    /// the BMHD that may come after them (EA IFF 85: any order before the BODY).
    static let iffProperties = 64 * 1024
    /// Blocks one GIF walk visits (about two per frame).
    static let gifBlocks = 1 << 20
    /// Marker segments one JPEG walk visits before the scan.
    static let jpegSegments = 4096
}
