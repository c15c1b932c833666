import Foundation

/// The two RSA signature schemes of JOSE, both over SHA-256 (RFC 7518 §3.3 and §3.5).
enum RSASignaturePadding: Sendable {
    /// RSASSA-PKCS1-v1_5 (RS256).
    case pkcs1v15
    /// RSASSA-PSS with MGF1 and a salt as long as the hash (PS256).
    case pss
}

// `RSAPublicKey` and `RSAPrivateKey` are the platform's RSA: swift-crypto's `_RSA` (BoringSSL) on
// Linux and other platforms (RSAKey+CryptoExtras.swift), the Security framework on Apple
// platforms (RSAKey+Security.swift), so that an iOS app never compiles BoringSSL. Each backend
// makes keys from PKCS #1 DER only; the forms JOSE meets are turned into DER here, once.

extension RSAPublicKey {
    /// A public key from a JWK's `n` and `e`.
    init(modulus: Data, exponent: Data) throws {
        try self.init(pkcs1DER: try RSAKeyEncoding.publicKeyDER(.init(modulus: modulus, exponent: exponent)))
    }
}

extension RSAPrivateKey {
    /// A private key from a JWK's `n`, `e`, `d`, `p` and `q`.
    init(n: Data, e: Data, d: Data, p: Data, q: Data) throws {
        try self.init(pkcs1DER: try RSAKeyEncoding.privateKeyDER(n: n, e: e, d: d, p: p, q: q))
    }

    /// A private key from PEM: PKCS #1 (`RSA PRIVATE KEY`) or PKCS #8 (`PRIVATE KEY`).
    init(pem: String) throws {
        try self.init(pkcs1DER: try RSAKeyEncoding.privateKeyDER(pem: pem))
    }
}
