#if canImport(DeviceCheck) && canImport(CryptoKit)
    import CryptoKit
    import DeviceCheck
    import Foundation
    import OAuthCore

    /// App Attest (Apple devices): a thin adapter over `DCAppAttestService`.
    ///
    /// The answer is base64url JSON `{"keyId": ..., "attestation": <base64 attestation object>}`,
    /// the attestation's client data hash being SHA-256 of the challenge.
    public struct AppAttestProvider: AttestationProvider {
        /// Makes the provider.
        public init() {}

        /// Whether App Attest runs on this device (not in the simulator, nor on a Mac without it).
        public var isSupported: Bool { DCAppAttestService.shared.isSupported }

        /// Makes a new App Attest key and attests it for the challenge: the answer is base64url JSON of the key
        /// ID and the attestation object.
        /// - Throws: ``HaapiError/attestationNotSupported``, ``HaapiError/attestationKeyGenFailure(cause:)`` or
        ///   ``HaapiError/attestationFailure(cause:)``.
        public func challengeResponse(for challenge: String, clientID: String) async throws -> String {
            let service = DCAppAttestService.shared
            guard service.isSupported else { throw HaapiError.attestationNotSupported }
            let keyID: String
            do { keyID = try await service.generateKey() } catch { throw HaapiError.attestationKeyGenFailure(cause: error) }
            let hash = Data(SHA256.hash(data: Data(challenge.utf8)))
            let attestation: Data
            do { attestation = try await service.attestKey(keyID, clientDataHash: hash) } catch {
                throw HaapiError.attestationFailure(cause: error)
            }
            let answer: JSONValue = ["keyId": .string(keyID), "attestation": .string(attestation.base64EncodedString())]
            return Base64URL.encode(answer.serialized())
        }
    }
#endif
