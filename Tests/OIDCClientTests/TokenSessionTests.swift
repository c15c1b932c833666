import Foundation
import HaapiServerTesting
import HaapiTesting
import NIOConcurrencyHelpers
import OAuthCore
import OAuthTransportNIO
import OIDCClient
import Testing

/// The token session on its own: one refresh for many callers, the end of a session, storage
/// that fails, sessions stored by earlier versions, and revocation. (Callers in other processes:
/// `TokenSessionAcrossProcessesTests` and the Glewlwyd tests.)
@Suite("TokenSession")
struct TokenSessionTests {
    static let key = "oidc-auth-state"

    /// A provider with a user logged in through `storage`; the client whose session that is.
    static func loggedIn(_ provider: TestOpenIDProvider, storage: any Storage) async throws -> (client: OIDCClient, state: AuthState) {
        let client = try provider.client(storage: storage)
        let state = try await client.login(
            using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        return (client, state)
    }

    static func temporaryStorage() throws -> FileStorage {
        try FileStorage(directory: FileManager.default.temporaryDirectory.appendingPathComponent("haapi-session-\(UUID().uuidString)"))
    }

    /// Holds the session's lock, as another process refreshing would, while `callers` callers
    /// start and reach it; then lets them all go at once.
    ///
    /// `joined` is a call of the test's own on the client, made once every caller has started:
    /// the client's and the session's actors run it after each caller's first step, so when it
    /// returns every caller has joined the refresh under way, however loaded the machine is.
    static func gated<T: Sendable>(
        _ storage: FileStorage, callers: Int, joined: @escaping @Sendable () async throws -> Void,
        _ call: @escaping @Sendable () async throws -> T
    ) async throws -> [Result<T, any Error>] {
        let started = NIOLockedValueBox(0)
        return try await withThrowingTaskGroup(of: Result<T, any Error>.self) { group in
            try await storage.lock(for: key).withLock(timeout: 10, whileWaiting: nil) {
                for _ in 0..<callers {
                    group.addTask {
                        started.withLockedValue { $0 += 1 }
                        do { return .success(try await call()) } catch { return .failure(error) }
                    }
                }
                while started.withLockedValue({ $0 }) < callers { try await Task.sleep(for: .milliseconds(10)) }
                try await joined()
            }
            var results: [Result<T, any Error>] = []
            for try await result in group { results.append(result) }
            return results
        }
    }

    @Test func aThousandCallersAskingForMoreThanATokenLivesMakeOneRefresh() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let storage = try Self.temporaryStorage()
        let (client, before) = try await Self.loggedIn(provider, storage: storage)
        // The provider's tokens live 300 s; every caller wants 100 000.
        let results = try await Self.gated(storage, callers: 1000, joined: { _ = try await client.authState }) {
            try await client.validAccessToken(minimumLifetime: 100_000).value
        }
        let tokens = Set(try results.map { try $0.get() })
        #expect(tokens.count == 1, "every caller gets the one refresh's token")
        #expect(tokens.first != before.accessToken)
        #expect(provider.tokenRequests("refresh_token") == 1)
        let stored = try AuthState(storedData: try #require(try storage.read(key: Self.key)))
        #expect(stored.accessToken == tokens.first && stored.refreshToken != before.refreshToken)
        // A later call is a new call: it refreshes again, with the rotated refresh token.
        _ = try await client.validAccessToken(minimumLifetime: 100_000)
        #expect(provider.tokenRequests("refresh_token") == 2)
    }

    @Test func aRefusedRefreshEndsTheSessionOnceAndEveryWaiterIsToldToLogIn() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let storage = try Self.temporaryStorage()
        let (client, _) = try await Self.loggedIn(provider, storage: storage)
        provider.change { $0.refreshError = "invalid_grant" }
        let results = try await Self.gated(storage, callers: 100, joined: { _ = try await client.authState }) {
            try await client.validAccessToken(minimumLifetime: 100_000)
        }
        for result in results {
            guard case .failure(let error) = result, let error = error as? OIDCError else {
                Issue.record("expected loginRequired, got \(result)")
                continue
            }
            #expect(error.code == .loginRequired)
            #expect(error.recoverySuggestion == .newHaapiFlow)
        }
        #expect(provider.tokenRequests("refresh_token") == 1, "the session ended once; the waiters found it ended")
        #expect(try storage.read(key: Self.key) == nil)
        // The caller that refreshed is told why the session ended: the server's refusal, not "no session".
        let refused = results.compactMap { result -> OIDCError? in
            guard case .failure(let error as OIDCError) = result, error.serverError == "invalid_grant" else { return nil }
            return error
        }
        #expect(!refused.isEmpty && refused.allSatisfy { !($0.cause is TokenSession.NoSessionError) })
        // And stays ended: no request for a session that is gone, which is now "no one is logged in".
        await #expect(throws: OIDCError.self) { try await client.validAccessToken(minimumLifetime: 0) }
        do { _ = try await client.validAccessToken(minimumLifetime: 0) } catch let error as OIDCError {
            #expect(error.code == .loginRequired && error.cause is TokenSession.NoSessionError)
        }
        #expect(provider.tokenRequests("refresh_token") == 1)
    }

    /// A storage that refuses writes while `failing` is set, as a full disk or a locked keychain does.
    final class FlakyStorage: Storage {
        let base = InMemoryStorage()
        let failing = NIOLockedValueBox(false)
        func read(key: String) throws -> Data? { try base.read(key: key) }
        func write(key: String, data: Data) throws {
            if failing.withLockedValue({ $0 }) { throw StorageError(.writeFailed, "the disk is full") }
            try base.write(key: key, data: data)
        }
        func delete(key: String) throws { try base.delete(key: key) }
    }

    @Test func aStorageThatFailsMidWriteLosesNothing() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let storage = FlakyStorage()
        let (client, before) = try await Self.loggedIn(provider, storage: storage)
        let storedBefore = try #require(try storage.read(key: Self.key))

        // The provider rotates the refresh token; the storage refuses the new tokens.
        storage.failing.withLockedValue { $0 = true }
        let renewed = try await client.validAccessToken(minimumLifetime: 100_000)
        #expect(renewed.value != before.accessToken)
        #expect(try storage.read(key: Self.key) == storedBefore, "the stored session is the old one, whole")
        // Still refused: the new tokens are used from memory, with no new refresh.
        #expect(try await client.validAccessToken(minimumLifetime: 30) == renewed)
        #expect(try await client.authState?.accessToken == renewed.value)
        #expect(provider.tokenRequests("refresh_token") == 1)

        // The storage works again: the next call writes them, and their refresh token works.
        storage.failing.withLockedValue { $0 = false }
        #expect(try await client.validAccessToken(minimumLifetime: 30) == renewed)
        let stored = try AuthState(storedData: try #require(try storage.read(key: Self.key)))
        #expect(stored.accessToken == renewed.value && stored.refreshToken != before.refreshToken)
        let again = try await client.refresh()
        #expect(again.accessToken != renewed.value)
        #expect(provider.tokenRequests("refresh_token") == 2)

        // A login whose session cannot be stored fails and leaves the session before it.
        storage.failing.withLockedValue { $0 = true }
        let kept = try #require(try storage.read(key: Self.key))
        await #expect(throws: StorageError.self) {
            try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        }
        #expect(try storage.read(key: Self.key) == kept)
    }

    /// Finding 8 of the third security review: `validAccessToken(minimumLifetime:)` trapped on a
    /// huge, infinite or NaN lifetime (`Int(minimumLifetime)`).
    @Test func aMinimumLifetimeThatIsNoNumberIsRefusedAndAHugeOneRefreshes() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let storage = try Self.temporaryStorage()
        let (client, before) = try await Self.loggedIn(provider, storage: storage)
        for lifetime in [TimeInterval.nan, .infinity, -TimeInterval.infinity] {
            await #expect(throws: OutsideNumberError.self) { try await client.validAccessToken(minimumLifetime: lifetime) }
        }
        #expect(provider.tokenRequests("refresh_token") == 0)
        for lifetime in [1e300, TimeInterval(Int.max), TimeInterval(OutsideNumber.longestSeconds) * 2] {
            #expect(try await client.validAccessToken(minimumLifetime: lifetime).value != before.accessToken)
        }
        #expect(provider.tokenRequests("refresh_token") == 3)
    }

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Bundle.module.bundleURL.appendingPathComponent("Fixtures").appendingPathComponent(name))
    }

    /// `haapi login`'s tokens.json and OIDCClient's stored state, as the version before
    /// TokenSession wrote them (dates as ISO 8601 text, and as seconds since 2001).
    @Test func sessionsStoredByEarlierVersionsRead() async throws {
        let cli = try AuthState(storedData: try Self.fixture("cli-profile-tokens.json"))
        let oidc = try AuthState(storedData: try Self.fixture("oidcclient-auth-state.json"))
        #expect(cli == oidc)
        #expect(cli.subject == "demo" && cli.clientID == "haapi-attested" && cli.issuer == "http://127.0.0.1:38315")
        #expect(cli.accessTokenExpiresAt == ISO8601DateFormatter().date(from: "2026-11-22T23:13:27Z"))
        #expect(cli.isDPoPBound && cli.refreshToken == "7j7fDHvbYAHUAkqf9lPOQvVT2wkmQlo2ZFuhcwVDbyQ")
        #expect(cli.dpopKey?.d == "xR-0UntK7PPOamGCTRkw2ZPJ5Xshsg-41Bia7oBcbS8")
        #expect(try Dpop(privateJWK: try #require(cli.dpopKey)).thumbprint == "rgjbh6h82WLaRvmyBTsrZkaRVEoA6fawhdWW0VAQcBI")

        // A session over the old file reads it, and writes it back in today's form, losing nothing.
        let storage = try Self.temporaryStorage()
        try storage.write(key: "tokens.json", data: try Self.fixture("cli-profile-tokens.json"))
        let session = TokenSession(
            clientID: "haapi-attested",
            provider: OpenIDProvider(issuer: URL(string: cli.issuer)!, transport: try AsyncHTTPClientTransport()),
            storage: storage, storageKey: "tokens.json")
        #expect(try await session.authState == cli)
        try await session.setAuthState(cli)
        let written = try #require(try storage.read(key: "tokens.json"))
        #expect(String(decoding: written, as: UTF8.self).contains(#""version" : 2"#))
        #expect(try AuthState(storedData: written) == cli)
    }

    @Test func aSessionThatCannotBeReadIsATypedErrorAndIsLeftAsItIs() async throws {
        let storage = try Self.temporaryStorage()
        let session = TokenSession(
            clientID: "c", provider: OpenIDProvider(issuer: URL(string: "http://127.0.0.1:9")!, transport: try AsyncHTTPClientTransport()),
            storage: storage, storageKey: Self.key)
        var newer = try JSONSerialization.jsonObject(with: try Self.fixture("cli-profile-tokens.json")) as! [String: Any]
        newer["version"] = 99
        let cases: [(data: Data, says: String)] = [
            (try JSONSerialization.data(withJSONObject: newer), "stored by a newer version (format 99"),
            (Data("{\"accessToken\": 7".utf8), ""), (Data([0xFF, 0x00]), ""),
        ]
        for (data, says) in cases {
            try storage.write(key: Self.key, data: data)
            do {
                _ = try await session.validAccessToken(minimumLifetime: 0)
                Issue.record("read an unreadable session")
            } catch let error as StorageError {
                #expect(error.code == .invalidFormat)
                #expect(error.recoverySuggestion == .newHaapiFlow)
                #expect(error.underlying.map { says.isEmpty || $0.contains(says) } == true, "\(error)")
            }
            #expect(try storage.read(key: Self.key) == data, "nothing is deleted or rewritten")
        }
    }

    @Test func aRefreshedIDTokenAboutAnotherUserEndsTheSession() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let storage = InMemoryStorage()
        let (client, _) = try await Self.loggedIn(provider, storage: storage)
        provider.change { $0.idTokenClaims = { $0["sub"] = "intruder" } }
        await #expect(throws: OIDCError.self) { try await client.refresh() }
        do { try await client.refresh() } catch let error as OIDCError { #expect(error.code == .loginRequired) }
        #expect(try await client.authState == nil)
        #expect(storage.keys.isEmpty)
    }

    @Test func bindingNeedsAKeyTheSessionCanKeep() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let storage = InMemoryStorage()
        let session = TokenSession(
            clientID: TestOpenIDProvider.clientID,
            provider: OpenIDProvider(issuer: URL(string: provider.issuer)!, transport: try AsyncHTTPClientTransport()),
            storage: storage)
        let bound = try TokenSuccessResponse(members: ["access_token": "at", "token_type": "DPoP", "expires_in": 60])
        do {
            try await session.start(with: bound, dpop: nil)
            Issue.record("kept DPoP-bound tokens without their key")
        } catch let error as OIDCError {
            #expect(error.code == .invalidConfiguration)
        }
        #expect(storage.keys.isEmpty)
        // With its key: kept together, the key usable after a restart.
        let dpop = try Dpop()
        let state = try await session.start(with: bound, dpop: dpop)
        #expect(state.issuer == provider.issuer && state.dpopKey == dpop.signingKey.privateJWK)
        #expect(try await session.dpopHolder()?.thumbprint == dpop.thumbprint)
        // Another client's state is refused.
        var foreign = state
        foreign.clientID = "someone-else"
        await #expect(throws: OIDCError.self) { try await session.setAuthState(foreign) }
    }

    @Test func revokingTheAccessTokenOnlyRefreshesNextAndRevokingEverythingLogsOut() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let storage = InMemoryStorage()
        let (client, before) = try await Self.loggedIn(provider, storage: storage)
        #expect(try await client.session.revoke(.accessToken) == [.accessToken])
        #expect(provider.revoked == [before.accessToken])
        let next = try await client.validAccessToken(minimumLifetime: 0)
        #expect(next.value != before.accessToken && provider.tokenRequests("refresh_token") == 1)

        let rotated = try #require(try await client.authState?.refreshToken)
        #expect(try await client.session.revoke(.refreshToken) == [.refreshToken])
        #expect(try await client.authState?.refreshToken == nil)
        #expect(try await client.validAccessToken(minimumLifetime: 0) == next, "the access token stays until it expires")

        #expect(try await client.session.revoke(.all) == [.accessToken])
        #expect(try await client.authState == nil)
        #expect(provider.revoked == [before.accessToken, rotated, next.value])
    }

    /// A caller presenting a refresh token after another caller's refresh rotated it (too late
    /// to join that refresh) gets that refresh's answer: the spent token is not sent again. After
    /// a revocation nothing is remembered, and the spent token goes to the provider, which refuses it.
    @Test func aLatePresenterOfARotatedRefreshTokenGetsItsAnswerWithoutSpendingItAgain() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let (client, before) = try await Self.loggedIn(provider, storage: InMemoryStorage())
        let spent = try #require(before.refreshToken)

        let first = try await client.session.refresh(presenting: spent, dpop: nil)
        #expect(first.refreshToken != nil && first.refreshToken != spent)
        let late = try await client.session.refresh(presenting: spent, dpop: nil)
        #expect(late.accessToken == first.accessToken && late.refreshToken == first.refreshToken)
        #expect(provider.tokenRequests("refresh_token") == 1)

        try await client.session.revoke(.accessToken)
        await #expect(throws: OIDCError.self) { try await client.session.refresh(presenting: spent, dpop: nil) }
        #expect(provider.tokenRequests("refresh_token") == 2)
    }

    /// The CLI is a shell over the session: `haapi userinfo` on a profile whose provider
    /// answers UserInfo about someone else refuses it, as the library does.
    @Test(.ownThreads) func haapiUserinfoRefusesAResponseAboutAnotherUser() async throws {
        let provider = try await TestOpenIDProvider.start { $0.userInfoSubject = "someone-else" }
        defer { Task { await provider.stop() } }
        let home = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let profile = try FileStorage(directory: home.appendingPathComponent("home/profiles/default"))
        let configuration = OIDCConfiguration(
            issuer: URL(string: provider.issuer)!, clientAuthentication: .none(clientID: TestOpenIDProvider.clientID),
            redirectURI: URL(string: "http://127.0.0.1:0/callback")!, scopes: ["openid", "profile"])
        let client = OIDCClient(
            configuration: configuration, transport: try AsyncHTTPClientTransport(), storage: profile, storageKey: "tokens.json")
        try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        let settings: [String: String] = [
            "issuer": provider.issuer, "clientID": TestOpenIDProvider.clientID, "redirectUri": "http://127.0.0.1:0/callback",
            "scope": "openid profile",
            "login": "browser",
        ]
        try profile.write(key: "config.json", data: try JSONSerialization.data(withJSONObject: settings))

        let refused = try HaapiCommand.run(["userinfo"], home: home)
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("\"someone-else\", not the logged-in user"), "\(refused.stderr)")

        provider.change { $0.userInfoSubject = nil }
        let accepted = try HaapiCommand.run(["userinfo"], home: home)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.contains(#""sub" : "user-1""#))
    }
}
