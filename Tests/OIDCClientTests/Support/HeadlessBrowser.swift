import Foundation
import HaapiTesting
import OAuthCore
import OIDCClient
import OAuthTransportNIO

/// A browser the user never finishes with.
struct AbandonedBrowser: BrowserLauncher {
    func open(_ url: URL) async throws {}
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
        // Slow token requests, so that concurrent callers overlap on the wire; with a gate, they
        // also wait until the test opens it (at most 10 s).
        let slow = InterceptingTransport(base) { request in
            guard request.url.path.hasSuffix("/token") else { return nil }
            try await Task.sleep(for: .milliseconds(300))
            let deadline = ContinuousClock.now + .seconds(10)
            while let tokenGate, !tokenGate.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            return nil
        }
        let transport: any HTTPTransport = slowTokenEndpoint || tokenGate != nil ? slow : base
        return OIDCClient(configuration: configuration, transport: transport, storage: storage)
    }
}
