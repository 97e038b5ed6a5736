// Threads and the one lock the command shares between them.

/// A lock with a condition to wait on, guarding a value: `withLock` to change it,
/// `withLock(waitingUntil:)` to sleep until the value is ready, then change it. The mutex and
/// condition live on the heap at a stable address (a Swift class property must not be passed to
/// pthread by `&`).
///
/// Waiting is done here and not by the caller's closure on purpose: a closure handed the state
/// `inout` holds exclusive access to it, so the optimizer may read a field once and never again
/// (`while state.count > 0 { wait() }` then sleeps forever in a release build). Each readiness
/// check below is a fresh read of the class's property after the opaque `pthread_cond_wait`.
///
/// This is the command's one `@unchecked Sendable`: the state is only reached through the
/// mutex.
package final class ConditionLock<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// `conditions` conditions (one by default): waiters of different kinds on their own
    /// condition, so that a `signal` wakes one of the right kind and no thundering herd.
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let conditions: Int
    private var state: State

    package init(_ state: State, conditions: Int = 1) {
        self.state = state
        self.conditions = max(1, conditions)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: self.conditions)
        for i in 0..<self.conditions {
            (condition + i).initialize(to: pthread_cond_t())
            pthread_cond_init(condition + i, nil)
        }
    }

    deinit {
        for i in 0..<conditions { pthread_cond_destroy(condition + i) }
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the state, the mutex held.
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Sleeps on condition `on` until `ready` holds for the state (checked with the mutex held,
    /// again after every wake-up), then runs `body` with the mutex still held.
    package func withLock<R>(
        waitingUntil ready: (borrowing State) -> Bool, on index: Int = 0, _ body: (inout State) throws -> R
    ) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady(ready) { pthread_cond_wait(condition + index, mutex) }
        return try body(&state)
    }

    /// One read of the state, kept out of line so that no caller can fold it into a loop.
    @inline(never)
    private func isReady(_ ready: (borrowing State) -> Bool) -> Bool { ready(state) }

    /// Wakes every thread waiting on condition `index`.
    package func broadcast(_ index: Int = 0) { pthread_cond_broadcast(condition + index) }

    /// Wakes one thread waiting on condition `index`.
    package func signal(_ index: Int = 0) { pthread_cond_signal(condition + index) }
}

package enum Threads {
    private final class Start: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts a detached thread running `body` (1 MiB of stack). Returns false when the system
    /// refuses (a process or cgroup limit on threads): the caller does the work itself.
    package static func spawn(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Start(body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 1 << 20)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let rc = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            start.body()
            return nil
        }, box.toOpaque())
        if rc != 0 {
            box.release()
            return false
        }
        return true
    }
}
