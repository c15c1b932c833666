import Crypto
import Foundation
import HaapiDevServer
import OAuthCore
import Testing

@Suite("DPoP proof verification (server side)")
struct DPoPProofVerifierTests {
    let url = URL(string: "https://as.example/token?ignored=1")!
    let verifier = DPoPProofVerifier()

    /// A replay cache.
    final class Seen: @unchecked Sendable {
        let lock = NSLock()
        var ids: Set<String> = []
        func check(_ jkt: String, _ jti: String, _ until: Date) -> Bool { lock.withLock { ids.insert(jkt + jti).inserted } }
    }

    func verify(
        _ proof: String, method: String = "POST", accessToken: String? = nil, nonce: String? = nil, bound: String? = nil,
        seen: Seen = Seen(), now: Date = Date()
    ) async throws -> DPoPProofVerifier.Proof {
        try await verifier.verify(
            proof, method: method, url: url, accessToken: accessToken, expectedNonce: nonce, boundThumbprint: bound, now: now,
            isNewJTI: { seen.check($0, $1, $2) })
    }

    func expectRefused(_ reason: String, nonce: Bool = false, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("accepted: \(reason)")
        } catch let failure as DPoPProofVerifier.Failure {
            #expect(failure.needsNonce == nonce, "\(reason): \(failure.reason)")
            #expect(failure.error == (nonce ? "use_dpop_nonce" : "invalid_dpop_proof"))
        } catch {
            Issue.record("untyped error for \(reason): \(error)")
        }
    }

    @Test func acceptsAGoodProofAndRefusesItsReplay() async throws {
        let dpop = try Dpop()
        let seen = Seen()
        let proof = try dpop.proof(method: "POST", url: url, accessToken: "at", nonce: "n")
        let checked = try await verify(proof, accessToken: "at", nonce: "n", bound: dpop.thumbprint, seen: seen)
        #expect(checked.thumbprint == dpop.thumbprint)
        await expectRefused("replay") { _ = try await verify(proof, accessToken: "at", nonce: "n", seen: seen) }
    }

    @Test func refusesEachBrokenRule() async throws {
        let dpop = try Dpop()
        await expectRefused("wrong method") { _ = try await verify(try dpop.proof(method: "GET", url: url)) }
        await expectRefused("wrong htu") {
            _ = try await verify(try dpop.proof(method: "POST", url: URL(string: "https://as.example/other")!))
        }
        await expectRefused("wrong host") {
            _ = try await verify(try dpop.proof(method: "POST", url: URL(string: "https://evil.example/token")!))
        }
        await expectRefused("old iat") {
            _ = try await verify(try dpop.proof(method: "POST", url: url, issuedAt: Date().addingTimeInterval(-300)))
        }
        await expectRefused("future iat") {
            _ = try await verify(try dpop.proof(method: "POST", url: url, issuedAt: Date().addingTimeInterval(300)))
        }
        await expectRefused("missing ath") { _ = try await verify(try dpop.proof(method: "POST", url: url), accessToken: "at") }
        await expectRefused("wrong ath") {
            _ = try await verify(try dpop.proof(method: "POST", url: url, accessToken: "other"), accessToken: "at")
        }
        await expectRefused("another key than the token's") {
            _ = try await verify(try dpop.proof(method: "POST", url: url), bound: try Dpop().thumbprint)
        }
        await expectRefused("missing nonce", nonce: true) {
            _ = try await verify(try dpop.proof(method: "POST", url: url, nonce: .omitted), nonce: "n")
        }
        await expectRefused("stale nonce", nonce: true) {
            _ = try await verify(try dpop.proof(method: "POST", url: url, nonce: "old"), nonce: "n")
        }
        await expectRefused("not a JWS") { _ = try await verify("not.a.proof") }
        // A proof whose signature is not the embedded key's.
        let parts = try dpop.proof(method: "POST", url: url).split(separator: ".")
        let other = try Dpop().proof(method: "POST", url: url).split(separator: ".")
        await expectRefused("forged signature") { _ = try await verify("\(parts[0]).\(parts[1]).\(other[2])") }
        // A JWT of another type signed by the right key.
        let wrongType = try CompactJWS.sign(
            payload: Data(#"{"jti":"x","htm":"POST","htu":"https://as.example/token","iat":\#(Int(Date().timeIntervalSince1970))}"#.utf8),
            header: JOSEHeader(algorithm: .es256, typ: "JWT", jwk: dpop.publicJWK), key: dpop.signingKey)
        await expectRefused("typ JWT") { _ = try await verify(wrongType) }
        // A header jwk that includes the private key.
        let leaking = try CompactJWS.sign(
            payload: Data(#"{"jti":"y","htm":"POST","htu":"https://as.example/token","iat":\#(Int(Date().timeIntervalSince1970))}"#.utf8),
            header: JOSEHeader(algorithm: .es256, typ: "dpop+jwt", jwk: dpop.signingKey.privateJWK), key: dpop.signingKey)
        await expectRefused("private jwk") { _ = try await verify(leaking) }
    }
}
