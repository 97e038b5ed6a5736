/// How many file descriptors a scan holds at most, planned from the process's open-file limit
/// before the walk starts: the walk's directories, one file per worker (two with libmagic), the
/// standard streams and a `--files-from` list. At most `walkDirectories + reserved + jobs ×
/// (1 or 2)`, whatever the size or depth of the tree: 54 + jobs for a plain scan.
package struct DescriptorBudget: Sendable, Equatable {
    /// Workers (fewer than asked when the limit cannot give each its descriptors).
    package let jobs: Int
    /// Directory handles the walk and the work in flight may hold.
    package let directories: Int

    /// Directory handles a walk holds at most when the limit allows.
    package static let walkDirectories = 48
    /// Standard streams, a `--files-from` list, the copy of a directory's descriptor its listing
    /// reads through, and a parent opened again on the way back to a directory closed earlier.
    package static let reserved = 6
    /// The fewest directory handles a walk can work with: the current directory and one more.
    package static let minimumDirectories = 2

    package enum Failure: Error, Equatable, CustomStringConvertible {
        case limitTooLow(limit: Int, needed: Int)

        package var description: String {
            switch self {
            case .limitTooLow(let limit, let needed):
                return "the open-file limit (ulimit -n) is \(limit); a scan needs at least \(needed)"
            }
        }
    }

    /// The budget under `limit` (the soft limit on open files, raised to the hard limit first
    /// when nil).
    package static func plan(jobs: Int, crossCheck: Bool, limit: Int? = nil) -> Result<DescriptorBudget, Failure> {
        let limit = limit ?? ResourceLimits.raiseOpenFileLimit()
        let perJob = crossCheck ? 2 : 1
        let available = limit - reserved
        let needed = reserved + minimumDirectories + perJob
        guard available - perJob >= minimumDirectories else { return .failure(.limitTooLow(limit: limit, needed: needed)) }
        let workers = max(1, min(jobs, (available - minimumDirectories) / perJob))
        let directories = min(walkDirectories, available - workers * perJob)
        return .success(DescriptorBudget(jobs: workers, directories: directories))
    }
}
