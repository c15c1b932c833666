import Foundation
import OAuthCore

/// Answers the server's attestation challenge on behalf of the device (App Attest on Apple
/// devices). The answer is posted to `<token endpoint>/cat` to obtain a client attestation token.
public protocol AttestationProvider: Sendable {
    /// Whether the device can attest at all; when not, the DCR fallback is used (if configured).
    var isSupported: Bool { get }
    /// The `challenge_response` for a challenge from `GET <token endpoint>/cat`.
    func challengeResponse(for challenge: String, clientID: String) async throws -> String
}

/// A development stand-in for attestation: it signs the challenge with a fresh software key.
///
/// **It proves nothing about the app or the device**: anyone can produce the same answer.
/// Only `haapi server` (the development server) accepts it; use it to exercise the
/// attestation strategy end to end on machines without App Attest, never in production.
///
/// The answer is a compact JWS (`typ: haapi-software-attestation+jwt`, ES256, the public key in
/// `jwk`) whose payload holds `challenge`, `client_id`, `iat` and `platform: "software"`.
public struct InsecureSoftwareAttestationProvider: AttestationProvider {
    /// The JWS `typ` of the answers.
    public static let answerType = "haapi-software-attestation+jwt"

    /// Makes the provider.
    public init() {}

    /// Always `true`: a software key can be made anywhere.
    public var isSupported: Bool { true }

    /// Signs the challenge and `client_id` with a fresh P-256 key (see the type's description for the shape).
    /// - Throws: the key's or the signature's error, which a software key does not have in practice.
    public func challengeResponse(for challenge: String, clientID: String) async throws -> String {
        let key = try Dpop()
        let payload: JSONValue = [
            "challenge": .string(challenge), "client_id": .string(clientID),
            "iat": .integer(OutsideNumber.wholeSeconds(Date().timeIntervalSince1970)), "platform": "software",
        ]
        return try CompactJWS.sign(
            payload: payload.serialized(),
            header: JOSEHeader(algorithm: .es256, typ: Self.answerType, jwk: key.publicJWK), key: key.signingKey)
    }
}

/// A device that cannot attest: makes the attestation strategy fall back to DCR at once.
public struct UnsupportedAttestationProvider: AttestationProvider {
    /// Makes the provider.
    public init() {}
    /// Always `false`.
    public var isSupported: Bool { false }
    /// Always throws: there is nothing to attest with.
    /// - Throws: ``HaapiError/attestationNotSupported``.
    public func challengeResponse(for challenge: String, clientID: String) async throws -> String {
        throw HaapiError.attestationNotSupported
    }
}
