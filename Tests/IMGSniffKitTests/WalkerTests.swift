import Foundation
import Testing
import TestSupport
@testable import IMGSniffKit

private func paths(_ walker: Walker) -> [String] { walker.map { Path.display($0.path) } }

@Suite("Walker")
struct WalkerTests {
    @Test func orderHiddenExcludesDepth() throws {
        let tree = try ScratchTree()
        for path in ["b/x", "a/2", "a/10", "a/sub/deep", ".hidden/y", "skip.tmp", "c"] { try tree.file(path, [1]) }
        let root = Array(tree.root.path.utf8)
        let prefix = tree.root.path + "/"
        var options = WalkOptions()
        #expect(paths(Walker(operands: [root], options: options)).map { String($0.dropFirst(prefix.count)) }
                == ["a/10", "a/2", "a/sub/deep", "b/x", "c", "skip.tmp"])
        options.includeHidden = true
        options.excludes = [Array("*.tmp".utf8), Array("a/sub".utf8)]
        #expect(paths(Walker(operands: [root], options: options)).map { String($0.dropFirst(prefix.count)) }
                == [".hidden/y", "a/10", "a/2", "b/x", "c"])
        options = WalkOptions()
        options.maxDepth = 1
        #expect(paths(Walker(operands: [root], options: options)).map { String($0.dropFirst(prefix.count)) } == ["c", "skip.tmp"])
    }

    /// A lattice of directory links, each level linking twice to the next: with -L every
    /// directory is walked once, so there is one entry per file, not 2^n.
    @Test func symlinkLatticeEnds() throws {
        let tree = try ScratchTree()
        let levels = 24
        for level in 0..<levels {
            try tree.file("l\(level)/file", [UInt8(level)])
            if level + 1 < levels {
                try tree.symlink("l\(level)/left", to: "../l\(level + 1)")
                try tree.symlink("l\(level)/right", to: "../l\(level + 1)")
            }
        }
        var options = WalkOptions()
        options.followSymlinks = true
        let entries = Array(Walker(operands: [Array(tree.root.appendingPathComponent("l0").path.utf8)], options: options))
        #expect(entries.filter { $0.kind == .regular }.count == levels)
        #expect(entries.allSatisfy { $0.error == nil })
    }

    @Test func loopIsAnError() throws {
        let tree = try ScratchTree()
        try tree.file("d/f", [1])
        try tree.symlink("d/up", to: "..")
        var options = WalkOptions()
        options.followSymlinks = true
        let entries = Array(Walker(operands: [Array(tree.root.path.utf8)], options: options))
        #expect(entries.contains { $0.error == .loop })
    }

    /// A tree deeper than the directory budget gets one clear error, not failures further on.
    @Test func deeperThanTheBudget() throws {
        let tree = try ScratchTree()
        try tree.file(Array(repeating: "d", count: 40).joined(separator: "/") + "/f", [1])
        var options = WalkOptions()
        options.directoryBudget = 20
        let entries = Array(Walker(operands: [Array(tree.root.path.utf8)], options: options))
        #expect(entries.contains { if case .tooDeep = $0.error { return true } else { return false } })
        #expect(!entries.contains { $0.kind == .regular })
    }

    /// Memory flat in depth: the walk keeps lengths, not paths, per level.
    @Test func deepTreeYieldsItsFile() throws {
        let tree = try ScratchTree()
        try Trees.chain(in: tree.root, component: String(repeating: "n", count: 200), levels: 60, leaf: "leaf", bytes: [1])
        defer { Trees.removeDeep(tree.root.path) }
        let entries = Array(Walker(operands: [Array(tree.root.path.utf8)]))
        #expect(entries.count == 1)
        #expect(entries.first.map { $0.path.count > 60 * 200 } == true)
    }

    @Test func procIsNotEntered() throws {
        let entries = Array(Walker(operands: [Array("/proc/self".utf8)]))
        #expect(entries.count == 1)
        #expect(entries.first?.skippedFilesystem == "proc")
        var options = WalkOptions()
        options.includePseudoFilesystems = true
        options.maxDepth = 1
        #expect(Array(Walker(operands: [Array("/proc/self".utf8)], options: options)).count > 5)
    }

    @Test func filesFromRejectsWhatCannotBeAPath() throws {
        let tree = try ScratchTree()
        func read(_ bytes: [UInt8], nul: Bool) throws -> (paths: [String], failure: String?) {
            try tree.file("list", bytes)
            let source = try FilesFromSource(path: Array(tree.root.appendingPathComponent("list").path.utf8), nulSeparated: nul)
            let walker = Walker(operands: [], filesFrom: source)
            return (paths(walker), walker.filesFromFailure)
        }
        let good = try read(Array("a\n\nb\n".utf8), nul: false)
        #expect(good.paths == ["a", "b"] && good.failure == nil)
        #expect(try read(Array("a\0b\n".utf8), nul: false).failure?.contains("NUL") == true)
        #expect(try read(Array("a\0\0b".utf8), nul: true).failure?.contains("empty") == true)
        #expect(try read([UInt8](repeating: 0x61, count: 5000), nul: false).failure?.contains("longer than") == true)
        // /dev/zero: a NUL at once, in either mode.
        for nul in [false, true] {
            let source = try FilesFromSource(path: Array("/dev/zero".utf8), nulSeparated: nul)
            let walker = Walker(operands: [], filesFrom: source)
            #expect(paths(walker).isEmpty)
            #expect(walker.filesFromFailure != nil)
        }
    }
}
