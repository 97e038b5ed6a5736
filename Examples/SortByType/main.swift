// sort-by-type: sort the files of a directory into one folder per type, named by the type's
// preferred extension (jpg/, png/, heic/, nef/, ...; unknown/ for content nothing matched).
//
//     sort-by-type ~/recovered           # prints the plan as shell commands; nothing changes
//     sort-by-type --apply ~/recovered   # does it
//
// Only the directory's own regular files are sorted (not subdirectories, not hidden files).
// Moves never overwrite: a target that exists is reported and the file stays where it is.
// Exit status: 0 done, 1 some file could not be read or moved, 64 usage. Uses the ImageSniff
// library only (no Foundation).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ImageSniff

let usage = "usage: sort-by-type [--apply] DIRECTORY"
var apply = false
var directory: String?
for argument in CommandLine.arguments.dropFirst() {
    switch argument {
    case "--apply": apply = true
    case "-h", "--help": print(usage); exit(0)
    default:
        if directory != nil || argument.hasPrefix("-") { print(usage); exit(64) }
        directory = argument
    }
}
guard var directory else { print(usage); exit(64) }
while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }

/// The names of the directory's entries, sorted, without "." and "..".
func entries(of path: String) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted()
}

/// Quotes a path for the printed plan.
func quoted(_ s: String) -> String { "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" }

func isRegularFile(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
}

guard let names = entries(of: directory) else {
    print("sort-by-type: cannot read \(directory): \(String(cString: strerror(errno)))")
    exit(1)
}

// Detect every file first (one bounded read each), then plan the moves folder by folder.
let sniffer = FileSniffer()
var plan: [(folder: String, files: [String])] = []
var failed = false
for name in names {
    let path = directory + "/" + name
    guard isRegularFile(path) else { continue }
    let folder: String
    do {
        let detection = try sniffer.detect(fileAt: path)
        folder = detection.isUnknown ? "unknown" : detection.type.preferredFilenameExtension ?? "unknown"
    } catch {
        print("# \(path): \(error)")
        failed = true
        continue
    }
    if let i = plan.firstIndex(where: { $0.folder == folder }) {
        plan[i].files.append(name)
    } else {
        plan.append((folder, [name]))
    }
}
plan.sort { $0.folder < $1.folder }

for (folder, files) in plan {
    let target = directory + "/" + folder
    print("mkdir -p \(quoted(target))")
    if apply && mkdir(target, 0o755) != 0 && errno != EEXIST {
        print("# cannot create \(target): \(String(cString: strerror(errno)))")
        failed = true
        continue
    }
    for name in files {
        let from = directory + "/" + name, to = target + "/" + name
        print("mv -n \(quoted(from)) \(quoted(to))")
        guard apply else { continue }
        // link + unlink: never replaces an existing file (same file system, so no copy).
        if link(from, to) != 0 || unlink(from) != 0 {
            print("# cannot move \(from): \(String(cString: strerror(errno)))")
            failed = true
        }
    }
}
exit(failed ? 1 : 0)
