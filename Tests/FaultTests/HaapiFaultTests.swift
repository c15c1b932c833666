import Foundation
import HaapiDriver
import HaapiSDK
import HaapiTesting
import OAuthCore
import Testing

/// HaapiManager over the driver's transport and a real HaapiTokenManager: the token endpoint
/// and the HAAPI API on two servers, so either can misbehave alone.
struct HaapiStack {
    static let loginStep = #"""
        {"type":"authentication-step","actions":[{"template":"form","kind":"login","model":{"href":"/authn/login","method":"POST","fields":[{"name":"userName","type":"username"}]}}]}
        """#
    static let tokenLifetime = 300
    static let minTokenTtl: TimeInterval = 120

    let tokenServer: FaultServer
    let apiServer: FaultServer
    let clock: TestClock
    let tokens: HaapiTokenManager
    let manager: HaapiManager
    let transport: HaapiClient

    /// Runs `body` with a fresh stack; both servers are stopped afterwards.
    static func with(_ body: (HaapiStack) async throws -> Void) async throws {
        try await withFaultServer(["/token": .tokenEndpoint(lifetime: tokenLifetime)]) { tokenServer in
            let api = FaultEndpoint.document(loginStep, mediaType: "application/vnd.auth+json", nonceChallenge: .resourceServer)
            try await withFaultServer(["/authorize": api]) { apiServer in
                let clock = TestClock()
                let network = try shortTimeoutTransport()
                let tokens = try HaapiTokenManager(
                    name: "fault-\(UUID().uuidString)", clientID: "haapi-client", tokenEndpointURL: tokenServer.url("/token"),
                    strategy: .clientCredentials, clientAuthenticationMethod: ClientAuthenticationMethodSecret("secret"),
                    dpop: try Dpop(), transport: network, minTokenTtl: minTokenTtl, now: { clock.now() })
                let transport = HaapiClient(tokenManager: tokens, base: network)
                let configuration = HaapiConfiguration(
                    name: "fault", clientId: "haapi-client", baseURL: apiServer.url("/"), tokenEndpointURL: tokenServer.url("/token"),
                    authorizationEndpointURL: apiServer.url("/authorize"), appRedirect: "app:/callback", timeout: exchangeTimeout)
                let manager = HaapiManager(haapiConfiguration: configuration, transport: transport)
                try await body(
                    HaapiStack(
                        tokenServer: tokenServer, apiServer: apiServer, clock: clock, tokens: tokens, manager: manager, transport: transport
                    ))
                tokens.close()
            }
        }
    }

    var tokenRequests: Int { tokenServer.requests(to: "/token").count }
    var apiRequests: Int { apiServer.requests(to: "/authorize").count }
}

/// What HaapiManager.start() ends in when the HAAPI API misbehaves (the token endpoint is healthy).
let haapiAPIFaults: [ExpectedFailure] =
    networkFaults + [
        serverErrorFault,
        serverBusyFault,
        .init(.tooManyRequests, "invalid_url_response/unexpected_response", .retryable(condition: .now)),
        .init(.bodyNotJSON, "haapi_not_json", .unrecoverable(action: .introspectCause)),
        .init(.wrongContentType, "invalid_url_response/unexpected_response", .unrecoverable(action: .introspectCause)),
        .init(.htmlErrorPage, "invalid_url_response/unexpected_response", .retryable(condition: .now)),
        .init(.endlessDPoPNonce, "dpop_proof_failure", .retryable(condition: .whenAppInForeground)),
        // A HAAPI token refused again right after its renewal: the server's configuration is wrong.
        .init(.expiredAccessToken, "invalid_token", .unrecoverable(action: .introspectCause)),
    ]

/// What HaapiManager.start() ends in when the token endpoint misbehaves while the cached HAAPI
/// token is being renewed (``ServerFault/expiredAccessToken`` and ``ServerFault/invalidGrant``
/// do not apply to a client-credentials token endpoint).
let haapiTokenEndpointFaults: [ExpectedFailure] =
    networkFaults + [
        serverErrorFault,
        serverBusyFault,
        .init(.tooManyRequests, "invalid_url_response/unexpected_response", .retryable(condition: .now)),
        .init(.bodyNotJSON, "invalid_url_response/unexpected_response", .unrecoverable(action: .introspectCause)),
        .init(.wrongContentType, "invalid_url_response/unexpected_response", .unrecoverable(action: .introspectCause)),
        .init(.htmlErrorPage, "invalid_url_response/unexpected_response", .retryable(condition: .now)),
        .init(.endlessDPoPNonce, "dpop_proof_failure", .retryable(condition: .whenAppInForeground)),
    ]

extension FaultMatrix {
    @Suite struct HaapiManagerFaults {
        @Test(arguments: haapiAPIFaults)
        func haapiAPIFaultEndsInItsError(_ expected: ExpectedFailure) async throws {
            try await HaapiStack.with { stack in
                await stack.apiServer.inject(expected.fault, at: "/authorize")
                let started = ContinuousClock.now
                let result = await stack.manager.start()
                expect(result.error, toBe: expected)
                // A ceiling that catches a hang or a retry loop (each costs the 500 ms exchange timeout or more), loose
                // enough for a CI machine running every suite at once on 2 cores: not a speed claim.
                #expect(ContinuousClock.now - started < .seconds(20))
                // A failing API never costs the HAAPI token.
                #expect(await stack.tokens.cachedAccessToken != nil)
                switch expected.fault {
                case .endlessDPoPNonce:
                    // One retry with the new nonce, then the typed error.
                    #expect(stack.apiRequests == 2)
                    #expect(stack.tokenRequests == 1)
                case .expiredAccessToken:
                    // One new token, one retry, then the typed error: no loop.
                    #expect(stack.apiRequests == 2)
                    #expect(stack.tokenRequests == 2)
                case .connectionRefused:
                    return
                default:
                    #expect(stack.apiRequests == 1)
                }
                // The manager is still usable once the server is healthy again.
                await stack.apiServer.inject(nil, at: "/authorize")
                #expect(await stack.manager.start().representation is InteractiveFormStep)
            }
        }

        @Test func anExpiredHaapiTokenIsRenewedOnceAndTheRequestRetriedOnce() async throws {
            try await HaapiStack.with { stack in
                #expect(await stack.manager.start().representation != nil)
                let first = try #require(await stack.tokens.cachedAccessToken)
                await stack.apiServer.inject(.expiredAccessToken, at: "/authorize", times: 1)

                #expect(await stack.manager.start().representation is InteractiveFormStep)
                #expect(stack.tokenRequests == 2)
                #expect(stack.apiRequests == 3)
                let renewed = try #require(await stack.tokens.cachedAccessToken)
                #expect(renewed != first)
                // The refused token went with the old request: its Authorization was the first token.
                let authorizations = stack.apiServer.requests(to: "/authorize").map { $0.headers["Authorization"].first ?? "" }
                #expect(authorizations == ["DPoP \(first.value)", "DPoP \(first.value)", "DPoP \(renewed.value)"])
            }
        }

        @Test func aLateRefusalOfTheOldTokenKeepsTheNewOne() async throws {
            try await HaapiStack.with { stack in
                let old = try await stack.tokens.accessToken()
                stack.tokens.invalidateAccessToken(old)
                let new = try await stack.tokens.accessToken()
                // A second request refused with the old token at the same time reports it late.
                stack.tokens.invalidateAccessToken(old)
                #expect(stack.tokens.cachedAccessToken == new)
                #expect(try await stack.tokens.accessToken() == new)
                #expect(stack.tokenRequests == 2)
            }
        }

        @Test func aServerClockFiveMinutesBehindNeitherExpiresTokensNorBreaksProofs() async throws {
            try await HaapiStack.with { stack in
                await stack.tokenServer.inject(.clockFiveMinutesOff, at: "/token")
                await stack.apiServer.inject(.clockFiveMinutesOff, at: "/authorize")

                #expect(await stack.manager.start().representation is InteractiveFormStep)
                // Expiry counts from our receipt of expires_in, not from the server's iat/exp or Date.
                let token = try #require(await stack.tokens.cachedAccessToken)
                #expect(token.expiresAt == stack.clock.now().addingTimeInterval(TimeInterval(HaapiStack.tokenLifetime)))
                // Proofs 5 minutes off the server's clock are accepted after one nonce retry each.
                #expect(stack.tokenRequests == 2)
                #expect(stack.apiRequests == 2)

                // The token is reused, and the learned nonce spares the next request a retry.
                #expect(await stack.manager.start().representation is InteractiveFormStep)
                #expect(stack.tokenRequests == 2)
                #expect(stack.apiRequests == 3)
            }
        }
    }

    @Suite struct HaapiTokenManagerFaults {
        @Test(arguments: haapiTokenEndpointFaults)
        func tokenEndpointFaultDuringRenewalEndsInItsErrorAndKeepsTheOldToken(_ expected: ExpectedFailure) async throws {
            try await HaapiStack.with { stack in
                #expect(await stack.manager.start().representation != nil)
                let old = try #require(await stack.tokens.cachedAccessToken)
                // Under minTokenTtl left: the next request renews the token first.
                stack.clock.advance(by: TimeInterval(HaapiStack.tokenLifetime) - HaapiStack.minTokenTtl + 20)
                await stack.tokenServer.inject(expected.fault, at: "/token")

                let result = await stack.manager.start()
                expect(result.error, toBe: expected)
                #expect(await stack.tokens.cachedAccessToken == old)
                #expect(stack.apiRequests == 1)
                if expected.fault == .endlessDPoPNonce {
                    #expect(stack.tokenRequests == 1 + 2)
                }
                if expected.fault == .connectionRefused { return }

                // Once the token endpoint is healthy, the renewal replaces the old token with a complete new one.
                await stack.tokenServer.inject(nil, at: "/token")
                #expect(await stack.manager.start().representation is InteractiveFormStep)
                let renewed = try #require(await stack.tokens.cachedAccessToken)
                #expect(renewed != old)
                #expect(renewed.expiresAt == stack.clock.now().addingTimeInterval(TimeInterval(HaapiStack.tokenLifetime)))
            }
        }
    }
}
