import Foundation
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import OIDCClient
import Testing

/// An OIDCClient with a DPoP-bound session set up front (the login needs a browser), against
/// the test OpenID Provider with its resources (JWKS, UserInfo) on a host of their own, so the
/// keys or UserInfo can be refused while the token endpoint still answers.
struct OIDCStack {
    static let storageKey = "oidc-auth-state"

    let provider: TestOpenIDProvider
    let storage: InMemoryStorage
    let client: OIDCClient
    /// The session as stored before the fault: what a failed refresh must leave, byte for byte.
    let storedSession: Data

    /// Runs `body` with a fresh stack, its provider's metadata already discovered unless `discovered` is false.
    static func with(
        clockSkew: TimeInterval = 120, discovered: Bool = true, _ body: (OIDCStack) async throws -> Void
    ) async throws {
        let behaviour: (inout TestOpenIDProvider.Behaviour) -> Void = {
            // ID tokens living 2 minutes: a server 5 minutes behind (clockFiveMinutesOff) issues
            // them already expired by more than the client's default clock skew of 2 minutes.
            $0.idTokenLifetime = 120
            $0.issParameterSupported = true
        }
        try await withTestOpenIDProvider(separateResourceServer: true, behaviour) { provider in
            let storage = InMemoryStorage()
            let client = try provider.client(storage: storage, storageKey: storageKey, transport: try shortTimeoutTransport()) {
                $0.clockSkew = clockSkew
                $0.userAgentTimeout = 10
                $0.useDPoP = true
            }
            try await client.setAuthState(provider.presetSession(dpopKey: try Dpop().signingKey.privateJWK))
            if discovered { try await client.discover() }
            let stored = try #require(try storage.read(key: storageKey))
            try await body(OIDCStack(provider: provider, storage: storage, client: client, storedSession: stored))
        }
    }

    /// The session now, as stored.
    var session: Data? { try? storage.read(key: Self.storageKey) }

    /// Records an issue unless the stored session is `expected`.
    func expectSession(_ expected: SessionAfterFault, sourceLocation: SourceLocation = #_sourceLocation) {
        switch expected {
        case .unchanged:
            #expect(session == storedSession, "the session before the fault is gone or changed", sourceLocation: sourceLocation)
        case .removed:
            #expect(session == nil, "the session was kept", sourceLocation: sourceLocation)
        case .renewedKeepingIDToken:
            // The refresh token the refresh spent is never the only one kept.
            guard let session, let new = try? AuthState(storedData: session), let old = try? AuthState(storedData: storedSession) else {
                Issue.record("no readable session after the refresh", sourceLocation: sourceLocation)
                return
            }
            #expect(new.accessToken != old.accessToken && new.refreshToken != old.refreshToken, sourceLocation: sourceLocation)
            #expect(new.idToken == old.idToken && new.subject == old.subject && new.dpopKey == old.dpopKey, sourceLocation: sourceLocation)
        case .renewed, .loggedInAgain:
            // Complete: every token new, the same user; a refresh keeps the DPoP key, a login makes a new one.
            guard let session, let new = try? JSONDecoder().decode(AuthState.self, from: session),
                let old = try? JSONDecoder().decode(AuthState.self, from: storedSession)
            else {
                Issue.record("no readable session after the refresh", sourceLocation: sourceLocation)
                return
            }
            #expect(new.accessToken != old.accessToken && new.refreshToken?.hasPrefix("rt-") == true, sourceLocation: sourceLocation)
            #expect(new.refreshToken != old.refreshToken && new.idToken != nil, sourceLocation: sourceLocation)
            #expect(new.subject == old.subject && new.dpopKey != nil, sourceLocation: sourceLocation)
            #expect((new.dpopKey == old.dpopKey) == (expected == .renewed), sourceLocation: sourceLocation)
        }
    }

    /// The requests received at the operation's endpoint, answered or not.
    func requests(to operation: OIDCOperation) -> Int { provider.requests(to: operation.path).count }
    /// The requests received at the token endpoint, answered or not.
    var tokenRequests: Int { provider.requests(to: "/token").count }
}

/// What the stored session must be after a fault.
enum SessionAfterFault: Sendable {
    /// The session before the fault, byte for byte.
    case unchanged
    /// A complete new session from a refresh (which succeeded before the fault).
    case renewed
    /// New access and refresh tokens from a refresh whose new ID token was not kept: the
    /// previous ID token stays.
    case renewedKeepingIDToken
    /// A complete new session from a new login, with a new DPoP key.
    case loggedInAgain
    /// None: the session ended (`invalid_grant`) or the user logged out.
    case removed
}

/// The OIDCClient operations a fault can hit, each named by the endpoint the fault is injected at.
enum OIDCOperation: String, Sendable, CaseIterable {
    /// `discover()` on a client that has not discovered yet.
    case discovery
    /// `refresh()`, whose new ID token needs the provider's keys (fetched on first use).
    case keySetFetch
    /// `refresh()` at the token endpoint.
    case refresh
    /// `login(using:)` through a headless browser: the fault meets the code exchange.
    case codeExchange
    /// `userInfo()`, through AuthorizedHTTPClient.
    case userInfo
    /// `userInfo()` answered 401 once: AuthorizedHTTPClient's refresh meets the fault at the token endpoint.
    case refreshAfter401
    /// `revoke()`.
    case revocation

    var path: String {
        switch self {
        case .discovery: return "/.well-known/openid-configuration"
        case .keySetFetch: return "/jwks"
        case .refresh, .codeExchange, .refreshAfter401: return "/token"
        case .userInfo: return "/userinfo"
        case .revocation: return "/revoke"
        }
    }

    /// Runs the operation; its error, if any.
    func run(_ stack: OIDCStack) async -> (any Error)? {
        do {
            switch self {
            case .discovery: try await stack.client.discover()
            case .keySetFetch, .refresh: try await stack.client.refresh()
            case .codeExchange:
                try await stack.client.login(
                    using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
            case .userInfo, .refreshAfter401: _ = try await stack.client.userInfo()
            case .revocation: try await stack.client.revoke()
            }
            return nil
        } catch {
            return error
        }
    }
}

/// A fault of one operation, the error it must end in, and the session it must leave.
struct OIDCFaultRow: Sendable, CustomTestStringConvertible {
    let operation: OIDCOperation
    let expected: ExpectedFailure
    let session: SessionAfterFault
    var testDescription: String { "\(operation.rawValue): \(expected.testDescription)" }
}

/// Faults below HTTP: the transport's own error, which refresh, UserInfo and revocation let through.
private let transportFaults: [ExpectedFailure] = [
    .init(.connectionRefused, "connection_failed", .retryable(condition: .now), as: HTTPTransportError.self),
    .init(.connectionResetMidBody, "connection_closed", .retryable(condition: .now), as: HTTPTransportError.self),
    .init(.noResponse, "timed_out", .retryable(condition: .now), as: HTTPTransportError.self),
]

/// A failing or busy server's answers (500, 503 with `Retry-After`, 429, a proxy's HTML page)
/// as the OIDCError `code`, retryable as the status says.
private func failingServerFaults(_ code: String) -> [ExpectedFailure] {
    [
        .init(.internalServerError, code, .retryable(condition: .now), as: OIDCError.self),
        .init(.serviceUnavailableWithRetryAfter, code, .retryable(condition: .now), retryAfter: busyDelay, as: OIDCError.self),
        .init(.tooManyRequests, code, .retryable(condition: .now), as: OIDCError.self),
        .init(.htmlErrorPage, code, .retryable(condition: .now), as: OIDCError.self),
    ]
}

/// A 200 whose body is not JSON, as the OIDCError `code`: only fixing the server helps.
private func unreadableBodyFault(_ code: String) -> ExpectedFailure {
    .init(.bodyNotJSON, code, .unrecoverable(action: .introspectCause), as: OIDCError.self)
}

/// A nonce challenge after the one retry: two requests, then the typed error (and no refresh,
/// since the challenge is about the proof, not the token).
private let endlessNonceFault = ExpectedFailure(
    .endlessDPoPNonce, "dpop_nonce_retry_exhausted", .retryable(condition: .now), as: DPoPError.self)

/// A provider document (discovery, JWKS) that does not arrive: `code`, retryable as the cause
/// says; one that arrives unreadable: `invalid_metadata`. (A JSON document labelled
/// `text/plain` is read: see ``FaultMatrix/OIDCClientFaults/jsonLabelledTextPlainIsStillRead(_:)``.)
private func documentFaults(_ code: String) -> [ExpectedFailure] {
    transportFaults.map { ExpectedFailure($0.fault, code, $0.recovery, as: OIDCError.self) } + failingServerFaults(code)
        + [unreadableBodyFault("invalid_metadata")]
}

/// The token endpoint's answers to a refresh or a code exchange (with a DPoP proof); a token
/// response must also be labelled JSON.
private let tokenRequestFaults: [ExpectedFailure] =
    transportFaults + failingServerFaults("token_request_failed") + [
        unreadableBodyFault("token_request_failed"),
        .init(.wrongContentType, "token_request_failed", .unrecoverable(action: .introspectCause), as: OIDCError.self),
        endlessNonceFault,
    ]

/// A refresh refused with `invalid_grant` ends the session.
private let refreshFaults =
    tokenRequestFaults.map { OIDCFaultRow(operation: .refresh, expected: $0, session: .unchanged) } + [
        OIDCFaultRow(
            operation: .refresh, expected: .init(.invalidGrant, "login_required", .newHaapiFlow, as: OIDCError.self), session: .removed)
    ]

private let userInfoFaults: [ExpectedFailure] =
    transportFaults + failingServerFaults("userinfo_failed") + [unreadableBodyFault("userinfo_failed"), endlessNonceFault]

/// The revocation endpoint's (no DPoP, no grant; a 200 with any body is a success): the
/// session is removed first, whatever the provider answers, since the user asked to log out.
private let revocationFaults: [ExpectedFailure] =
    transportFaults + [
        serverErrorFault,
        .init(
            .serviceUnavailableWithRetryAfter, "server_busy", .retryable(condition: .now), retryAfter: busyDelay,
            as: UnexpectedResponseError.self),
        .init(.tooManyRequests, "unexpected_response", .retryable(condition: .now), as: UnexpectedResponseError.self),
        .init(.htmlErrorPage, "unexpected_response", .retryable(condition: .now), as: UnexpectedResponseError.self),
    ]

let oidcFaults: [OIDCFaultRow] =
    documentFaults("discovery_failed").map { OIDCFaultRow(operation: .discovery, expected: $0, session: .unchanged) }
    + refreshFaults
    // Refusing the provider would also refuse its authorization endpoint: the browser, not the exchange, would fail.
    + tokenRequestFaults.filter { $0.fault != .connectionRefused }.map {
        OIDCFaultRow(operation: .codeExchange, expected: $0, session: .unchanged)
    }
    // An expired code: a new login. The session before it stays.
    + [
        OIDCFaultRow(
            operation: .codeExchange, expected: .init(.invalidGrant, "token_request_failed", .newHaapiFlow, as: OIDCError.self),
            session: .unchanged)
    ]
    + userInfoFaults.map { OIDCFaultRow(operation: .userInfo, expected: $0, session: .unchanged) }
    // Every 401, even right after the refresh it caused: the server refuses the tokens it just issued.
    + [
        OIDCFaultRow(
            operation: .userInfo,
            expected: .init(.expiredAccessToken, "userinfo_failed", .unrecoverable(action: .introspectCause), as: OIDCError.self),
            session: .renewed)
    ]
    + refreshFaults.map { OIDCFaultRow(operation: .refreshAfter401, expected: $0.expected, session: $0.session) }
    + revocationFaults.map { OIDCFaultRow(operation: .revocation, expected: $0, session: .removed) }

extension FaultMatrix {
    @Suite struct OIDCClientFaults {
        @Test(arguments: oidcFaults)
        func faultEndsInItsErrorAndLeavesAWholeSession(_ row: OIDCFaultRow) async throws {
            try await OIDCStack.with(discovered: row.operation != .discovery) { stack in
                let before = stack.requests(to: row.operation)
                let tokenRequestsBefore = stack.tokenRequests
                if row.operation == .refreshAfter401 { await stack.provider.inject(.expiredAccessToken, at: "/userinfo", times: 1) }
                await stack.provider.inject(row.expected.fault, at: row.operation.path)
                let started = ContinuousClock.now
                expect(await row.operation.run(stack), toBe: row.expected)
                // A ceiling that catches a hang or a retry loop (each costs the 500 ms exchange timeout or more), loose
                // enough for a CI machine running every suite at once on 2 cores: not a speed claim.
                #expect(ContinuousClock.now - started < .seconds(20))
                stack.expectSession(row.session)
                let sent = stack.requests(to: row.operation) - before
                switch row.expected.fault {
                case .connectionRefused: #expect(sent == 0)
                case .endlessDPoPNonce: #expect(sent == 2)  // one retry with the new nonce, then the typed error
                case .expiredAccessToken: #expect(sent == 2)  // one retry after the one refresh
                default: #expect(sent == 1)
                }
                if row.operation == .userInfo {
                    // Only a 401 about the token refreshes; a nonce challenge or a failing server does not.
                    #expect(stack.tokenRequests - tokenRequestsBefore == (row.expected.fault == .expiredAccessToken ? 1 : 0))
                }
            }
        }

        /// A refresh whose new ID token cannot be verified, because the provider's keys do not
        /// arrive (or not as a key set): the refreshed tokens are kept, since the refresh token
        /// they replace is spent, with the previous ID token; the call succeeds.
        @Test(arguments: documentFaults("key_set_unavailable").map(\.fault))
        func aRefreshWhoseIDTokenCannotBeVerifiedKeepsTheNewTokens(_ fault: ServerFault) async throws {
            try await OIDCStack.with { stack in
                await stack.provider.inject(fault, at: OIDCOperation.keySetFetch.path)
                let error = await OIDCOperation.keySetFetch.run(stack)
                #expect(error == nil, "\(String(describing: error))")
                #expect(stack.tokenRequests == 1)
                #expect(stack.requests(to: .keySetFetch) == (fault == .connectionRefused ? 0 : 1))
                stack.expectSession(.renewedKeepingIDToken)
            }
        }

        /// A provider document is judged by its body: JSON labelled `text/plain` is read.
        @Test(arguments: [OIDCOperation.discovery, .keySetFetch, .userInfo])
        func jsonLabelledTextPlainIsStillRead(_ operation: OIDCOperation) async throws {
            try await OIDCStack.with(discovered: operation != .discovery) { stack in
                await stack.provider.inject(.wrongContentType, at: operation.path)
                let error = await operation.run(stack)
                #expect(error == nil, "\(String(describing: error))")
                stack.expectSession(operation == .keySetFetch ? .renewed : .unchanged)
            }
        }

        @Test func aSingle401RefreshesOnceAndRetriesWithTheNewToken() async throws {
            try await OIDCStack.with { stack in
                await stack.provider.inject(.expiredAccessToken, at: "/userinfo", times: 1)
                let info = try await stack.client.userInfo()
                #expect(info.subject == TestOpenIDProvider.subject)
                #expect(stack.requests(to: .userInfo) == 2 && stack.tokenRequests == 1)
                stack.expectSession(.renewed)
                let retried = try #require(stack.provider.requests(to: "/userinfo").last?.headers.first(name: "Authorization"))
                let current = try #require(try await stack.client.authState)
                #expect(retried == "DPoP \(current.accessToken)")
            }
        }

        @Test func aLoginThroughTheBrowserReplacesTheSession() async throws {
            try await OIDCStack.with { stack in
                let session = try await stack.client.login(
                    using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
                #expect(session.subject == TestOpenIDProvider.subject && session.isDPoPBound)
                #expect(stack.provider.requests(to: "/authorize").count == 1 && stack.tokenRequests == 1)
                stack.expectSession(.loggedInAgain)
            }
        }

        /// The provider's clock is 5 minutes behind: its 2-minute ID tokens expired 3 minutes ago
        /// by ours. With the default 2-minute skew they are refused; with a skew of 6 minutes accepted.
        /// Either way the DPoP proof, 5 minutes off the server's clock, costs one nonce retry.
        @Test(arguments: [OIDCOperation.refresh, .codeExchange], [120.0, 360.0])
        func idTokensOfAServerFiveMinutesBehindAreJudgedWithTheClockSkew(_ operation: OIDCOperation, skew: TimeInterval) async throws {
            try await OIDCStack.with(clockSkew: skew) { stack in
                await stack.provider.inject(.clockFiveMinutesOff, at: "/token")
                let error = await operation.run(stack)
                #expect(stack.tokenRequests == 2)
                // The ID token expired 3 minutes ago by our clock.
                if skew < 180 {
                    expect(
                        error,
                        toBe: ExpectedFailure(
                            .clockFiveMinutesOff, "invalid_id_token", .unrecoverable(action: .introspectCause), as: OIDCError.self))
                    let message = (error as? OIDCError)?.message ?? ""
                    #expect(message.contains("claims are not valid"), "\(message)")
                    // A refresh keeps the tokens it got, not their ID token; a login keeps nothing.
                    stack.expectSession(operation == .refresh ? .renewedKeepingIDToken : .unchanged)
                } else {
                    #expect(error == nil, "\(String(describing: error))")
                    stack.expectSession(operation == .codeExchange ? .loggedInAgain : .renewed)
                }
            }
        }

        @Test func userInfoFromAServerFiveMinutesBehindCostsOneNonceRetry() async throws {
            try await OIDCStack.with { stack in
                await stack.provider.inject(.clockFiveMinutesOff, at: "/userinfo")
                let info = try await stack.client.userInfo()
                #expect(info.subject == TestOpenIDProvider.subject)
                #expect(stack.requests(to: .userInfo) == 2 && stack.tokenRequests == 0)
                stack.expectSession(.unchanged)
            }
        }
    }
}
