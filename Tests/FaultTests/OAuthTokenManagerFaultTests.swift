import Foundation
import HaapiDriver
import HaapiSDK
import HaapiTesting
import OAuthCore
import Testing

/// An OAuthTokenManager for DPoP-bound tokens, already logged in: the code exchange stored the
/// tokens with the key the refresh token `rt-1` is bound to.
struct OAuthStack {
    static let tokenLifetime = 300

    let server: FaultServer
    let storage: InMemoryStorage
    let dpop: Dpop
    let manager: OAuthTokenManager
    /// The stored key of the first login, which no fault may lose.
    let storedKey: JWK

    static func with(_ body: (OAuthStack) async throws -> Void) async throws {
        let endpoints: [String: FaultEndpoint] = ["/token": .tokenEndpoint(lifetime: tokenLifetime), "/revoke": .revocationEndpoint]
        try await withFaultServer(endpoints) { server in
            let configuration = Self.configuration(of: server)
            let storage = InMemoryStorage()
            let dpop = try Dpop()
            let manager = OAuthTokenManager(
                oauthTokenConfiguration: configuration, transport: try shortTimeoutTransport(), storage: storage)
            let login = await manager.fetchAccessToken(with: "code-1", dpop: dpop)
            try #require(login.failure == nil, "the login before the fault failed: \(String(describing: login.failure))")
            let storedKey = try #require(Self.keptKey(in: storage))
            try await body(OAuthStack(server: server, storage: storage, dpop: dpop, manager: manager, storedKey: storedKey))
        }
    }

    /// A confidential client's configuration for `server`'s endpoints.
    static func configuration(of server: FaultServer, timeout: TimeInterval = exchangeTimeout) -> HaapiConfiguration {
        HaapiConfiguration(
            name: "fault-\(UUID().uuidString)", clientId: "app", baseURL: server.url("/"), tokenEndpointURL: server.url("/token"),
            authorizationEndpointURL: server.url("/authorize"), appRedirect: "app:/callback", revocationEndpointURL: server.url("/revoke"),
            clientAuthenticationMethod: ClientAuthenticationMethodSecret("secret"), timeout: timeout)
    }

    /// The stored key now (nil when it is gone).
    var currentKey: JWK? { Self.keptKey(in: storage) }

    /// The DPoP key kept with the tokens: the storage holds one record, the tokens and their key.
    static func keptKey(in storage: InMemoryStorage) -> JWK? {
        guard storage.keys.count == 1, let data = try? storage.read(key: storage.keys[0]) else { return nil }
        return (try? AuthState(storedData: data))?.dpopKey
    }
    var tokenRequests: Int { server.requests(to: "/token").count }
}

/// The operations of OAuthTokenManager a fault can hit.
enum OAuthOperation: String, Sendable, CaseIterable {
    case codeExchange, refresh, revoke

    func run(_ stack: OAuthStack) async -> (any Error)? {
        switch self {
        case .codeExchange: return await stack.manager.fetchAccessToken(with: "code-2", dpop: stack.dpop).failure
        case .refresh: return await stack.manager.refreshAccessToken(with: "rt-1").failure
        case .revoke: return await stack.manager.revokeRefreshToken(with: "rt-1").failure
        }
    }

    var path: String { self == .revoke ? "/revoke" : "/token" }
}

/// A fault of one operation and the error it must end in.
struct OAuthFaultRow: Sendable, CustomTestStringConvertible {
    let operation: OAuthOperation
    let expected: ExpectedFailure
    var testDescription: String { "\(operation.rawValue): \(expected.testDescription)" }
}

/// The token endpoint's answers to the code exchange and the refresh (both token requests
/// with a DPoP proof): OAuth errors stay `OAuthErrorResponse`; other answers are
/// `HaapiError.communication` with the `UnexpectedResponseError` as cause, as for the revocation
/// and the HAAPI token requests (one rule for the SDK).
private let tokenRequestFaults: [ExpectedFailure] =
    networkFaults + [
        serverErrorFault,
        serverBusyFault,
        .init(.tooManyRequests, "invalid_url_response/unexpected_response", .retryable(condition: .now)),
        .init(.bodyNotJSON, "invalid_url_response/unexpected_response", .unrecoverable(action: .introspectCause)),
        .init(.wrongContentType, "invalid_url_response/unexpected_response", .unrecoverable(action: .introspectCause)),
        .init(.htmlErrorPage, "invalid_url_response/unexpected_response", .retryable(condition: .now)),
        .init(.endlessDPoPNonce, "dpop_proof_failure", .retryable(condition: .whenAppInForeground)),
        .init(.invalidGrant, "invalid_grant", .newHaapiFlow),
    ]

/// The revocation endpoint's (no DPoP, no grant: nonces and invalid_grant do not apply; a 200
/// with any body is a success, see ``FaultMatrix/OAuthTokenManagerFaults/revocationIgnoresTheBodyOfA200(_:)``).
private let revocationFaults: [ExpectedFailure] =
    networkFaults + [
        serverErrorFault,
        serverBusyFault,
        .init(.tooManyRequests, "invalid_url_response/unexpected_response", .retryable(condition: .now)),
        .init(.htmlErrorPage, "invalid_url_response/unexpected_response", .retryable(condition: .now)),
    ]

let oauthFaults: [OAuthFaultRow] =
    tokenRequestFaults.map { OAuthFaultRow(operation: .codeExchange, expected: $0) }
    + tokenRequestFaults.map { OAuthFaultRow(operation: .refresh, expected: $0) }
    + revocationFaults.map { OAuthFaultRow(operation: .revoke, expected: $0) }

extension FaultMatrix {
    @Suite struct OAuthTokenManagerFaults {
        @Test(arguments: oauthFaults)
        func faultEndsInItsErrorAndKeepsTheStoredKey(_ row: OAuthFaultRow) async throws {
            try await OAuthStack.with { stack in
                let before = stack.server.requests(to: row.operation.path).count
                await stack.server.inject(row.expected.fault, at: row.operation.path)
                let started = ContinuousClock.now
                expect(await row.operation.run(stack), toBe: row.expected)
                // A ceiling that catches a hang or a retry loop (each costs the 500 ms exchange timeout or more), loose
                // enough for a CI machine running every suite at once on 2 cores: not a speed claim.
                #expect(ContinuousClock.now - started < .seconds(20))
                // The key the stored refresh token is bound to is still the old one: never lost, never half-written.
                // A refused refresh token (invalid_grant) ends the kept session: nothing is left it could refresh.
                if row.operation == .refresh && row.expected.fault == .invalidGrant {
                    #expect(stack.currentKey == nil)
                } else {
                    #expect(stack.currentKey == stack.storedKey)
                }
                let sent = stack.server.requests(to: row.operation.path).count - before
                switch row.expected.fault {
                case .connectionRefused: #expect(sent == 0)
                case .endlessDPoPNonce: #expect(sent == 2)  // one retry with the new nonce, then the typed error
                default: #expect(sent == 1)
                }
            }
        }

        /// Without a transport of the app's, the manager's own honours the configuration's
        /// timeout (it once took the 30 s default whatever was configured).
        @Test func theDefaultTransportKeepsTheConfiguredTimeout() async throws {
            try await withFaultServer(["/token": .tokenEndpoint(lifetime: OAuthStack.tokenLifetime)]) { server in
                await server.inject(.noResponse, at: "/token")
                let manager = OAuthTokenManager(
                    oauthTokenConfiguration: OAuthStack.configuration(of: server, timeout: 2), storage: InMemoryStorage())
                let started = ContinuousClock.now
                #expect(await manager.fetchAccessToken(with: "code-1").failure != nil)
                // The configured 2 s (whole seconds: FoundationNetworking times a shorter one out at
                // once); a ceiling far below the 30 s default, not a speed claim.
                let waited = ContinuousClock.now - started
                #expect(waited >= .seconds(2) && waited < .seconds(10))
            }
        }

        @Test(arguments: [ServerFault.bodyNotJSON, .wrongContentType])
        func revocationIgnoresTheBodyOfA200(_ fault: ServerFault) async throws {
            try await OAuthStack.with { stack in
                await stack.server.inject(fault, at: "/revoke")
                // RFC 7009 §2.2: the status is the answer; the key of the revoked token goes with it.
                #expect(await OAuthOperation.revoke.run(stack) == nil)
                #expect(stack.currentKey == nil)
            }
        }

        @Test func refreshAfterAFaultStillUsesTheStoredKey() async throws {
            try await OAuthStack.with { stack in
                await stack.server.inject(.connectionResetMidBody, at: "/token", times: 1)
                #expect(await OAuthOperation.refresh.run(stack) != nil)
                guard case .successfulToken(let tokens) = await stack.manager.refreshAccessToken(with: "rt-1") else {
                    Issue.record("the refresh after the fault failed")
                    return
                }
                #expect(tokens.refreshToken == "rt-3")
                // Its proof is signed by the key of the first login.
                let proof = try #require(stack.server.requests(to: "/token").last?.headers["DPoP"].first)
                let header = try JSONValue(parsing: try #require(Base64URL.decode(String(proof.split(separator: ".")[0]))))
                #expect(header["jwk"]?["x"]?.stringValue == stack.dpop.publicJWK.x)
            }
        }

        @Test(arguments: [OAuthOperation.codeExchange, .refresh])
        func aServerClockFiveMinutesBehindDoesNotShortenTheTokensLife(_ operation: OAuthOperation) async throws {
            try await OAuthStack.with { stack in
                await stack.server.inject(.clockFiveMinutesOff, at: "/token")
                let before = stack.tokenRequests
                let asked = Date()
                let response =
                    operation == .codeExchange
                    ? await stack.manager.fetchAccessToken(with: "code-2", dpop: stack.dpop)
                    : await stack.manager.refreshAccessToken(with: "rt-1")
                let answered = Date()
                guard case .successfulToken(let tokens) = response else {
                    Issue.record("\(operation) failed with a skewed server: \(String(describing: response.failure))")
                    return
                }
                // The server's exp (by its clock) is already now by ours; expires_in counted from receipt is not.
                let lifetime = TimeInterval(OAuthStack.tokenLifetime)
                let expiresAt = try #require(tokens.expiresAt)
                #expect(expiresAt >= asked.addingTimeInterval(lifetime) && expiresAt <= answered.addingTimeInterval(lifetime))
                // Our proof's iat was 5 minutes off the server's clock: one nonce retry, then tokens.
                #expect(stack.tokenRequests - before == 2)
                #expect(stack.currentKey == stack.storedKey)
            }
        }
    }
}
