import Foundation
import OAuthCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT) for the whole process.
///
/// By default it cancels the running command at once: its task is cancelled, so the transport
/// drops the request under way and nothing retries; `haapi` then says "cancelled" and exits
/// with 130. While the command waits for the user (a question, a poll, a browser), it is
/// handed to the command instead (``whileWaitingForTheUser(_:)``, ``take()``), so a login
/// can ask "Stop logging in?". A second Ctrl-C after a cancellation ends the process.
package enum Interrupts {
    /// How long a cancelled command may take to stop before the process ends without it.
    static let stopLimit: Double = 2

    private struct State {
        var command: Task<Int32, Never>?
        var waitsForTheUser = 0
        var pending = 0
        var cancelled = false
        var exiting = false
    }

    private static let state = LockedValue(State())
    nonisolated(unsafe) private static var source: (any DispatchSourceSignal)?

    /// Catches SIGINT from now on; an interrupt cancels `command`.
    package static func install(cancelling command: Task<Int32, Never>) {
        state.withLock { $0.command = command }
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: interrupted)
        source.resume()
        self.source = source
    }

    /// Whether an interrupt cancelled the command.
    static var cancelledCommand: Bool { state.withLock { $0.cancelled } }

    /// Runs `body` with Ctrl-C handed to the command: each one is kept for ``take()``.
    package static func whileWaitingForTheUser<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        state.withLock { $0.waitsForTheUser += 1 }
        defer { state.withLock { $0.waitsForTheUser -= 1 } }
        return try await body()
    }

    /// Whether the command is waiting for the user now (then it shows its own status line).
    static var isWaitingForTheUser: Bool { state.withLock { $0.waitsForTheUser > 0 } }

    /// Takes a Ctrl-C kept while the command waited for the user, if there is one.
    package static func take() -> Bool {
        state.withLock { state in
            guard state.pending > 0 else { return false }
            state.pending = 0
            return true
        }
    }

    /// Says "cancelled" (once, whoever calls) and ends the process with 130.
    static func exitCancelled(_ detail: String = "") -> Never {
        let first = state.withLock { state in
            defer { state.exiting = true }
            return !state.exiting
        }
        guard first else { while true { pause() } }
        fflush(nil)  // what `print` has buffered
        // On a line of its own: the spinner's line, erased, or the one after the terminal's "^C".
        let erased = WaitIndicator.shared.clear()
        Stderr.line((isatty(STDERR_FILENO) == 1 && !erased ? "\n" : "") + "haapi: cancelled\(detail)")
        exit(ExitCodes.interrupted)
    }

    private static func interrupted() {
        enum Action { case keep, cancel(Task<Int32, Never>?), exit }
        let action = state.withLock { state -> Action in
            if state.cancelled { return .exit }
            if state.waitsForTheUser > 0 {
                state.pending += 1
                return .keep
            }
            state.cancelled = true
            return .cancel(state.command)
        }
        switch action {
        case .keep:
            break
        case .cancel(let command):
            command?.cancel()
            // Everything the commands await honours cancellation; this is the net for what might not.
            DispatchQueue.global().asyncAfter(deadline: .now() + stopLimit) {
                exitCancelled(" (the command did not stop within \(OutsideNumber.wholeSeconds(stopLimit)) s)")
            }
        case .exit:
            exitCancelled()
        }
    }
}
