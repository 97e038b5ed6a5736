/// The short help `-h` prints: usage, the main options and two examples, under 40 lines.
/// `--help` prints the complete help (generated from the declarations in Arguments/).
enum ShortHelp {
    /// The short help for these arguments when they ask for it (`-h` before any `--`), else nil.
    static func text(for arguments: [String]) -> String? {
        let options = arguments.prefix { $0 != "--" }
        guard options.contains("-h") else { return nil }
        switch options.first(where: { ["scan", "rename", "types"].contains($0) }) {
        case "scan": return scan
        case "rename": return rename
        case "types": return types
        default: return root
        }
    }

    static let root = """
    imgsniff: tell image formats from their bytes, named as macOS ImageIO names them.

    Usage: imgsniff <command> [options] [path ...]

    Commands:
      scan     detect the format of files, directories and standard input
      rename   give image files the extension their content calls for
      types    look up an extension, MIME type or identifier; list every type

    Examples:
      imgsniff scan ~/recovered
      imgsniff rename --apply ~/recovered

    imgsniff <command> -h for its main options, --help for everything; --version.

    """

    static let scan = """
    Usage: imgsniff scan [options] [path ...]     ('-' reads standard input)

    Output (a table on a terminal, NDJSON otherwise):
      --format table|ndjson|json|csv
      --print0            only the raw paths of listed files read, NUL-terminated
      --summary           only the counts per type
      -q, --quiet         nothing; exit status 0 when something matched
    Selection:
      --only-images       files whose content is an image
      --type TYPE         content conforming to TYPE (public.camera-raw-image, png,
                          image/heic, or unknown); repeatable
      --mismatches        files whose extension names another type
    Traversal:
      --files-from FILE [-0]   --hidden   -L   --max-depth N   -x   --exclude GLOB
    Detection:
      --hint-from-extension    --cross-check (beside libmagic)    -j, --jobs N

    Exit status: 0 something listed, 1 nothing listed, 2 an error, 64 usage,
    130 interrupted (143 by SIGTERM).

    Examples:
      imgsniff scan --mismatches ~/Downloads
      imgsniff scan --only-images --print0 dir | xargs -0 ls -l
      imgsniff scan --properties --min-pixels 100M uploads/

    imgsniff scan --help for every option and the record fields.

    """

    static let rename = """
    Usage: imgsniff rename [options] path ...     (a plan; nothing changes without --apply)

      --apply             carry out the plan, journalled
      --fix               also replace extensions that name another type
      --all-types         rename non-images too (text, archives, media)
      --min-confidence conclusive|likely
      --on-conflict skip|suffix
      --extension-case lower|upper   (default: as the extension replaced)
      --journal FILE      where --apply writes its journal
      --undo JOURNAL      revert a journal ('last': the newest)
      --format table|ndjson
    Traversal:
      --files-from FILE [-0]   --hidden   --max-depth N   -x   --exclude GLOB

    Exit status: 0 done, 1 some file not renamed or undo refused, 2 journal or
    output failure, 64 usage, 130 interrupted (143 by SIGTERM).

    Examples:
      imgsniff rename ~/recovered                 # the plan
      imgsniff rename --apply --fix ~/recovered   # do it (and fix wrong extensions)
      imgsniff rename --undo last                 # changed your mind: revert it

    imgsniff rename --help for the rules and the journal.

    """

    static let types = """
    Usage: imgsniff types [query] [options]

      query               an extension (nef), MIME type (image/heic) or identifier
      --format table|json|markdown
      --only-images

    Examples:
      imgsniff types nef
      imgsniff types --only-images --format json | jq -r '.[].identifier'

    imgsniff types --help for the JSON fields.

    """
}
