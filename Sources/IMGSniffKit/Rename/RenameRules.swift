import ImageSniff
import ImageSniffScan

/// The rules that decide one file, from its name and what detection said.
package enum RenameRules {
    /// The extension of a name: its final `.xyz` (not a leading dot) when it looks like one: 1 to
    /// 16 ASCII letters, digits, `_` or `-`, at least one a letter ("report.2024" has none).
    package static func fileExtension(of name: [UInt8]) -> (dot: Int, text: String)? {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot + 1 < name.count else { return nil }
        let bytes = name[(dot + 1)...]
        guard bytes.count <= 16, bytes.contains(where: { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return nil }
        for b in bytes {
            let letter = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
            guard letter || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") else { return nil }
        }
        return (dot, String(decoding: bytes, as: UTF8.self))
    }

    /// Whether an extension fits the detection: `Detection.extensionFits(_:)`, the rule
    /// `scan --mismatches` uses too.
    package static func extensionFits(_ ext: String, _ detection: Detection) -> Bool {
        detection.extensionFits(ext) == true
    }

    /// Whether a policy takes answers of this confidence.
    static func accepts(_ confidence: Detection.Confidence, policy: RenamePolicy) -> Bool {
        switch confidence {
        case .conclusive: return true
        case .family: return policy.minimumConfidence != .conclusive
        case .likely, .hinted: return policy.minimumConfidence == .likely || policy.minimumConfidence == .hinted
        case .unknown: return false
        }
    }

    /// Whether an extension is written in capitals (`JPG`, `TIF2`): letters, all upper case.
    static func isUpperCase(_ text: String) -> Bool {
        text.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } && !text.utf8.contains { $0 >= 0x61 && $0 <= 0x7A }
    }

    /// Directories whose files are named by their tools, never by their content.
    /// (DVC's `.dvc`, whose cache holds files named by their hash, often hard links to the
    /// working tree's.)
    package static let versionControlDirectories: Set<[UInt8]> = Set([".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", ".pijul", "CVS", ".dvc"].map { Array($0.utf8) })

    /// The first version-control directory among a path's components (not its last), if any:
    /// one of `versionControlDirectories`, or a bare Git repository (`name.git`).
    package static func versionControlDirectory(in path: [UInt8]) -> String? {
        let components = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        for component in components.dropLast() {
            let bare = component.count > 4 && component.suffix(4).elementsEqual(".git".utf8)
            if bare || versionControlDirectories.contains(Array(component)) { return String(decoding: component, as: UTF8.self) }
        }
        return nil
    }

    /// The version-control directory a directory lies in, by its real path (whatever path led
    /// to it: a relative operand, a link, `--files-from` inside the repository).
    static func versionControlDirectory(of directory: FileDescriptor) -> String? {
        guard let real = Renaming.absolutePath(of: directory) else { return nil }
        return versionControlDirectory(in: real + Array("/-".utf8))
    }

    /// Names that are not a stem and an extension, though they may hold one: an editor's backup
    /// (`x.png~`, `#x#`), a download's or a rotation's copy (`x.jpg.1`), a download in progress, a
    /// temporary or a backup (`x.crdownload`, `x.tmp`, `x.bak`, exiftool's `x.JPG_original`), a
    /// name ending in a dot or a space, a hidden name that is a known extension (`.jpg`).
    package static func isBackupName(_ name: [UInt8]) -> Bool {
        guard let last = name.last else { return false }
        if last == UInt8(ascii: "~") || last == UInt8(ascii: ".") || last == UInt8(ascii: " ") { return true }
        // exiftool keeps the file it edits under its name with `_original` appended: an
        // extension, then `_original` (not a stem that ends so: `logo_original`).
        if name.count > 9, name.suffix(9).elementsEqual("_original".utf8),
           fileExtension(of: Array(name.dropLast(9))) != nil { return true }
        if name.count > 2, name.first == UInt8(ascii: "#"), last == UInt8(ascii: "#") { return true }
        if name.first == UInt8(ascii: "."), name.dropFirst().firstIndex(of: UInt8(ascii: ".")) == nil,
           !ImageType.types(filenameExtension: String(decoding: name.dropFirst(), as: UTF8.self)).isEmpty {
            return true
        }
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot + 1 < name.count else { return false }
        // A download in progress (`Unconfirmed 123.crdownload`, `x.part`), a temporary, a backup:
        // the extension says what the file is for, and a type's extension in its place would
        // make it look finished, or the original (even under --fix).
        if dot > 0, transientExtensions.contains(RenamePlanner.folded(Array(name[(dot + 1)...]))) { return true }
        // `stem.ext.N` (digits), an rsync temporary's `.x.jpg.AbCd12`: a known extension followed
        // by one the catalog does not know.
        if let inner = fileExtension(of: Array(name[..<dot])), !ImageType.types(filenameExtension: inner.text).isEmpty {
            let outer = String(decoding: name[(dot + 1)...], as: UTF8.self)
            if outer.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) || ImageType.types(filenameExtension: outer).isEmpty { return true }
        }
        return false
    }

    /// Extensions of partial downloads (browsers', download managers', file transfers'),
    /// temporaries and backups.
    static let transientExtensions: Set<[UInt8]> = Set([
        "part", "partial", "crdownload", "download", "opdownload", "filepart", "tmp", "temp", "bak", "orig", "old",
        "swp",
    ].map { Array($0.utf8) })

    /// Files whose names conventionally have no extension.
    static let conventionalNames: Set<[UInt8]> = Set([
        "makefile", "gnumakefile", "dockerfile", "containerfile", "vagrantfile", "gemfile", "rakefile", "procfile",
        "jenkinsfile", "brewfile", "podfile", "readme", "license", "licence", "copying", "authors", "contributors",
        "changelog", "changes", "news", "install", "thanks", "todo", "notice", "version", "configure", "codeowners",
        "justfile", "pipfile", "manifest", "kconfig", "doxyfile", "snakefile", "caddyfile", "earthfile", "tiltfile",
        "build", "workspace", "owners", "pkgbuild", "apkbuild", "copyright", "maintainers", "hacking",
        // Keys and configuration that tools look up by name (ssh, cron, GitHub Pages, /etc).
        "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "known_hosts", "authorized_keys",
        "config", "credentials", "crontab", "cname", "hosts", "passwd", "group", "shadow", "fstab", "environment",
    ].map { Array($0.utf8) })

    /// Whether `--all-types` leaves a non-image alone for its name or its mode.
    package static func isConventionallyUnextended(_ name: [UInt8], permissions: UInt32) -> Bool {
        permissions & 0o111 != 0 || conventionalNames.contains(RenamePlanner.folded(name))
    }

    /// What the rules say for one name and detection.
    package static func decide(name: [UInt8], detection: Detection, policy: RenamePolicy) -> RenameDisposition {
        let type = detection.type
        if detection.isUnknown || type == .data { return .keep(.unknownContent) }
        if isBackupName(name) { return .keep(.backupName) }
        let current = fileExtension(of: name)
        let fit = current.flatMap { detection.extensionFits($0.text) }
        if let (_, ext) = current, fit == true { return .keep(.extensionFits(ext)) }
        // An extension neither the catalog nor an alias knows (.md, .docx, .tgz): never a second
        // extension; with --fix, an image's is replaced.
        if let (_, ext) = current, fit == nil, !(policy.fix && type.isImage) {
            return .keep(.unknownExtension(ext))
        }
        if !policy.allTypes && !type.isImage { return .keep(.notAnImage) }
        if !accepts(detection.confidence, policy: policy) { return .keep(.notSure(detection.confidence)) }
        if detection.completeness == .truncated && !policy.includeTruncated { return .keep(.truncated) }
        guard let preferred = type.preferredFilenameExtension else { return .keep(.typeHasNoExtension) }
        let upper = policy.upperCase ?? current.map { isUpperCase($0.text) } ?? false
        let newExtension = Array((upper ? preferred.uppercased() : preferred).utf8)
        guard let (dot, ext) = current else {
            return .rename(to: name + [UInt8(ascii: ".")] + newExtension, reason: .noExtension, suffixed: false)
        }
        let stem = Array(name[..<dot])
        guard let named = ImageType.types(filenameExtension: ext).first else {
            return .rename(to: stem + [UInt8(ascii: ".")] + newExtension, reason: .unknownExtension(ext), suffixed: false)
        }
        guard policy.fix else { return .keep(.wrongExtension(ext, names: named)) }
        return .rename(to: stem + [UInt8(ascii: ".")] + newExtension, reason: .wrongExtension(ext, names: named), suffixed: false)
    }
}
