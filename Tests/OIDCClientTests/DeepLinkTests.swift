import Foundation
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import OIDCClient
import Testing

/// A browser for deep-link logins: follows the provider's redirects until the one an app would
/// be opened with (a private-use scheme, or a claimed `https` host), and hands it to `deliver`,
/// as the operating system hands a link to the app.
struct AppLinkBrowser: Sendable {
    /// The host of the app's claimed `https` links.
    static let claimedHost = "app.swift-haapi.test"

    let deliver: @Sendable (URL) async -> Void

    /// Where the browser stops: the URL the app is opened with.
    static func follow(_ url: URL) async throws -> URL {
        var current = url
        for _ in 0..<10 {
            if current.scheme?.lowercased() != "http" && current.scheme?.lowercased() != "https" || current.host == claimedHost {
                return current
            }
            let response = try await AsyncHTTPClientTransport().send(TransportRequest(url: current))
            guard (300..<400).contains(response.status), let location = response.headers["Location"],
                let next = URL(string: location, relativeTo: current)?.absoluteURL
            else { throw OIDCError(.userAgentFailed, "the provider sent the browser nowhere: HTTP \(response.status)") }
            current = next
        }
        throw OIDCError(.userAgentFailed, "too many redirects")
    }

    /// The user agent: opens the request, and once the browser is sent back to the app, delivers that URL.
    var agent: DeepLinkUserAgent {
        DeepLinkUserAgent { url in
            let deliver = self.deliver
            Task {
                guard let returned = try? await Self.follow(url) else { return }
                await deliver(returned)
            }
        }
    }
}

/// Deep-link resume (RFC 8252 §7.1, §7.2): the redirect comes back as a URL the app is opened
/// with and is handed to the waiting login or logout; every bad URL is a typed error that
/// changes nothing.
@Suite("OIDCClient deep-link resume", .timeLimit(.minutes(1)))
struct DeepLinkTests {
    static let customScheme = URL(string: "com.example.swifthaapi:/oauth/callback")!
    static let claimed = URL(string: "https://\(AppLinkBrowser.claimedHost)/oauth/callback")!

    func client(_ provider: TestOpenIDProvider, redirectURI: URL, storage: any Storage = InMemoryStorage()) throws -> OIDCClient {
        try provider.client(storage: storage) {
            $0.redirectURI = redirectURI
            $0.postLogoutRedirectURI = URL(string: "com.example.swifthaapi:/oauth/logged-out")!
        }
    }

    /// A browser that hands the returned URL to `client` as the app would: `isOAuthResponse` first.
    func browser(for client: OIDCClient, seen: LockedValue<[URL]> = LockedValue([])) -> AppLinkBrowser {
        AppLinkBrowser { url in
            seen.withLock { $0.append(url) }
            if client.isOAuthResponse(url) { try? client.resumeExternalUserAgentFlow(with: url) }
        }
    }

    @Test(arguments: [customScheme, claimed])
    func loginResumesWithTheRedirectTheAppIsOpenedWith(_ redirectURI: URL) async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try client(provider, redirectURI: redirectURI)
        let seen = LockedValue<[URL]>([])
        let state = try await client.login(using: browser(for: client, seen: seen).agent)
        #expect(state.subject != nil)
        let returned = try #require(seen.withLock { $0.first })
        #expect(returned.scheme == redirectURI.scheme && returned.path == redirectURI.path)
        // The same link again (a double tap, a reload): its login has had its redirect.
        #expect(!client.isOAuthResponse(returned))
        let again = #expect(throws: OIDCError.self) { try client.resumeExternalUserAgentFlow(with: returned) }
        #expect(again?.code == .redirectAlreadyDelivered)
        #expect(try await client.authState?.accessToken == state.accessToken)
    }

    @Test func aURLForNothingPendingIsNoPendingRequest() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try client(provider, redirectURI: Self.customScheme)
        let stray = URL(string: "com.example.swifthaapi:/oauth/callback?code=x&state=never-sent")!
        #expect(!client.isOAuthResponse(stray))
        let error = #expect(throws: OIDCError.self) { try client.resumeExternalUserAgentFlow(with: stray) }
        #expect(error?.code == .noPendingRequest)
        #expect(try await client.authState == nil)
    }

    @Test func anotherStateOrPathIsRefusedAndTheLoginWaitsForItsOwn() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try client(provider, redirectURI: Self.customScheme)
        let held = LockedValue<[URL]>([])
        // A browser that keeps the redirect: the test delivers forged ones first.
        let agent = AppLinkBrowser { url in held.withLock { $0.append(url) } }.agent
        let login = Task { try await client.login(using: agent) }
        let real = try await eventually { held.withLock { $0.first } }
        var forged = URLComponents(url: real, resolvingAgainstBaseURL: false)!
        forged.queryItems = forged.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
        #expect(!client.isOAuthResponse(forged.url!))
        let mismatch = #expect(throws: OIDCError.self) { try client.resumeExternalUserAgentFlow(with: forged.url!) }
        #expect(mismatch?.code == .stateMismatch)
        let otherPath = URL(string: real.absoluteString.replacingOccurrences(of: "/oauth/callback", with: "/elsewhere"))!
        let elsewhere = #expect(throws: OIDCError.self) { try client.resumeExternalUserAgentFlow(with: otherPath) }
        #expect(elsewhere?.code == .noPendingRequest)
        // The login still waits; its own redirect completes it.
        #expect(client.isOAuthResponse(real))
        try client.resumeExternalUserAgentFlow(with: real)
        #expect(try await login.value.subject != nil)
    }

    @Test func anErrorResponseEndsTheLoginAndKeepsTheSession() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try client(provider, redirectURI: Self.customScheme)
        let first = try await client.login(using: browser(for: client).agent)
        provider.change { $0.authorizationError = "access_denied" }
        let error = await #expect(throws: OIDCError.self) { try await client.login(using: browser(for: client).agent) }
        #expect(error?.code == .authorizationError)
        #expect(error?.serverError == "access_denied")
        #expect(try await client.authState?.accessToken == first.accessToken)
    }

    @Test func theUserCancellingEndsTheLoginAndKeepsTheSession() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try client(provider, redirectURI: Self.customScheme)
        let first = try await client.login(using: browser(for: client).agent)
        let held = LockedValue<[URL]>([])
        let login = Task { try await client.login(using: AppLinkBrowser { url in held.withLock { $0.append(url) } }.agent) }
        let late = try await eventually { held.withLock { $0.first } }
        #expect(client.cancelExternalUserAgentFlow())
        let error = await #expect(throws: OIDCError.self) { try await login.value }
        #expect(error?.code == .cancelled)
        // The redirect arriving after the cancel answers nothing any more.
        let stale = #expect(throws: OIDCError.self) { try client.resumeExternalUserAgentFlow(with: late) }
        #expect(stale?.code == .noPendingRequest)
        #expect(!client.cancelExternalUserAgentFlow())
        #expect(try await client.authState?.accessToken == first.accessToken)
    }

    @Test func endSessionResumesWithItsOwnRedirect() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try client(provider, redirectURI: Self.customScheme)
        try await client.login(using: browser(for: client).agent)
        let seen = LockedValue<[URL]>([])
        try await client.endSession(using: browser(for: client, seen: seen).agent)
        #expect(seen.withLock { $0.first }?.path == "/oauth/logged-out")
        #expect(try await client.authState == nil)
    }

    @Test func aLoopbackRedirectURIIsNotADeepLink() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try client(provider, redirectURI: URL(string: "http://127.0.0.1:0/callback")!)
        let error = await #expect(throws: OIDCError.self) { try await client.login(using: browser(for: client).agent) }
        #expect(error?.code == .invalidConfiguration)
    }
}

/// Waits until `probe` gives a value.
/// (A ceiling for a CI machine running every suite at once on 2 cores, not a timing claim.)
func eventually<T>(timeout: Duration = .seconds(45), _ probe: () -> T?) async throws -> T {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if let found = probe() { return found }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw OIDCError(.timedOut, "nothing came")
}
