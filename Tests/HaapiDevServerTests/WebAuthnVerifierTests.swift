import Crypto
import Foundation
import OAuthCore
import Testing

@testable import HaapiDevServer

/// The server's WebAuthn checks against a passkey made by soft-webauthn (a third-party
/// software authenticator; Fixtures/soft-webauthn-passkey.json), and against every damaged form
/// of it: each is refused with a reason, none crashes.
@Suite("WebAuthn checks of the development server")
struct WebAuthnVerifierTests {
    struct Fixture {
        let verifier: WebAuthnVerifier
        let registration: String
        let registrationChallenge: Data
        let assertion: String
        let assertionChallenge: Data

        static func load() throws -> Fixture {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "Fixtures/soft-webauthn-passkey.json")
            let json = try JSONValue(parsing: Data(contentsOf: url))
            func text(_ value: JSONValue?) throws -> String { String(decoding: try #require(value).serialized(), as: UTF8.self) }
            return Fixture(
                verifier: WebAuthnVerifier(
                    relyingPartyID: try #require(json["relyingPartyID"]?.stringValue), origins: [try #require(json["origin"]?.stringValue)]),
                registration: try text(json["registration"]?["credential"]),
                registrationChallenge: try #require(json["registration"]?["challenge"]?.stringValue.flatMap(Base64URL.decode)),
                assertion: try text(json["assertion"]?["credential"]),
                assertionChallenge: try #require(json["assertion"]?["challenge"]?.stringValue.flatMap(Base64URL.decode)))
        }
    }

    @Test func theThirdPartyPasskeyRegistersAndAsserts() throws {
        let fixture = try Fixture.load()
        let registered = try fixture.verifier.register(fixture.registration, challenge: fixture.registrationChallenge)
        #expect(registered.credentialID.count == 32)
        let count = try fixture.verifier.assert(
            fixture.assertion, challenge: fixture.assertionChallenge, publicKey: registered.publicKey, storedSignCount: 0)
        #expect(count == 1)
        // The same counter again is a cloned authenticator's.
        #expect(throws: WebAuthnRefusal.self) {
            try fixture.verifier.assert(
                fixture.assertion, challenge: fixture.assertionChallenge, publicKey: registered.publicKey, storedSignCount: 1)
        }
    }

    @Test func anotherChallengeOriginOrRelyingPartyIsRefused() throws {
        let fixture = try Fixture.load()
        #expect(throws: WebAuthnRefusal.self) { try fixture.verifier.register(fixture.registration, challenge: fixture.assertionChallenge) }
        let elsewhere = WebAuthnVerifier(relyingPartyID: fixture.verifier.relyingPartyID, origins: ["https://evil.example"])
        #expect(throws: WebAuthnRefusal.self) { try elsewhere.register(fixture.registration, challenge: fixture.registrationChallenge) }
        let otherParty = WebAuthnVerifier(relyingPartyID: "evil.example", origins: fixture.verifier.origins)
        #expect(throws: WebAuthnRefusal.self) { try otherParty.register(fixture.registration, challenge: fixture.registrationChallenge) }
        let registered = try fixture.verifier.register(fixture.registration, challenge: fixture.registrationChallenge)
        let stranger = P256.Signing.PrivateKey().publicKey
        #expect(throws: WebAuthnRefusal.self) {
            try fixture.verifier.assert(fixture.assertion, challenge: fixture.assertionChallenge, publicKey: stranger, storedSignCount: 0)
        }
        #expect(throws: WebAuthnRefusal.self) {
            try fixture.verifier.assert(
                fixture.assertion, challenge: fixture.registrationChallenge, publicKey: registered.publicKey, storedSignCount: 0)
        }
    }

    /// Every prefix and every one-bit change of the attestation object: refused or (where the
    /// change is in a byte nobody checks) accepted, but never a crash.
    @Test func damagedAttestationObjectsNeverCrash() throws {
        let fixture = try Fixture.load()
        let json = try JSONValue(parsing: Data(fixture.registration.utf8))
        let attestation = [UInt8](try #require(json["response"]?["attestationObject"]?.stringValue.flatMap(Base64URL.decode)))
        func registration(_ bytes: [UInt8]) -> String {
            guard case .object(var members) = json, case .object(var response)? = members["response"] else { return "" }
            response["attestationObject"] = .string(Base64URL.encode(bytes))
            members["response"] = .object(response)
            return String(decoding: JSONValue.object(members).serialized(), as: UTF8.self)
        }
        var refused = 0
        var variants: [[UInt8]] = (0..<attestation.count).map { Array(attestation[0..<$0]) }
        for index in attestation.indices {
            for bit in 0..<8 {
                var changed = attestation
                changed[index] ^= UInt8(1 << bit)
                variants.append(changed)
            }
        }
        for variant in variants {
            do {
                _ = try fixture.verifier.register(registration(variant), challenge: fixture.registrationChallenge)
            } catch is WebAuthnRefusal {
                refused += 1
            }
        }
        // Every prefix is refused, and most bit flips.
        #expect(refused >= attestation.count + attestation.count * 8 / 2)
    }

    @Test(arguments: [
        [0x5F] as [UInt8],  // an indefinite-length byte string
        [0xC0, 0x00],  // a tag
        [0xFB, 0, 0, 0, 0, 0, 0, 0, 0],  // a float
        [0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],  // a byte string longer than anything
        [0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],  // an array longer than anything
        [0x3B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],  // a negative integer below Int64
        Array(repeating: 0x81, count: 64) + [0x00],  // arrays nested 64 deep
        [0x62, 0xFF, 0xFE],  // text that is not UTF-8
        [0xA1, 0x01],  // a map cut after its key
        [0x00, 0x00],  // bytes after the value
    ])
    func hostileCBORIsRefused(_ bytes: [UInt8]) {
        #expect(throws: WebAuthnRefusal.self) { try CBORReader.decode(Data(bytes)) }
    }
}
