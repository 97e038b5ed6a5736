import CSystemShim

/// Ctrl-C (SIGINT) and SIGTERM as a flag that long jobs poll between steps, so that they stop
/// cleanly (a rename run finishes the rename in hand, writes its journal, and says how to undo).
package enum Interrupt {
    /// Installs the handlers; the first signal sets the flag, a second one ends the process.
    /// Calls are not restarted after the signal: they retry on EINTR (`retryingOnInterrupt`),
    /// except a read that waits on an idle pipe (`FileDescriptor.readUnlessInterrupted`).
    package static func install() {
        _ = imgsniff_install_interrupt_handler(interruptHandler)
        // A parent may have blocked them (some process launchers do): take them.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Whether a signal arrived.
    package static var requested: Bool { imgsniff_interrupt_signal() != 0 }

    /// The signal that arrived, or 0.
    package static var signalNumber: Int32 { imgsniff_interrupt_signal() }

    fileprivate static func received(_ signal: Int32) {
        if imgsniff_interrupt_record(signal) == 0 { _exit(128 + signal) }
    }
}

private let interruptHandler: @convention(c) (Int32) -> Void = { Interrupt.received($0) }
