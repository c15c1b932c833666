import Foundation
import OAuthCore
import OIDCClient

/// A browser for tests: follows the provider's redirects (without running any page) until it
/// reaches a page that does not redirect, such as the loopback listener's.
struct HeadlessBrowser: BrowserLauncher {
    /// Every URL it opened, for assertions.
    let opened = LockedList<URL>()

    func open(_ url: URL) async throws {
        opened.append(url)
        // A real browser runs on its own; the login waits for the redirect, not for this.
        Task {
            var next: URL? = url
            var hops = 0
            while let current = next, hops < 10 {
                hops += 1
                let response = try await AsyncHTTPClientTransport().send(TransportRequest(url: current))
                next = (300..<400).contains(response.status) ? response.headers["Location"].flatMap { URL(string: $0, relativeTo: current) } : nil
            }
        }
    }
}

/// A browser the user never finishes with.
struct AbandonedBrowser: BrowserLauncher {
    func open(_ url: URL) async throws {}
}

/// A thread-safe list.
final class LockedList<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []
    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var all: [Element] { lock.withLock { items } }
}

/// Delays and counts requests, so concurrent callers overlap on the wire.
struct SlowTransport: HTTPTransport {
    let base: any HTTPTransport
    let delay: Duration
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.path.hasSuffix("/token") { try await Task.sleep(for: delay) }
        return try await base.send(request)
    }
}

extension TestProvider {
    /// A client for this provider: a public client with a loopback redirect on any free port.
    func client(
        storage: any Storage = InMemoryStorage(), timeout: Duration = .seconds(15), slowTokenEndpoint: Bool = false,
        configure: (inout OIDCConfiguration) -> Void = { _ in }
    ) throws -> OIDCClient {
        var configuration = OIDCConfiguration(
            issuer: URL(string: issuer)!, clientAuthentication: .none(clientID: TestProvider.clientID),
            redirectURI: URL(string: "http://127.0.0.1:0/callback")!,
            postLogoutRedirectURI: URL(string: "http://127.0.0.1:0/logged-out")!, scopes: ["openid", "profile"],
            userAgentTimeout: timeout)
        configure(&configuration)
        let base = try AsyncHTTPClientTransport()
        let transport: any HTTPTransport = slowTokenEndpoint ? SlowTransport(base: base, delay: .milliseconds(300)) : base
        return OIDCClient(configuration: configuration, transport: transport, storage: storage)
    }
}
