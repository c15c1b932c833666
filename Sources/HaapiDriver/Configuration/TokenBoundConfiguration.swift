import Foundation
import OAuthCore

/// Whether tokens from the flow are bound to the flow's DPoP key, and the type of that key
/// (Curity's `TokenBoundConfiguration`).
public protocol TokenBoundConfiguration: Sendable {
    /// The type of the flow's DPoP key: the key HAAPI requests are signed with, and the one
    /// tokens are bound to when the configuration binds them.
    var keyPairType: CryptoKeyType { get }
}

extension TokenBoundConfiguration {
    /// Whether the code exchange and refreshes bind the tokens to the flow's key: every
    /// configuration but ``UnboundedTokenConfiguration`` does.
    public var bindsTokens: Bool { !(self is UnboundedTokenConfiguration) }
}

/// Tokens are bound to the flow's DPoP key (the package's default; Curity's `BoundedTokenConfiguration`),
/// made with `keyPairType`.
public final class BoundedTokenConfiguration: NSObject, TokenBoundConfiguration {
    /// The type of the flow's DPoP key.
    public let keyPairType: CryptoKeyType

    /// Binds tokens with a key of `keyPairType` (P-256 unless told otherwise: Curity's default,
    /// the Secure Enclave, exists on Apple devices only).
    public init(keyPairType: CryptoKeyType = .p256) { self.keyPairType = keyPairType }
}

/// Tokens are not bound: the code exchange and refreshes send no DPoP proof (Curity's
/// `UnboundedTokenConfiguration`). HAAPI requests are still signed, with a P-256 key.
public final class UnboundedTokenConfiguration: NSObject, TokenBoundConfiguration {
    /// P-256: the key that signs the HAAPI requests, which are signed even when tokens are not bound.
    public let keyPairType: CryptoKeyType = .p256

    /// No binding.
    public override init() {}
}

/// Seed 000's spelling of ``UnboundedTokenConfiguration``.
public typealias UnBoundedTokenConfiguration = UnboundedTokenConfiguration
