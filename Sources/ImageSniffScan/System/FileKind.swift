/// What a directory entry is: from `d_type`, or from a file's status.
public enum FileKind: Sendable, Hashable {
    case regular, directory, symlink, fifo, socket, characterDevice, blockDevice, unknown
    /// The operand `-`.
    case standardInput

    package init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symlink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .unknown
        }
    }

    /// nil for `DT_UNKNOWN` (the caller must ask for the file's status).
    package init?(directoryEntryType type: UInt8) {
        switch Int32(type) {
        case Int32(DT_REG): self = .regular
        case Int32(DT_DIR): self = .directory
        case Int32(DT_LNK): self = .symlink
        case Int32(DT_FIFO): self = .fifo
        case Int32(DT_SOCK): self = .socket
        case Int32(DT_CHR): self = .characterDevice
        case Int32(DT_BLK): self = .blockDevice
        default: return nil
        }
    }

    /// FIFO, socket, device or unknown: never to be opened.
    public var isSpecial: Bool {
        switch self {
        case .fifo, .socket, .characterDevice, .blockDevice, .unknown: return true
        default: return false
        }
    }

    /// As file(1) says it: "fifo (named pipe)", "socket", "character special", ...
    public var name: String {
        switch self {
        case .regular: return "regular file"
        case .directory: return "directory"
        case .symlink: return "symbolic link"
        case .fifo: return "fifo (named pipe)"
        case .socket: return "socket"
        case .characterDevice: return "character special"
        case .blockDevice: return "block special"
        case .unknown: return "special file"
        case .standardInput: return "standard input"
        }
    }
}

/// What `stat` says of a file.
package struct FileStatus: Sendable, Hashable {
    package let kind: FileKind
    package let device: UInt64
    package let inode: UInt64
    package let size: Int64
    package let modifiedSeconds: Int64
    package let modifiedNanoseconds: Int64
    package let links: UInt64
    package let owner: UInt32
    /// The permission bits (`st_mode & 0o7777`).
    package let permissions: UInt32

    package init(_ st: stat) {
        kind = FileKind(mode: st.st_mode)
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int64(st.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(st.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(st.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(st.st_mtim.tv_nsec)
        #endif
        links = UInt64(st.st_nlink)
        owner = UInt32(st.st_uid)
        permissions = UInt32(st.st_mode) & 0o7777
    }

    /// Same device and inode.
    package func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
}
