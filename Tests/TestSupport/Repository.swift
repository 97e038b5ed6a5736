import Foundation

/// Paths in the repository, found from this file's location.
public enum Repository {
    /// The package root.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `TestImages/`.
    public static let testImages = root.appendingPathComponent("TestImages")

    /// A file of the repository, by its path from the root.
    public static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// A file's text.
    public static func text(_ path: String) throws -> String {
        try String(contentsOf: url(path), encoding: .utf8)
    }
}
