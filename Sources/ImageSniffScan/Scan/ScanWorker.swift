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

    /// Files kept in flight through io_uring (`ReadRing`) while `usesRing` is set.
    package var ringDepth = 0
    /// Read each batch's files through the ring, `ringDepth` at once (while reads wait on the
    /// device); one at a time, the usual way, otherwise. The records are the same either way.
    package var usesRing = false
    private var ring: ReadRing?
    private var ringRefused = false
    /// How many files' first bytes came through the ring (for tests).
    package private(set) var filesThroughRing = 0

    package init(settings: ScanSettings) {
        self.settings = settings
        sniffer = FileSniffer(budget: settings.verify ? .verifying : .default)
        // A signal stops a long read (`--verify` walks all of a file that wants it).
        sniffer.cancellationCheck = { Interrupt.requested }
        crossChecker = settings.crossCheck ? settings.makeCrossChecker?() : nil
        encoder = settings.encoding.map { RecordEncoder(format: $0, crossCheck: settings.crossCheck, properties: settings.properties) }
    }

    /// Detects, filters and encodes every entry.
    package func process(_ entries: [WalkEntry]) -> ScanBatchResult {
        var result = ScanBatchResult()
        result.items.reserveCapacity(entries.count)
        // Room for the records as most are (about 300 bytes): the array is not grown and copied
        // again and again as they come.
        if encoder != nil { result.bytes.reserveCapacity(entries.count * 384) }
        // Through a buffer pointer: the entries are read in place, not copied (and retained) one
        // by one, as an array's subscript would.
        entries.withUnsafeBufferPointer { entries in
            // Through the ring, the files' records come back in the order their reads end; they
            // are put in walk order here (what the ring left out takes the usual path below).
            let ringRecords = usesRing ? readRing().map { scanThroughRing(entries, $0) } : nil
            for index in entries.indices {
                if let fs = entries[index].skippedFilesystem {
                    result.items.append(ScanItem(message: Visible.text("imgsniff: \(entries[index].displayPath): not entered: \(fs) is a pseudo-filesystem (use --pseudo-filesystems)")))
                    continue
                }
                // The record is moved, not copied, into its item and the item into the batch
                // (each copy of a record is a `memcpy` and a retain of everything it holds).
                let record = ringRecords?[index] ?? scan(entries.baseAddress! + index, throughRing: nil)
                // A read a signal stopped has nothing to say about its file: no record, no
                // message (the run ends, and says it was interrupted).
                if let problem = record.problem, problem.isInterruption, Interrupt.requested { continue }
                // Errors go to standard error unless the output shows them (a table row), on one
                // line whatever the name holds.
                var message: String?
                if let problem = record.problem, record.isFailure,
                   encoder != nil || !settings.recordsShowErrors || !record.isIncluded {
                    message = Visible.text("imgsniff: \(record.displayPath): \(problem.message)")
                }
                var encoded = 0..<0
                if record.isIncluded, let encoder {
                    let start = result.bytes.count
                    encoder.encode(record, into: &result.bytes)
                    encoded = start..<result.bytes.count
                }
                result.items.append(ScanItem(record: consume record, encoded: encoded, message: message))
            }
        }
        return result
    }

    /// This thread's ring, made when first wanted; nil where io_uring is refused.
    private func readRing() -> ReadRing? {
        if ring == nil && !ringRefused {
            ring = ReadRing(depth: ringDepth)
            ringRefused = ring == nil
        }
        return ring
    }

    /// Whether the usual path would open the entry (a file, or what may be one).
    private func opensFile(_ entry: WalkEntry) -> Bool {
        guard entry.error == nil, entry.skippedFilesystem == nil else { return false }
        switch entry.kind {
        case .standardInput, .directory: return false
        case let kind where kind.isSpecial && kind != .unknown: return false
        default: return true
        }
    }

    /// The records of the entries the ring opened and read, `ring.depth` files in flight; nil
    /// for the rest (not files, or a call failed: the usual path then words the answer).
    private func scanThroughRing(_ entries: UnsafeBufferPointer<WalkEntry>, _ ring: ReadRing) -> [ScanRecord?] {
        var records = [ScanRecord?](repeating: nil, count: entries.count)
        var entryInSlot = [Int](repeating: 0, count: ring.depth)
        var nextIndex = 0
        let advise = adviseRandomAccess
        /// Starts the next file in `slot`; false when there is none.
        func startNext(in slot: Int) -> Bool {
            while nextIndex < entries.count {
                let index = nextIndex
                nextIndex += 1
                guard opensFile(entries[index]) else { continue }
                let (directory, name) = entries[index].location
                let follow = entries[index].followSymlinks
                let started = Path.withCString(name) {
                    ring.start(slot: slot, directory: directory.rawValue, name: $0, followSymlinks: follow, advise: advise)
                }
                if started {
                    entryInSlot[slot] = index
                    return true
                }
            }
            return false
        }
        for slot in 0..<ring.depth where !startNext(in: slot) { break }
        drain: while true {
            switch ring.next() {
            case .opened(let slot, let fd, let length, let prefix):
                let index = entryInSlot[slot]
                records[index] = scan(entries.baseAddress! + index, throughRing: .opened(fd: fd, length: length, prefix: prefix))
                filesThroughRing += 1
                _ = startNext(in: slot)  // after the scan: the slot's prefix is read
            case .readFailed(let slot, let errno):
                let index = entryInSlot[slot]
                records[index] = scan(entries.baseAddress! + index, throughRing: .readFailed(errno: errno))
                _ = startNext(in: slot)
            case .fallBack(let slot):
                _ = startNext(in: slot)
            case .idle:
                break drain
            case .failed:
                // The files still in flight take the usual path; the ring is kept (not closed
                // under reads the kernel may still complete) but not used again.
                ring.abandon()
                ringRefused = true
                self.ring = nil
                break drain
            }
        }
        return records
    }

    /// What the ring did with a file it opened and checked.
    private enum RingFile {
        /// Open (the scan closes `fd`), with its first bytes.
        case opened(fd: Int32, length: Int, prefix: UnsafeRawBufferPointer)
        /// The read of its first bytes failed (the descriptor is closed already).
        case readFailed(errno: Int32)
    }

    /// The record of one entry.
    package func scan(_ entry: WalkEntry) -> ScanRecord {
        withUnsafePointer(to: entry) { scan($0, throughRing: nil) }
    }

    /// The record of the entry at `entry`, read where it lies: each field is read as it is
    /// wanted (a call with `entries[index]` of a buffer would copy the whole entry, and retain all
    /// it holds).
    private func scan(_ entry: UnsafePointer<WalkEntry>, throughRing ringFile: RingFile?) -> ScanRecord {
        var r = ScanRecord(path: entry.pointee.path)
        let fileExtension = r.fileExtension
        let hint = settings.hint(forExtension: fileExtension)
        var standardInputBytes: [UInt8]?
        if let error = entry.pointee.error {
            r.problem = .walk(error)
            r.isFailure = true
        } else {
            switch entry.pointee.kind {
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
                r.isFailure = entry.pointee.origin != .tree
            default:
                let (directory, name) = entry.pointee.location
                let follow = entry.pointee.followSymlinks  // the closures below capture this, not the entry
                do throws(FileError) {
                    if let ringFile {
                        let (fd, length, prefix): (Int32, Int, UnsafeRawBufferPointer)
                        switch ringFile {
                        case .readFailed(let e): throw FileError(errno: e)
                        case .opened(let f, let l, let p): (fd, length, prefix) = (f, l, p)
                        }
                        defer { FileDescriptor(rawValue: fd).close() }
                        let inspection = try sniffer.inspect(openedFile: fd, length: length, prefix: prefix,
                                                             hint: hint, properties: settings.readsProperties)
                        r.detection = inspection.detection
                        if settings.readsProperties { r.properties = inspection.properties }
                    } else if settings.readsProperties {
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
                    if case .notRegularFile = error.kind { r.isFailure = entry.pointee.origin != .tree } else { r.isFailure = true }
                    r.problem = .file(error)
                }
            }
        }
        if let d = r.detection {
            r.extensionMatches = MismatchRule.extensionMatches(fileExtension, detection: d, length: r.length)
            r.isIncluded = settings.filter.includes(d, extensionMatches: r.extensionMatches, properties: r.properties)
            if let crossChecker, r.isIncluded { r.crossCheck = crossChecker.check(entry.pointee, ours: d.type, bytes: standardInputBytes) }
        } else {
            r.isIncluded = !settings.filter.isActive
        }
        return r
    }
}
