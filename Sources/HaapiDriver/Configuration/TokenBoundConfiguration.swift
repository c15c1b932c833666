import OAuthCore

/// Whether tokens from the flow are bound to the flow's DPoP key (the seeds' `TokenBoundConfiguration`).
public protocol TokenBoundConfiguration: Sendable {
    /// The key type of the DPoP key, or `nil` when tokens are not bound.
    var keyPairType: CryptoKeyType? { get }
}

/// Tokens are bound to the flow's DPoP key (the default), made with `keyPairType` (P-256 by default).
public struct BoundedTokenConfiguration: TokenBoundConfiguration, Hashable {
    public let keyPairType: CryptoKeyType?

    /// Binds tokens with a key of `keyPairType`.
    public init(keyPairType: CryptoKeyType = .p256) { self.keyPairType = keyPairType }
}

/// Tokens are not bound: the code exchange and refreshes send no DPoP proof.
public struct UnboundedTokenConfiguration: TokenBoundConfiguration, Hashable {
    public var keyPairType: CryptoKeyType? { nil }

    /// No binding.
    public init() {}
}

/// Seed 000's spelling of ``UnboundedTokenConfiguration``.
public typealias UnBoundedTokenConfiguration = UnboundedTokenConfiguration
