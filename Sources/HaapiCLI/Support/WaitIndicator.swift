import Foundation
import OAuthCore
import OAuthTransportNIO

/// Says what the command waits for while it waits: after a moment, a spinner line on standard
/// error naming the wait and its seconds, erased when the wait ends. Only on a terminal: on a
/// pipe or a file it writes nothing; and not while the command waits for the user (a question
/// or a poll, which show their own line).
final class WaitIndicator: Sendable {
    /// The process's indicator, on when standard error is a terminal that understands `\r` (coloured unless `NO_COLOR`).
    static let shared = WaitIndicator(isEnabled: Terminal.standardErrorIsTerminal)

    /// How long a wait is "a moment": shorter ones show nothing.
    static let moment: Duration = .milliseconds(400)

    private struct Line {
        /// The wait whose line is on the screen, if any.
        var shown: Int?
        var next = 0
    }

    let isEnabled: Bool
    private let line = LockedValue(Line())

    init(isEnabled: Bool) { self.isEnabled = isEnabled }

    /// Runs `body`, showing `text` while it takes longer than a moment.
    func during<T>(
        _ text: PrintableText, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        guard isEnabled else { return try await body() }
        let id = line.withLock { line in
            defer { line.next += 1 }
            return line.next
        }
        let spinner = Task.detached { [line] in
            let frames = ["|", "/", "-", "\\"]
            let start = ContinuousClock.now
            try await Task.sleep(for: Self.moment)
            for frame in 0... {
                let seconds = Int((ContinuousClock.now - start).components.seconds)
                let drawn: PrintableText = Terminal.eraseLine + Terminal.styled(PrintableText(frames[frame % frames.count]), [.cyan]) + " \(text)… "
                    + Terminal.styled("\(seconds) s", [.dim])
                guard !Task.isCancelled else { return }
                // A question or a poll's own status line is on the screen: a background
                // request (automatic polling) must not write over it.
                if Interrupts.isWaitingForTheUser {
                    try await Task.sleep(for: .milliseconds(120))
                    continue
                }
                line.withLock { line in
                    line.shown = id
                    Stderr.write(drawn)
                }
                try await Task.sleep(for: .milliseconds(120))
            }
        }
        defer {
            spinner.cancel()
            line.withLock { line in
                guard line.shown == id else { return }
                line.shown = nil
                Stderr.write("\r\u{1B}[2K")
            }
        }
        return try await body()
    }

    /// Erases the line on the screen, if any (before the process ends); whether there was one.
    @discardableResult
    func clear() -> Bool {
        guard isEnabled else { return false }
        return line.withLock { line in
            guard line.shown != nil else { return false }
            line.shown = nil
            Stderr.write("\r\u{1B}[2K")
            return true
        }
    }
}

/// The transport of every `haapi` command: AsyncHTTPClient, with each request's wait shown
/// by the ``WaitIndicator`` ("Waiting for op.example: POST /oauth/token").
struct AnnouncedTransport: HTTPTransport {
    let base: any HTTPTransport
    let indicator: WaitIndicator

    /// The transport the commands use.
    static func make() throws -> AnnouncedTransport {
        do {
            return AnnouncedTransport(base: try AsyncHTTPClientTransport(), indicator: .shared)
        } catch {
            throw CLIFailure("cannot set up HTTPS: \((error as? any IdsvrError)?.errorDescription ?? "\(error)")")
        }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await indicator.during(Self.describe(request)) { try await base.send(request) }
    }

    /// `Waiting for HOST[:PORT]: METHOD PATH`, without the query (it can hold codes).
    static func describe(_ request: TransportRequest) -> PrintableText {
        let host = (request.url.host ?? "the server") + (request.url.port.map { ":\($0)" } ?? "")
        let path = request.url.path.isEmpty ? "/" : request.url.path
        return "Waiting for \(host): \(request.method) \(path)"
    }
}
