import Foundation

/// A signer whose private key this package cannot see: a Secure Enclave key, a hardware
/// token, a remote key service.
///
/// Wrap one in a ``JWSSigningKey`` with ``JWSSigningKey/init(signer:keyID:)`` to sign JWS, DPoP
/// proofs and client assertions with it. Platform adapters (such as the Secure Enclave one
/// on Apple devices) implement this protocol and nothing else.
public protocol JWSSigner: Sendable {
    /// The algorithm the signer signs with (an asymmetric one).
    var algorithm: JWSAlgorithm { get }
    /// The public key, as a JWK.
    var publicJWK: JWK { get }
    /// Signs a JWS signing input and returns the signature in JOSE form (`r || s` for ECDSA).
    func sign(_ input: Data) throws -> Data
}
