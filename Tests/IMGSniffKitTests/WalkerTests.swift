import Foundation
import Testing
import TestSupport
@testable import IMGSniffKit
@testable import ImageSniffScan

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

    /// A tree deeper than the directory budget is walked whole: the directories highest on the
    /// path are closed and opened again on the way back, and open handles never pass the budget.
    @Test(arguments: [2, 3, 20])
    func deeperThanTheBudget(budget: Int) throws {
        let tree = try ScratchTree()
        // A file at every level, and siblings, so that the walk comes back up through closed frames.
        var path = ""
        for level in 0..<40 {
            path += (level == 0 ? "" : "/") + "d\(level)"
            try tree.file(path + "/f", [UInt8(level)])
            try tree.file(path + "-sib/g", [UInt8(level)])
        }
        var options = WalkOptions()
        options.directoryBudget = budget
        let walker = Walker(operands: [Array(tree.root.path.utf8)], options: options)
        var files = 0, peak = 0
        while let entry = walker.next() {
            #expect(entry.error == nil)
            if entry.kind == .regular { files += 1 }
            peak = max(peak, walker.openDirectories)
        }
        #expect(files == 80)
        #expect(peak <= budget + 1)
    }

    /// A directory closed to stay within the budget and replaced meanwhile is not walked on: an
    /// error entry says so, and the rest of the tree is walked.
    @Test func replacedWhileClosed() throws {
        let tree = try ScratchTree()
        try tree.file("a/b/c/f", [1])
        try tree.file("a/z", [2])
        try tree.file("later/g", [3])
        var options = WalkOptions()
        options.directoryBudget = 2
        let walker = Walker(operands: [Array(tree.root.path.utf8)], options: options)
        var seen: [String] = []
        var swapped = false
        while let entry = walker.next() {
            seen.append(entry.displayPath)
            if !swapped, entry.displayPath.hasSuffix("a/b/c/f") {
                // The walk is deep in a/b/c with `a` closed: swap `a` for another directory.
                try FileManager.default.moveItem(at: tree.root.appendingPathComponent("a"), to: tree.root.appendingPathComponent("a-old"))
                try tree.file("a/z", [9])
                swapped = true
            }
            if entry.error == .replaced { #expect(entry.displayPath.hasSuffix("/a")) }
        }
        #expect(swapped)
        #expect(seen.contains { $0.hasSuffix("later/g") })
        #expect(!seen.contains { $0.hasSuffix("/a/z") })
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

/// A directory's names come out in bytewise order (`memcmp`, then the shorter first): the sort
/// compares 8-byte keys first, so names that share their first 8 bytes, names that are prefixes
/// of others, and bytes past 0x7F are where it could go wrong.
@Suite("Directory listing order")
struct DirectoryListingOrderTests {
    @Test func namesComeOutBytewise() throws {
        let tree = try ScratchTree()
        var names: Set<[UInt8]> = [Array("a".utf8), Array("ab".utf8), Array("abcdefgh".utf8), Array("abcdefghi".utf8),
                                   Array("abcdefgg".utf8), Array("abcdefgh0".utf8), Array("abcdefgh00".utf8),
                                   Array("B".utf8), Array("b".utf8), [0xC3, 0xA9], [0xFF], [0x7F, 0x41], Array("0".utf8)]
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array("aAb0.-_".utf8) + [0x7F, 0x80, 0xC3, 0xA9, 0xFE]
        while names.count < 400 {
            // Shared prefixes of 6-10 bytes, then a few random bytes: keys equal and unequal.
            let stem = Array("stemstemst".utf8.prefix(Int.random(in: 6...10, using: &generator)))
            let tail = (0..<Int.random(in: 0...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let name = Bool.random(using: &generator) ? stem + tail : tail + stem
            if !name.isEmpty, name != Array(".".utf8), name != Array("..".utf8), !name.contains(UInt8(ascii: "/")) {
                names.insert(name)
            }
        }
        for name in names {
            let path = Array(tree.root.path.utf8) + [UInt8(ascii: "/")] + name + [0]
            let fd = path.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o600) }
            try #require(fd >= 0)
            close(fd)
        }
        let dir = try FileDescriptor.openDirectory(Array(tree.root.path.utf8))
        defer { dir.close() }
        let listing = try DirectoryListing(dir)
        let listed = (0..<listing.count).map { listing.name($0) }
        let expected = names.sorted { a, b in a.lexicographicallyPrecedes(b) }
        let inOrder = listed == expected
        let first = zip(listed, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(inOrder, "\(listed.count) names listed of \(expected.count); first out of place at \(first.map(String.init) ?? "-"): \(first.map { listed[$0] } ?? [])")
    }
}
