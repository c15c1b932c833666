import Foundation
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import OIDCClient
import Testing

/// One misbehaviour of the provider and what the client must make of it.
struct Misbehaviour: Sendable, CustomTestStringConvertible {
    let name: String
    let configure: @Sendable (inout TestOpenIDProvider.Behaviour) -> Void
    /// The error code expected, or `nil` when the login must succeed.
    let expected: OIDCError.Code?
    var testDescription: String { name }
}

private func claims(_ change: @escaping @Sendable (inout [String: JSONValue]) -> Void)
    -> @Sendable (inout TestOpenIDProvider.Behaviour) -> Void
{
    { $0.idTokenClaims = change }
}

/// The OpenID Connect RP conformance cases (rp-id_token-*, rp-userinfo-*, rp-discovery-*, RFC 9207),
/// each against a provider that misbehaves in exactly that way.
@Suite("OIDCClient against a misbehaving provider")
struct ConformanceTests {
    static let idTokenCases: [Misbehaviour] = [
        Misbehaviour(name: "ID token: wrong iss", configure: claims { $0["iss"] = "https://other.example" }, expected: .invalidIDToken),
        Misbehaviour(name: "ID token: missing sub", configure: claims { _ = $0.removeValue(forKey: "sub") }, expected: .invalidIDToken),
        Misbehaviour(name: "ID token: wrong aud", configure: claims { $0["aud"] = "another-client" }, expected: .invalidIDToken),
        Misbehaviour(name: "ID token: missing iat", configure: claims { _ = $0.removeValue(forKey: "iat") }, expected: .invalidIDToken),
        Misbehaviour(
            name: "ID token: iat an hour in the future",
            configure: claims { $0["iat"] = .integer(Int(Date().timeIntervalSince1970) + 3600) }, expected: .invalidIDToken),
        Misbehaviour(
            name: "ID token: expired",
            configure: claims { $0["exp"] = .integer(Int(Date().timeIntervalSince1970) - 3600) }, expected: .invalidIDToken),
        Misbehaviour(
            name: "ID token: several audiences without azp",
            configure: claims { $0["aud"] = [.string(TestOpenIDProvider.clientID), "api"] }, expected: .invalidIDToken),
        Misbehaviour(
            name: "ID token: several audiences with azp naming this client",
            configure: claims {
                $0["aud"] = [.string(TestOpenIDProvider.clientID), "api"]
                $0["azp"] = .string(TestOpenIDProvider.clientID)
            }, expected: nil),
        Misbehaviour(
            name: "ID token: azp naming another client", configure: claims { $0["azp"] = "another-client" }, expected: .invalidIDToken),
        Misbehaviour(name: "ID token: nonce mismatch", configure: claims { $0["nonce"] = "not-the-nonce" }, expected: .nonceMismatch),
        Misbehaviour(name: "ID token: nonce missing", configure: claims { _ = $0.removeValue(forKey: "nonce") }, expected: .nonceMismatch),
        Misbehaviour(
            name: "ID token: at_hash mismatch", configure: claims { $0["at_hash"] = "AAAAAAAAAAAAAAAAAAAAAA" }, expected: .atHashMismatch),
        Misbehaviour(
            name: "ID token: no at_hash (optional in the code flow)", configure: claims { _ = $0.removeValue(forKey: "at_hash") },
            expected: nil),
        Misbehaviour(
            name: "bad signature, RS256",
            configure: {
                $0.signing = .rs256
                $0.corruptSignature = true
            }, expected: .invalidIDToken),
        Misbehaviour(name: "bad signature, ES256", configure: { $0.corruptSignature = true }, expected: .invalidIDToken),
        Misbehaviour(name: "RS256 signature (good)", configure: { $0.signing = .rs256 }, expected: nil),
        Misbehaviour(name: "alg none", configure: { $0.signing = .none }, expected: .invalidIDToken),
        Misbehaviour(
            name: "HS256 with the provider's public key as secret", configure: { $0.signing = .hs256WithPublicKey },
            expected: .invalidIDToken),
        Misbehaviour(
            name: "kid absent, one key in the JWKS (accept)",
            configure: {
                $0.includeKid = false
                $0.jwks = { _ in [TestOpenIDProvider.es1Public] }
            }, expected: nil),
        Misbehaviour(
            name: "kid absent, several keys in the JWKS, one of them signed (accept by trying each)",
            configure: {
                $0.includeKid = false
                $0.signing = .es256Rotated
                $0.jwks = { _ in [TestOpenIDProvider.es1Public, TestOpenIDProvider.es2Public, TestOpenIDProvider.rsPublic] }
            }, expected: nil),
        Misbehaviour(
            name: "kid absent, several keys in the JWKS, none of them signed",
            configure: {
                $0.includeKid = false
                $0.signing = .unpublishedKey
                $0.jwks = { _ in [TestOpenIDProvider.es1Public, TestOpenIDProvider.es2Public] }
            }, expected: .invalidIDToken),
        Misbehaviour(
            name: "kid unknown even after refetching the JWKS",
            configure: { $0.signing = .unpublishedKey }, expected: .invalidIDToken),
        Misbehaviour(
            name: "authorization response: wrong iss", configure: { $0.authorizationIssuer = .wrong },
            expected: .authorizationIssuerMismatch),
        Misbehaviour(
            name: "authorization response: iss missing though the metadata promises it",
            configure: {
                $0.issParameterSupported = true
                $0.authorizationIssuer = .missing
            }, expected: .missingAuthorizationIssuer),
        Misbehaviour(
            name: "authorization response: iss missing, not promised (accept)",
            configure: { $0.authorizationIssuer = .missing }, expected: nil),
        Misbehaviour(
            name: "authorization response: state mismatch", configure: { $0.authorizationState = "forged" }, expected: .stateMismatch),
        Misbehaviour(
            name: "authorization response: error=access_denied", configure: { $0.authorizationError = "access_denied" },
            expected: .authorizationError),
        Misbehaviour(
            name: "discovery: issuer mismatch", configure: { $0.discoveryIssuer = "https://other.example" }, expected: .issuerMismatch),
        Misbehaviour(
            name: "userinfo: sub mismatch", configure: { $0.userInfoSubject = "someone-else" }, expected: .userInfoSubjectMismatch),
    ]

    @Test(arguments: idTokenCases)
    func misbehaviour(_ misbehaviour: Misbehaviour) async throws {
        let provider = try await TestOpenIDProvider.start(misbehaviour.configure)
        defer { Task { await provider.stop() } }
        let storage = InMemoryStorage()
        let client = try provider.client(storage: storage)
        do {
            try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
            _ = try await client.userInfo()
            #expect(misbehaviour.expected == nil, "accepted, but \(misbehaviour.expected?.rawValue ?? "") was expected")
            #expect(try await client.authState?.subject == TestOpenIDProvider.subject)
        } catch let error as OIDCError {
            #expect(error.code == misbehaviour.expected, "\(error)")
            if error.code != .userInfoSubjectMismatch {
                // A login that failed leaves nothing behind.
                #expect(storage.keys.isEmpty)
            }
        }
    }

    @Test func signingKeyRotationIsAcceptedAfterOneRefetch() async throws {
        let provider = try await TestOpenIDProvider.start {
            $0.signing = .es256Rotated
            // The first fetch still has the old set; the provider has rotated by the second.
            $0.jwks = { fetch in fetch == 1 ? [TestOpenIDProvider.es1Public] : [TestOpenIDProvider.es1Public, TestOpenIDProvider.es2Public]
            }
        }
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        let state = try await client.login(
            using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        #expect(state.subject == TestOpenIDProvider.subject)
        #expect(provider.jwksFetches == 2)
    }

    @Test func authorizationErrorCarriesTheProvidersCode() async throws {
        let provider = try await TestOpenIDProvider.start { $0.authorizationError = "login_required" }
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        let error = await #expect(throws: OIDCError.self) {
            try await client.login(
                using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory),
                options: AuthorizationOptions(prompt: "none"))
        }
        #expect(error?.serverError == "login_required")
        #expect(error?.recoverySuggestion == .newHaapiFlow)
    }

    @Test func aUserWhoNeverComesBackTimesOut() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client { $0.userAgentTimeout = 0.5 }
        let error = await #expect(throws: OIDCError.self) {
            try await client.login(using: LoopbackUserAgent(launcher: AbandonedBrowser(), listen: LoopbackRedirectListener.factory))
        }
        #expect(error?.code == .timedOut)
        #expect(error?.recoverySuggestion == .newHaapiFlow)
    }

    @Test func cancellingTheLoginTaskGivesCancelled() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client { $0.userAgentTimeout = 60 }
        let login = Task {
            try await client.login(using: LoopbackUserAgent(launcher: AbandonedBrowser(), listen: LoopbackRedirectListener.factory))
        }
        try await Task.sleep(for: .milliseconds(300))
        login.cancel()
        let error = await #expect(throws: OIDCError.self) { try await login.value }
        #expect(error?.code == .cancelled)
    }

    @Test(arguments: [("auth_time older than max_age", -3600), ("no auth_time though max_age was sent", nil)] as [(String, Int?)])
    func maxAgeNeedsARecentAuthTime(_ case: String, _ offset: Int?) async throws {
        let provider = try await TestOpenIDProvider.start {
            $0.idTokenClaims = { claims in
                claims["auth_time"] = offset.map { .integer(Int(Date().timeIntervalSince1970) + $0) }
            }
        }
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        let error = await #expect(throws: OIDCError.self, "\(`case`)") {
            try await client.login(
                using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory),
                options: AuthorizationOptions(maxAge: 60))
        }
        #expect(error?.code == .invalidIDToken)
        #expect(provider.authorizeRequests.first?["max_age"] == "60")
    }
}
