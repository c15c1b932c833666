import Foundation

/// An OpenID Provider as a client sees it: its metadata, discovered once (or given), and its
/// signing keys, reached through one transport.
///
/// One instance serves an `OIDCClient` (of the `OIDCClient` module) and its ``TokenSession``, so a process discovers a
/// provider once. Concurrent first uses share one discovery request.
public actor OpenIDProvider {
    /// The issuer metadata is discovered at, or `nil` for metadata given up front.
    public nonisolated let issuer: URL?
    /// The transport every request to the provider goes through.
    public nonisolated let transport: any HTTPTransport

    private let adjustment: (@Sendable (inout ProviderMetadata) -> Void)?
    private var metadata: ProviderMetadata?
    private var discovery: Task<ProviderMetadata, any Error>?
    private var keySet: ProviderKeySet?

    /// A provider found by discovery at `{issuer}/.well-known/openid-configuration` on first use.
    /// - Parameters:
    ///   - issuer: the issuer identifier, which discovery also checks the metadata's `issuer` against.
    ///   - transport: the transport every request to the provider goes through.
    ///   - adjusting: changes applied to the discovered metadata (an endpoint the app
    ///     configures itself, such as a HAAPI client's token endpoint).
    public init(issuer: URL, transport: any HTTPTransport, adjusting: (@Sendable (inout ProviderMetadata) -> Void)? = nil) {
        self.issuer = issuer
        self.transport = transport
        self.adjustment = adjusting
    }

    /// A provider described by metadata the app already has; nothing is discovered.
    public init(metadata: ProviderMetadata, transport: any HTTPTransport) {
        self.issuer = nil
        self.transport = transport
        self.adjustment = nil
        self.metadata = metadata
    }

    /// The provider's metadata, discovered on first use and then kept.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.discoveryFailed`](doc:ErrorCode/discoveryFailed), [`OIDCError.Code.invalidMetadata`](doc:ErrorCode/invalidMetadata),
    ///   [`OIDCError.Code.issuerMismatch`](doc:ErrorCode/issuerMismatch-8n2gd), or [`OIDCError.Code.cancelled`](doc:ErrorCode/cancelled-9t6tf) when the task is cancelled.
    public func metadata() async throws -> ProviderMetadata {
        if let metadata { return metadata }
        guard let issuer else { preconditionFailure("a provider made from metadata always has it") }
        if let discovery { return try await discovery.value }
        let transport = self.transport
        let adjustment = self.adjustment
        let task = Task { () throws -> ProviderMetadata in
            var discovered = try await ProviderMetadata.discover(issuer: issuer, transport: transport)
            adjustment?(&discovered)
            return discovered
        }
        discovery = task
        defer { discovery = nil }
        let discovered = try await task.value
        metadata = discovered
        return discovered
    }

    /// Uses `metadata` from now on (metadata kept from an earlier run, or edited by hand).
    /// - Throws: ``OIDCError`` [`OIDCError.Code.issuerMismatch`](doc:ErrorCode/issuerMismatch-8n2gd) when this provider was made for
    ///   another issuer.
    public func use(_ metadata: ProviderMetadata) throws {
        if let issuer, metadata.issuer != issuer.absoluteString {
            throw OIDCError(.issuerMismatch, "the metadata is for \"\(metadata.issuer)\", not \"\(issuer.absoluteString)\"")
        }
        if metadata.jwksURI != self.metadata?.jwksURI { keySet = nil }
        self.metadata = metadata
    }

    /// The provider's signing keys (`jwks_uri`), kept and fetched again when a token names a new key.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.invalidMetadata`](doc:ErrorCode/invalidMetadata) when the provider publishes no
    ///   `jwks_uri`; the errors of ``metadata()``.
    public func keys() async throws -> ProviderKeySet {
        let metadata = try await metadata()
        if let keySet, keySet.uri == metadata.jwksURI { return keySet }
        guard let uri = metadata.jwksURI else {
            throw OIDCError(.invalidMetadata, "the provider publishes no jwks_uri, so its ID tokens cannot be verified")
        }
        let keys = ProviderKeySet(uri: uri, transport: transport)
        keySet = keys
        return keys
    }
}
