import Foundation

/// One row of `TestImages/manifest.tsv`: a file, its expected identifier and animation flag, and
/// the command that made it.
public struct ManifestEntry: CustomStringConvertible, Sendable, Hashable {
    public let file: String
    public let identifier: String
    public let animated: Bool
    public let how: String

    public var url: URL { Repository.testImages.appendingPathComponent(file) }
    public var description: String { file }
    /// Made by `synthesize.py` from a published structure (no encoder exists), not by an encoder.
    public var isSynthetic: Bool { how.hasPrefix("synthetic") }

    /// The file's bytes.
    public func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
}

public enum Manifest {
    /// Every row (the header skipped).
    public static func load() throws -> [ManifestEntry] {
        let text = try String(contentsOf: Repository.testImages.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count >= 3, !cols[0].isEmpty else { return nil }
            return ManifestEntry(file: cols[0], identifier: cols[1], animated: cols[2] == "yes", how: cols.count > 3 ? cols[3] : "")
        }
    }

    /// The rows, for parameterised tests: empty when the manifest cannot be read (the tests that
    /// use them also `#require` a non-empty manifest, so that a missing file fails rather than
    /// passing vacuously).
    public static let entries: [ManifestEntry] = (try? load()) ?? []

    /// The first row with this identifier.
    public static func first(_ identifier: String) -> ManifestEntry? { entries.first { $0.identifier == identifier } }
}
