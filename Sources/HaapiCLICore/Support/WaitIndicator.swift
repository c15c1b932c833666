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
                let drawn: PrintableText =
                    Terminal.eraseLine + Terminal.styled(PrintableText(frames[frame % frames.count]), [.cyan]) + " \(text)… "
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
/// by the ``WaitIndicator`` ("Waiting for op.example: POST /oauth/token"), trusting the CA
/// files a profile and the environment name besides the system's roots.
package struct AnnouncedTransport: HTTPTransport {
    let base: LazyTransport
    let indicator: WaitIndicator

    /// The transport for `settings`: their `--cacert` file, `HAAPI_CA_FILE` and `SSL_CERT_FILE`
    /// trusted besides the system's roots. The files are read now (a missing one is said at
    /// once); the transport is made at the first request (a cached `haapi token` makes none).
    package static func make(for settings: ProfileConfiguration?, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws
        -> AnnouncedTransport
    {
        let roots = try trustedCAs(for: settings, environment: environment)
        return AnnouncedTransport(
            base: LazyTransport {
                try AsyncHTTPClientTransport(configuration: .init(tls: TLSOptions(additionalTrustedRootsPEM: roots)))
            }, indicator: .shared)
    }

    /// The CA files this command trusts besides the system's roots (`PATH (HAAPI_CA_FILE)`), for
    /// the hint of a certificate error.
    static let trustedCAFiles = LockedValue<[String]>([])

    /// Whether `path` is a system's own bundle of roots (which `SSL_CERT_FILE` often names):
    /// no private CA of the user's, and nothing to keep in a profile.
    static func isSystemBundle(_ path: String) -> Bool {
        ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem", "/etc/ssl/ca-bundle.pem"]
            .contains(URL(fileURLWithPath: path).standardizedFileURL.path)
    }

    /// The PEM certificates of the CA files named by `settings.caFile`, `HAAPI_CA_FILE` and
    /// `SSL_CERT_FILE`, together, but a system's own bundle (``isSystemBundle(_:)``); `nil` when
    /// none is left.
    /// - Throws: ``CLIFailure`` naming a file that cannot be read or holds no PEM certificate.
    static func trustedCAs(for settings: ProfileConfiguration?, environment: [String: String]) throws -> String? {
        let named = [
            (settings?.caFile, "the profile's CA file"), (environment["HAAPI_CA_FILE"], "HAAPI_CA_FILE"),
            (environment["SSL_CERT_FILE"], "SSL_CERT_FILE"),
        ].compactMap { path, source in path.flatMap { $0.isEmpty ? nil : ($0, source) } }
        // A system's own bundle adds nothing to the system's roots the transport trusts anyway:
        // it is not read (200 KB, and 3 ms of every cached `haapi token` where SSL_CERT_FILE names it).
        let own = named.filter { !isSystemBundle($0.0) }
        trustedCAFiles.withLock { $0 = own.map { "\($0.0) (\($0.1))" } }
        guard !own.isEmpty else { return nil }
        return try own.map { path, source in
            let text = try InputFiles.text(path, "the CA file (\(source))", limit: InputFiles.Limit.certificates)
            guard text.contains("-----BEGIN CERTIFICATE-----") else {
                throw CLIFailure("the CA file \(PrintableText(path)) (\(source)) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
            }
            return text
        }.joined(separator: "\n")
    }

    package func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await indicator.during(Self.describe(request)) { try await base.send(request) }
    }

    /// `Waiting for HOST[:PORT]: METHOD PATH`, without the query (it can hold codes).
    package static func describe(_ request: TransportRequest) -> PrintableText {
        let host = (request.url.host ?? "the server") + (request.url.port.map { ":\($0)" } ?? "")
        let path = request.url.path.isEmpty ? "/" : request.url.path
        return "Waiting for \(host): \(request.method) \(path)"
    }
}

/// A transport made at its first request, once: making one can cost more than a command that
/// sends nothing (a cached token) should pay.
final class LazyTransport: HTTPTransport, Sendable {
    private let make: @Sendable () throws -> any HTTPTransport
    private let made = LockedValue<(any HTTPTransport)?>(nil)

    init(_ make: @escaping @Sendable () throws -> any HTTPTransport) { self.make = make }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let transport = try made.withLock { made in
            if let made { return made }
            let transport = try make()
            made = transport
            return transport
        }
        return try await transport.send(request)
    }
}
