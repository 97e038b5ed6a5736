import CSystemShim

// The file traversal shared by `imgsniff scan` and `imgsniff rename`.
//
// - Order is deterministic: operands in the order given, then `--files-from` paths in list
//   order; inside a directory, names sorted bytewise, depth first.
// - Memory is flat in depth: one shared path buffer (frames keep its length), and a frame holds
//   its directory's names in one buffer.
// - Descriptors are bounded by `directoryBudget`, whatever the depth of the tree: entries are
//   opened relative to their directory (so paths longer than PATH_MAX work), and entries handed to
//   workers keep their directory open until they are done with it. The walk counts those handles:
//   when the budget is reached it answers `.blocked` while work in flight holds handles, and
//   otherwise closes the directories highest on its own path (a closed one is opened again from
//   its parent when the walk comes back to it, and must be the same directory).
// - Hidden names met inside directories are skipped unless `includeHidden`; so are names matching
//   an `--exclude` pattern. Operands are never skipped.
// - Symbolic links met inside directories are skipped unless `followSymlinks`; an operand or a
//   list path that is a link is followed (like `find -H`). When following, a directory on the
//   current path is a loop (an error entry) and a directory seen before by another route is not
//   walked again, so link lattices end.
// - Pseudo-filesystems (procfs, sysfs, debugfs, cgroup, ...) are not entered unless
//   `includePseudoFilesystems`; the directory is yielded with `skippedFilesystem` set. A file
//   named there explicitly is read.
// - FIFOs, sockets and devices are yielded with their `kind`: callers never open them.

/// How a walk treats hidden names, links, file systems and depth.
public struct WalkOptions: Sendable {
    public var followSymlinks = false
    public var includeHidden = false
    /// How deep below an operand entries are yielded: 1 lists a directory's own entries only
    /// (nil: no limit).
    public var maxDepth: Int?
    /// Do not enter directories on other file systems than the operand's.
    public var oneFileSystem = false
    public var includePseudoFilesystems = false
    /// Patterns (`fnmatch`) matched against names, and against paths relative to the operand
    /// when they contain a slash.
    public var excludes: [[UInt8]] = []
    /// Yield the operand `-` as standard input.
    package var dashIsStandardInput = false
    /// Directories listed in `--files-from` are walked (otherwise reported as directories).
    package var walkListedDirectories = false
    /// How many directory handles the walk and the work in flight may hold at once (at least 2).
    package var directoryBudget = 48

    public init() {}
}

/// A `--files-from` entry's separator and source.
package struct FilesFromSource {
    private let fd: FileDescriptor
    private let ownsDescriptor: Bool
    private let separator: UInt8
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var atEnd = false
    private var lineNumber = 0
    /// "-" or the list's path, for messages.
    package let label: String
    /// Why reading stopped early (a read error, a line too long, a NUL in a newline list).
    package private(set) var failure: String?

    /// The longest line taken as a path.
    package static let maxLine = Int(PATH_MAX)

    /// Opens the list (`-` for standard input).
    package init(path: [UInt8], nulSeparated: Bool) throws(Errno) {
        label = Path.display(path)
        separator = nulSeparated ? 0 : UInt8(ascii: "\n")
        if path == [UInt8(ascii: "-")] {
            fd = .standardInput
            ownsDescriptor = false
        } else {
            fd = try FileDescriptor.open(path, flags: O_RDONLY)
            ownsDescriptor = true
        }
    }

    func close() { if ownsDescriptor { fd.close() } }

    /// The next path, or nil at the end of the list or when reading stopped (`failure`).
    mutating func next() -> [UInt8]? {
        while failure == nil {
            // Look for a separator only in the bytes not looked at yet: linear in the list.
            if let sep = buffer[scanned...].firstIndex(of: separator) {
                let item = Array(buffer[start..<sep])
                start = sep + 1
                scanned = start
                lineNumber += 1
                if let bad = check(item) { failure = bad; return nil }
                if item.isEmpty && separator == UInt8(ascii: "\n") { continue }  // a blank line
                return item
            }
            scanned = buffer.count
            if buffer.count - start > FilesFromSource.maxLine {
                failure = separator == 0
                    ? "entry \(lineNumber + 1) is longer than \(FilesFromSource.maxLine) bytes: not a path (a NUL-separated list was asked for: is the list separated by newlines? then leave out -0)"
                    : "line \(lineNumber + 1) is longer than \(FilesFromSource.maxLine) bytes: not a path (use -0 for NUL-separated lists)"
                return nil
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let item = Array(buffer[start...])
                start = buffer.count
                lineNumber += 1
                if let bad = check(item) { failure = bad; return nil }
                return item
            }
            if start > 0 {
                buffer.removeFirst(start)
                scanned -= start
                start = 0
            }
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: 65536))
            let n: Int
            do throws(Errno) {
                n = try buffer.withMutableBytes { (raw) throws(Errno) -> Int in
                    try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[old...]))
                }
            } catch {
                buffer.removeLast(65536)
                failure = "cannot read: \(error)"
                return nil
            }
            buffer.removeLast(65536 - n)
            if n == 0 { atEnd = true }
        }
        return nil
    }

    private func check(_ item: [UInt8]) -> String? {
        if separator == UInt8(ascii: "\n"), item.contains(0) {
            return "line \(lineNumber) holds a NUL byte: a NUL-separated list needs -0"
        }
        if separator == 0, item.isEmpty {
            return "entry \(lineNumber) is empty: a NUL-separated list has no empty paths"
        }
        return nil
    }
}

/// Walks operands and `--files-from` paths. Iterate on one thread; entries may go to others.
package final class Walker {
    package enum Step {
        case entry(WalkEntry)
        /// The work in flight holds too many directories open: finish some, then step again.
        case blocked
        case end
    }

    private struct Frame {
        /// Open, or nil when closed to stay within the budget (reopened from the parent by `name`).
        var handle: DirectoryHandle?
        /// The directory's name in its parent (the whole operand for a top-level directory).
        let name: [UInt8]
        /// Whether `name` was opened through a final symbolic link.
        let follow: Bool
        /// For a top-level directory whose path is too long for one system call: the directory
        /// its last component is opened from (nil: the working directory).
        let anchor: DirectoryHandle?
        let listing: DirectoryListing
        var index = 0
        /// The path buffer's length for this directory, with its trailing slash.
        let pathLength: Int
        /// Where the part relative to the operand starts in the path buffer.
        let relativeStart: Int
        let device: UInt64
        let inode: UInt64
        let depth: Int
        let operandDevice: UInt64
    }

    private struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    package let options: WalkOptions
    private let operands: [[UInt8]]
    private var operandIndex = 0
    private var filesFrom: FilesFromSource?
    // The walk's state is touched five times a file: without run-time exclusivity checks (a
    // walk runs on one thread, and no access to it overlaps another), each a call of ~80
    // instructions (callgrind over 20,000 files: 8 million).
    @exclusivity(unchecked) private var stack: [Frame] = []
    @exclusivity(unchecked) private var path: [UInt8] = []
    private var visited: Set<Identity> = []
    private let counter = HandleCounter()
    /// A directory found, to be opened once the budget allows.
    @exclusivity(unchecked) private var pendingDirectory: (name: [UInt8], anchor: DirectoryHandle?, origin: WalkEntry.Origin,
                                                           follow: Bool, depth: Int, relativeStart: Int, operandDevice: UInt64?)?

    package init(operands: [[UInt8]], filesFrom: FilesFromSource? = nil, options: WalkOptions = WalkOptions()) {
        self.operands = operands
        self.filesFrom = filesFrom
        self.options = options
    }

    deinit { filesFrom?.close() }

    /// Why reading `--files-from` stopped early, if it did.
    package var filesFromFailure: String? { filesFrom?.failure }

    /// Directory handles open now (the walk's and those held by entries in flight).
    package var openDirectories: Int { counter.live.withLock { $0 } }

    package func step() -> Step {
        while true {
            if let pending = pendingDirectory {
                guard makeRoom() else { return .blocked }
                pendingDirectory = nil
                if let entry = enter(pending.name, anchor: pending.anchor, origin: pending.origin, follow: pending.follow, depth: pending.depth,
                                     relativeStart: pending.relativeStart, operandDevice: pending.operandDevice) {
                    return .entry(entry)
                }
                continue
            }
            guard let top = stack.indices.last else {
                // A path too long for one system call holds its directory open (its anchor) while
                // its entry is in flight: at the budget, the work in flight finishes first (a list
                // of such paths opened one each and ran out of descriptors).
                guard makeRoom() else { return .blocked }
                guard let (item, origin) = nextTopLevel() else { return .end }
                if let entry = visitTopLevel(item, origin: origin) { return .entry(entry) }
                continue
            }
            if stack[top].index == stack[top].listing.count {
                stack.removeLast()
                continue
            }
            if stack[top].handle == nil {
                guard makeRoom() else { return .blocked }
                if let failure = reopen(top) {
                    stack.removeLast()
                    return .entry(failure)
                }
            }
            let i = stack[top].index
            stack[top].index += 1
            if let entry = visitChild(i, frame: top) { return .entry(entry) }
        }
    }

    /// Whether a directory may be opened now. At the budget, work in flight that holds handles
    /// must finish first (false); when only the walk's own directories are open, the ones highest
    /// on its path are closed (the current directory stays open).
    private func makeRoom() -> Bool {
        var live = openDirectories
        guard live >= options.directoryBudget else { return true }
        // The walk's own handles: its frames' (and a long operand's anchor, pending or in a frame).
        let own = stack.reduce(pendingDirectory?.anchor == nil ? 0 : 1) { $0 + ($1.handle == nil ? 0 : 1) + ($1.anchor == nil ? 0 : 1) }
        if live > own { return false }
        for i in stack.indices.dropLast() where live >= options.directoryBudget {
            if stack[i].handle != nil {
                stack[i].handle = nil
                live -= 1
            }
        }
        return true
    }

    /// Opens frame `i`'s directory again, from its nearest open ancestor down (a directory opened
    /// on the way is closed again once its child is open: at most one more handle than before).
    /// Each must be the directory walked before. Nil when frame `i` is open, else the error entry
    /// that ends the frame.
    private func reopen(_ i: Int) -> WalkEntry? {
        var first = i
        while first > 0 && stack[first - 1].handle == nil { first -= 1 }
        for j in first...i {
            let frame = stack[j]
            let parentFD = j > 0 ? stack[j - 1].handle!.fd : frame.anchor?.fd ?? FileDescriptor.currentDirectory
            do throws(Errno) {
                let fd = try FileDescriptor.openDirectory(frame.name, relativeTo: parentFD, followSymlink: frame.follow)
                let handle = DirectoryHandle(fd: fd, counter: counter)
                let status = try fd.status()
                guard status.device == frame.device, status.inode == frame.inode else { return reopenFailure(i, .replaced) }
                stack[j].handle = handle
            } catch {
                return reopenFailure(i, .system(error))
            }
            if j > first { stack[j - 1].handle = nil }
        }
        return nil
    }

    /// The error entry for frame `i`, which could not be opened again.
    private func reopenFailure(_ i: Int, _ error: WalkError) -> WalkEntry {
        let frame = stack[i]
        return WalkEntry(path: Array(path[..<(frame.pathLength - 1)]), parent: nil, name: frame.name, kind: .directory,
                         origin: .tree, followSymlinks: frame.follow, error: error, depth: frame.depth)
    }

    private func nextTopLevel() -> ([UInt8], WalkEntry.Origin)? {
        if operandIndex < operands.count {
            defer { operandIndex += 1 }
            return (operands[operandIndex], .operand)
        }
        if let item = filesFrom?.next() { return (item, .filesFrom) }
        return nil
    }

    private func visitTopLevel(_ item: [UInt8], origin: WalkEntry.Origin) -> WalkEntry? {
        path = item
        if options.dashIsStandardInput && origin == .operand && item == [UInt8(ascii: "-")] {
            return WalkEntry(path: item, parent: nil, name: item, kind: .standardInput, origin: origin, followSymlinks: true)
        }
        // A path too long for one system call is reached a component at a time: its last
        // component is then opened from its directory.
        var anchor: DirectoryHandle?
        var name = item
        let status: FileStatus
        do throws(Errno) {
            do {
                status = try FileDescriptor.currentDirectory.status(of: item, followSymlink: true)
            } catch .nameTooLong {
                (anchor, name) = try openParent(of: item)
                status = try anchor!.fd.status(of: name, followSymlink: true)
            }
        } catch {
            // A dangling symbolic link is not "no such file".
            var walkError = WalkError.system(error)
            if walkError.isNotFound, let target = Walker.linkTarget(anchor?.fd ?? .currentDirectory, name[...]) {
                walkError = .brokenSymlink(target: target)
            }
            return WalkEntry(path: item, parent: anchor, name: name, kind: .unknown, origin: origin, followSymlinks: true, error: walkError)
        }
        if status.kind == .directory {
            if origin == .filesFrom && !options.walkListedDirectories {
                return WalkEntry(path: item, parent: anchor, name: name, kind: .directory, origin: origin, followSymlinks: true)
            }
            let relativeStart = item.last == UInt8(ascii: "/") ? item.count : item.count + 1
            pendingDirectory = (name, anchor, origin, true, 0, relativeStart, nil)
            return nil
        }
        return WalkEntry(path: item, parent: anchor, name: name, kind: status.kind, origin: origin, followSymlinks: true)
    }

    /// The directory that holds a path's last component, opened a component at a time (each
    /// within NAME_MAX, following links as path resolution does), and that component.
    private func openParent(of item: [UInt8]) throws(Errno) -> (DirectoryHandle, [UInt8]) {
        var components = item.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map(Array.init)
        guard let last = components.popLast() else { throw .nameTooLong }
        var current = try FileDescriptor.openDirectory(item.first == UInt8(ascii: "/") ? [UInt8(ascii: "/")] : [UInt8(ascii: ".")])
        for component in components {
            do throws(Errno) {
                let next = try FileDescriptor.openDirectory(component, relativeTo: current, followSymlink: true)
                current.close()
                current = next
            } catch {
                current.close()
                throw error
            }
        }
        return (DirectoryHandle(fd: current, counter: counter), last)
    }

    /// Visits item `i` of frame `top`'s listing (read in place: the frame is not copied). The name
    /// goes straight from the listing onto the path; the entry's name is the path's end.
    private func visitChild(_ i: Int, frame top: Int) -> WalkEntry? {
        if !options.includeHidden && stack[top].listing.isHidden(i) { return nil }
        let nameStart = stack[top].pathLength
        path.removeSubrange(nameStart...)
        stack[top].listing.appendName(i, to: &path)
        if isExcluded(nameStart: nameStart, relativeStart: stack[top].relativeStart) { return nil }
        let handle = stack[top].handle!  // open: `step` opens the current directory again before visiting
        let depth = stack[top].depth + 1
        var kind = FileKind(directoryEntryType: stack[top].listing.items[i].type)
        if kind == nil || (kind == .symlink && options.followSymlinks) {
            do throws(Errno) {
                kind = try handle.fd.status(of: path[nameStart...], followSymlink: options.followSymlinks).kind
            } catch {
                var walkError = WalkError.system(error)
                if error == .notFound, options.followSymlinks, let target = Walker.linkTarget(handle.fd, path[nameStart...]) {
                    walkError = .brokenSymlink(target: target)
                }
                return WalkEntry(path: path, nameStart: nameStart, parent: handle, kind: kind ?? .unknown,
                                 followSymlinks: options.followSymlinks, error: walkError, depth: depth)
            }
        }
        switch kind! {
        case .symlink:
            return nil  // not following: skipped
        case .directory:
            if let max = options.maxDepth, depth >= max { return nil }
            pendingDirectory = (Array(path[nameStart...]), nil, .tree, options.followSymlinks, depth, stack[top].relativeStart,
                                stack[top].operandDevice)
            return nil
        default:
            if let max = options.maxDepth, depth > max { return nil }
            return WalkEntry(path: path, nameStart: nameStart, parent: handle, kind: kind!,
                             followSymlinks: options.followSymlinks, depth: depth)
        }
    }

    /// Opens and lists a directory, pushing a frame; returns an entry to yield (an error, a
    /// skipped file system), or nil.
    private func enter(_ name: [UInt8], anchor: DirectoryHandle?, origin: WalkEntry.Origin, follow: Bool, depth: Int,
                       relativeStart: Int, operandDevice: UInt64?) -> WalkEntry? {
        // A directory inside the tree is opened from its parent, the current frame (open: the
        // walk is listing it); a top-level one from the working directory or its anchor.
        let parent = stack.last?.handle ?? anchor
        func failure(_ error: WalkError) -> WalkEntry {
            WalkEntry(path: path, parent: parent, name: name, kind: .directory, origin: origin, followSymlinks: follow,
                      error: error, depth: depth)
        }
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.openDirectory(name, relativeTo: parent?.fd ?? .currentDirectory, followSymlink: follow)
        } catch {
            return failure(.system(error))
        }
        let handle = DirectoryHandle(fd: fd, counter: counter)
        let status: FileStatus
        do throws(Errno) { status = try fd.status() } catch { return failure(.system(error)) }
        let identity = Identity(device: status.device, inode: status.inode)
        if options.followSymlinks {
            if stack.contains(where: { $0.device == identity.device && $0.inode == identity.inode }) { return failure(.loop) }
            if !visited.insert(identity).inserted { return nil }  // reached before by another route
        }
        if let operandDevice, options.oneFileSystem, status.device != operandDevice { return nil }
        let parentDevice = stack.last?.device
        if !options.includePseudoFilesystems, parentDevice != status.device, let kind = PseudoFilesystem.kind(of: fd) {
            return WalkEntry(path: path, parent: parent, name: name, kind: .directory, origin: origin, followSymlinks: follow,
                             error: nil, depth: depth, skippedFilesystem: kind)
        }
        let listing: DirectoryListing
        do throws(Errno) { listing = try DirectoryListing(fd) } catch { return failure(.system(error)) }
        if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        stack.append(Frame(handle: handle, name: name, follow: follow, anchor: stack.isEmpty ? anchor : nil, listing: listing, pathLength: path.count, relativeStart: relativeStart,
                           device: status.device, inode: status.inode, depth: depth,
                           operandDevice: operandDevice ?? status.device))
        return nil
    }

    /// Whether `--exclude` leaves out the path's last component, which starts at `nameStart`.
    private func isExcluded(nameStart: Int, relativeStart: Int) -> Bool {
        guard !options.excludes.isEmpty else { return false }
        for pattern in options.excludes {
            if pattern.contains(UInt8(ascii: "/")) {
                let relative = Array(path[Swift.min(relativeStart, path.count)...])
                if Glob.matches(pattern, relative, pathname: true) { return true }
            } else if Glob.matches(pattern, Array(path[nameStart...]), pathname: false) {
                return true
            }
        }
        return false
    }

    /// Where a symbolic link points, or nil when `name` is not one.
    static func linkTarget(_ directory: FileDescriptor, _ name: ArraySlice<UInt8>) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let n = Path.withCString(name) { p in
            buffer.withUnsafeMutableBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { readlinkat(directory.rawValue, p, $0.baseAddress!, $0.count) }
            }
        }
        return n > 0 ? Array(buffer[..<n]) : nil
    }
}

extension Walker: IteratorProtocol, Sequence {
    /// The next entry, for callers that finish with each entry before asking for the next (so
    /// the walk is never blocked by work in flight).
    package func next() -> WalkEntry? {
        while true {
            switch step() {
            case .entry(let entry): return entry
            case .end: return nil
            case .blocked: continue
            }
        }
    }
}

/// Shell patterns on bytes (`fnmatch` in the C locale).
package enum Glob {
    package static func matches(_ pattern: [UInt8], _ subject: [UInt8], pathname: Bool) -> Bool {
        Path.withCString(pattern) { p in
            Path.withCString(subject) { s in fnmatch(p, s, pathname ? FNM_PATHNAME : 0) == 0 }
        }
    }
}

/// File systems whose files are the kernel's state rather than data: reading them can be endless
/// (`/proc/kmsg`) or have effects.
package enum PseudoFilesystem {
    /// The file system's name when `fd` is on a pseudo-filesystem, else nil.
    package static func kind(of fd: FileDescriptor) -> String? {
        #if os(Linux)
        var type: UInt64 = 0
        guard imgsniff_filesystem_type(fd.rawValue, &type) == 0 else { return nil }
        switch type {
        case 0x9FA0: return "proc"
        case 0x6265_6572: return "sysfs"
        case 0x6462_6720: return "debugfs"
        case 0x7472_6163: return "tracefs"
        case 0x0027_E0EB: return "cgroup"
        case 0x6367_7270: return "cgroup2"
        case 0x7363_6673: return "securityfs"
        case 0xCAFE_4A11: return "bpf"
        case 0x6165_676C: return "pstore"
        case 0x6265_6570: return "configfs"
        case 0x1CD1: return "devpts"
        case 0x6573_5543: return "fusectl"
        case 0x1980_0202: return "mqueue"
        case 0x4249_4E4D: return "binfmt_misc"
        case 0xF97C_FF8C: return "selinuxfs"
        case 0xDE5E_81E4: return "efivarfs"
        default: return nil
        }
        #else
        return nil
        #endif
    }
}
