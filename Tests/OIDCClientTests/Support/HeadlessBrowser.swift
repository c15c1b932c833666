import Foundation
import OAuthCore
import OIDCClient
import OAuthTransportNIO

/// A browser the user never finishes with.
struct AbandonedBrowser: BrowserLauncher {
    func open(_ url: URL) async throws {}
}

/// Delays and counts requests, so concurrent callers overlap on the wire.
struct SlowTransport: HTTPTransport {
    let base: any HTTPTransport
    let delay: Duration
    /// When set, a token request also waits until the test opens it (at most 10 s).
    var gate: LockedValue<Bool>? = nil
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.path.hasSuffix("/token") {
            try await Task.sleep(for: delay)
            let deadline = ContinuousClock.now + .seconds(10)
            while let gate, !gate.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        }
        return try await base.send(request)
    }
}

extension TestProvider {
    /// A client for this provider: a public client with a loopback redirect on any free port.
    func client(
        storage: any Storage = InMemoryStorage(), timeout: TimeInterval = 15, slowTokenEndpoint: Bool = false,
        tokenGate: LockedValue<Bool>? = nil, configure: (inout OIDCConfiguration) -> Void = { _ in }
    ) throws -> OIDCClient {
        var configuration = OIDCConfiguration(
            issuer: URL(string: issuer)!, clientAuthentication: .none(clientID: TestProvider.clientID),
            redirectURI: URL(string: "http://127.0.0.1:0/callback")!,
            postLogoutRedirectURI: URL(string: "http://127.0.0.1:0/logged-out")!, scopes: ["openid", "profile"],
            userAgentTimeout: timeout)
        configure(&configuration)
        let base = try AsyncHTTPClientTransport()
        let transport: any HTTPTransport =
            slowTokenEndpoint || tokenGate != nil ? SlowTransport(base: base, delay: .milliseconds(300), gate: tokenGate) : base
        return OIDCClient(configuration: configuration, transport: transport, storage: storage)
    }
}
