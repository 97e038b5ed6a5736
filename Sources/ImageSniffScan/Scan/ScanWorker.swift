import ImageSniff

/// One walk entry's result, in walk order. The record is made with the entry's path before
/// anything about the file is known, so every output mode shows each answer beside its own path:
/// nothing downstream can shift it onto another file.
package struct ScanItem: Sendable {
    /// What the scan says about the entry's path; nil for a note about a directory that was not
    /// entered (a pseudo-filesystem).
    package var record: ScanRecord?
    /// The record's bytes in `ScanBatchResult.bytes`, when it was encoded there (an included
    /// record in a streaming format); empty otherwise.
    package var encoded: Range<Int> = 0..<0
    /// A line for standard error.
    package var message: String?
}

/// A worker's results for one batch of entries: one item per entry, in walk order.
package struct ScanBatchResult: Sendable {
    package var items: [ScanItem] = []
    /// The included records, encoded one after the other (only when `ScanSettings.encoding` is set).
    package var bytes: [UInt8] = []
}

/// One thread's means of scanning: a sniffer with its reused buffer, a cross-checker when asked
/// for (the command's libmagic), and a record encoder. Made on the thread that uses it.
package final class ScanWorker {
    private let settings: ScanSettings
    private let sniffer: FileSniffer
    private let crossChecker: (any CrossChecker)?
    private let encoder: RecordEncoder?

    /// Advise the kernel that each file is read at random (`POSIX_FADV_RANDOM`): no readahead past
    /// what detection asks for, for a tree that waits on the device.
    package var adviseRandomAccess: Bool {
        get { sniffer.adviseRandomAccess }
        set { sniffer.adviseRandomAccess = newValue }
    }

    package init(settings: ScanSettings) {
        self.settings = settings
        sniffer = FileSniffer(budget: settings.verify ? .verifying : .default)
        crossChecker = settings.crossCheck ? settings.makeCrossChecker?() : nil
        encoder = settings.encoding.map { RecordEncoder(format: $0, crossCheck: settings.crossCheck, properties: settings.properties) }
    }

    /// Detects, filters and encodes every entry.
    package func process(_ entries: [WalkEntry]) -> ScanBatchResult {
        var result = ScanBatchResult()
        result.items.reserveCapacity(entries.count)
        // Through a buffer pointer: the entries are read in place, not copied (and retained) one
        // by one, as an array's subscript would.
        entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                var item = ScanItem()
                if let fs = entries[index].skippedFilesystem {
                    item.message = "imgsniff: \(entries[index].displayPath): not entered: \(fs) is a pseudo-filesystem (use --pseudo-filesystems)"
                } else {
                    let record = scan(entries[index])
                    // Errors go to standard error unless the output shows them (a table row).
                    if let problem = record.problem, record.isFailure,
                       encoder != nil || !settings.recordsShowErrors || !record.isIncluded {
                        item.message = "imgsniff: \(record.displayPath): \(problem.message)"
                    }
                    if record.isIncluded, let encoder {
                        let start = result.bytes.count
                        encoder.encode(record, into: &result.bytes)
                        item.encoded = start..<result.bytes.count
                    }
                    item.record = record
                }
                result.items.append(item)
            }
        }
        return result
    }

    /// The record of one entry.
    package func scan(_ entry: WalkEntry) -> ScanRecord {
        var r = ScanRecord(path: entry.path)
        let fileExtension = r.fileExtension
        let hint = settings.hint(forExtension: fileExtension)
        var standardInputBytes: [UInt8]?
        if let error = entry.error {
            r.problem = .walk(error)
            r.isFailure = true
        } else {
            switch entry.kind {
            case .standardInput:
                do throws(Errno) {
                    let reading = try StandardInput.detect(hint: hint, properties: settings.readsProperties, verify: settings.verify)
                    r.detection = reading.detection
                    if settings.readsProperties { r.properties = reading.properties }
                    r.length = reading.length
                    standardInputBytes = reading.bytes
                } catch {
                    r.problem = .standardInput(error)
                    r.isFailure = true
                }
            case .directory:
                r.problem = .directory
            case let kind where kind.isSpecial && kind != .unknown:
                r.problem = .notRegular(kind)
                r.isFailure = entry.origin != .tree
            default:
                let (directory, name) = entry.location
                let follow = entry.followSymlinks  // the closures below capture this, not the entry
                do throws(FileError) {
                    if settings.readsProperties {
                        let inspection = try Path.withCString(name) { (p) throws(FileError) -> Inspection in
                            try sniffer.inspect(path: p, relativeTo: directory.rawValue, hint: hint, followSymlinks: follow)
                        }
                        r.detection = inspection.detection
                        r.properties = inspection.properties
                    } else {
                        r.detection = try Path.withCString(name) { (p) throws(FileError) -> Detection in
                            try sniffer.detect(path: p, relativeTo: directory.rawValue, hint: hint, followSymlinks: follow)
                        }
                    }
                    r.length = sniffer.lastLength
                } catch {
                    if case .notRegularFile = error.kind { r.isFailure = entry.origin != .tree } else { r.isFailure = true }
                    r.problem = .file(error)
                }
            }
        }
        if let d = r.detection {
            r.extensionMatches = MismatchRule.extensionMatches(fileExtension, detection: d)
            r.isIncluded = settings.filter.includes(d, extensionMatches: r.extensionMatches, properties: r.properties)
            if let crossChecker, r.isIncluded { r.crossCheck = crossChecker.check(entry, ours: d.type, bytes: standardInputBytes) }
        } else {
            r.isIncluded = !settings.filter.isActive
        }
        return r
    }
}
