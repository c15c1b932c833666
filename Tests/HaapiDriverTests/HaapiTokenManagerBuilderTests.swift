import Foundation
import HaapiDriver
import HaapiTesting
import OAuthCore
import Testing

/// An attestation provider that fails a given number of times, then answers as the software one.
final class FlakyAttestationProvider: AttestationProvider, @unchecked Sendable {
    private let lock = NSLock()
    private var failuresLeft: Int
    private(set) var calls = 0
    init(failures: Int) { failuresLeft = failures }
    var isSupported: Bool { true }
    func challengeResponse(for challenge: String, clientID: String) async throws -> String {
        let fails = lock.withLock { () -> Bool in
            calls += 1
            defer { failuresLeft -= 1 }
            return failuresLeft > 0
        }
        if fails { throw HaapiError.attestationFailure(cause: CancellationError()) }
        return try await InsecureSoftwareAttestationProvider().challengeResponse(for: challenge, clientID: clientID)
    }
}

@Suite("HaapiTokenManagerBuilder")
struct HaapiTokenManagerBuilderTests {
    let tokenURL = URL(string: "https://idsvr.example/token")!

    func builder(_ server: RoutedTransport<AuthorizationServerState>, name: String = UUID().uuidString) -> HaapiTokenManagerBuilder {
        HaapiTokenManagerBuilder(tokenEndpoint: tokenURL, clientId: "main-client").setName(name).setTransport(server)
    }

    @Test func clientCredentialsWhenAttestationIsDisabled() async throws {
        let server = authorizationServer()
        let manager = try builder(server)
            .setAttestationProvider(InsecureSoftwareAttestationProvider())
            .disableDeviceCheckAttestation()
            .setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret(secret: "main-secret"))
            .setTokenBoundConfiguration(config: BoundedTokenConfiguration(keyPairType: .p256))
            .build()
        defer { manager.close() }
        let info = try await manager.getHaapiTokenAsync()
        #expect(server.count(to: "/token/cat") == 0 && server.count(to: "/token") == 1)
        #expect(info.accessToken.tokenType == "DPoP" && info.accessToken.value.hasSuffix(info.dpop.jwkThumbprint))
        #expect(info.dpop === manager.dpop && info.dpopNonce == nil)
        #expect(info.authorizationHeaderValue() == "DPoP \(info.accessToken.value)")
        #expect(
            info.accessToken.isValid(atTime: Date(), minTtl: 10)
                && !info.accessToken.isValid(atTime: Date().addingTimeInterval(600), minTtl: 0))
        // Cached until forced.
        _ = try await manager.getHaapiTokenAsync()
        #expect(server.count(to: "/token") == 1)
        let fresh = try await manager.getHaapiTokenAsync(forceFresh: true, dpopNonce: "n-7")
        #expect(server.count(to: "/token") == 2 && fresh.accessToken != info.accessToken && fresh.dpopNonce == "n-7")
    }

    @Test func theBoundKeyIsOfTheConfigurationsType() async throws {
        #expect(BoundedTokenConfiguration().bindsTokens && BoundedTokenConfiguration(keyPairType: .security).keyPairType == .security)
        #expect(!UnboundedTokenConfiguration().bindsTokens && UnboundedTokenConfiguration().keyPairType == .p256)
        let server = authorizationServer()
        let manager = try builder(server).setAttestationProvider(InsecureSoftwareAttestationProvider())
            .setTokenBoundConfiguration(config: BoundedTokenConfiguration(keyPairType: .p384)).build()
        defer { manager.close() }
        #expect(manager.dpop?.keyType == .p384 && manager.dpop?.signingKey.algorithm == .es384)
        let security = try Dpop(keyType: .security)
        #expect(security.keyType == .security && security.signingKey.algorithm == .es256)
    }

    @Test func attestationIsRetriedAsConfigured() async throws {
        let server = authorizationServer()
        let flaky = FlakyAttestationProvider(failures: 2)
        let manager = try builder(server).setAttestationProvider(flaky).setAttestationMaxRetryCount(maxRetries: 2).build()
        defer { manager.close() }
        let info = try await manager.getHaapiTokenAsync()
        #expect(flaky.calls == 3 && info.accessToken.value.hasPrefix("haapi-"))

        let tooFlaky = FlakyAttestationProvider(failures: 2)
        let strict = try builder(server).setAttestationProvider(tooFlaky).setAttestationMaxRetryCount(maxRetries: 1).build()
        defer { strict.close() }
        await #expect(throws: HaapiError.self) { try await strict.getHaapiTokenAsync() }
        #expect(tooFlaky.calls == 2)
    }

    @Test func nothingToGetTokensWithIsAConfigurationError() throws {
        let server = authorizationServer()
        #expect {
            try builder(server).setAttestationProvider(UnsupportedAttestationProvider()).build()
        } throws: { error in
            guard case .invalidConfiguration(let reason)? = error as? HaapiError else { return false }
            return reason.contains("cannot attest")
        }
        #expect {
            try builder(server).setAttestationProvider(InsecureSoftwareAttestationProvider()).disableDeviceCheckAttestation().build()
        } throws: { error in
            guard case .invalidConfiguration(let reason)? = error as? HaapiError else { return false }
            return reason.contains("attestation is disabled")
        }
    }

    @Test func closeAndClearStateAreSynchronous() async throws {
        let server = authorizationServer()
        let name = UUID().uuidString
        let manager = try builder(server, name: name).setAttestationProvider(InsecureSoftwareAttestationProvider()).build()
        #expect(throws: HaapiError.self) {
            try builder(server, name: name).setAttestationProvider(InsecureSoftwareAttestationProvider()).build()
        }
        let first = try await manager.getHaapiTokenAsync()
        manager.clearState()
        let second = try await manager.getHaapiTokenAsync()
        #expect(first.accessToken != second.accessToken && server.count(to: "/token") == 2)
        manager.close()
        await #expect {
            try await manager.getHaapiTokenAsync()
        } throws: { error in
            guard case .haapiTokenManagerIsClosed? = error as? HaapiError else { return false }
            return true
        }
        // The name is free again.
        let again = try builder(server, name: name).setAttestationProvider(InsecureSoftwareAttestationProvider()).build()
        again.close()
    }

    @Test func theClientSendsTheTokenAndAProof() async throws {
        let server = authorizationServer()
        let manager = try builder(server).setAttestationProvider(InsecureSoftwareAttestationProvider()).build()
        defer { manager.close() }
        let client = manager.createClient()
        #expect(client.dpop === manager.dpop)
        let response = try await client.send(TransportRequest(url: URL(string: "https://idsvr.example/haapi/resource")!))
        #expect(response.status == 200)
        // A token the server no longer accepts is replaced once, and the request sent again.
        let old = try #require(manager.cachedAccessToken)
        server.withState { _ = $0.revoked.insert(old.value) }
        let retried = try await client.send(TransportRequest(url: URL(string: "https://idsvr.example/haapi/resource")!))
        #expect(retried.status == 200 && manager.cachedAccessToken != old)
    }
}
