import Foundation

/// The provider's signing keys (`jwks_uri`), fetched once and fetched again when a token
/// names a key id the cached set lacks: that is how a provider's key rotation reaches a
/// client (OpenID Connect Core §10.1.1).
public actor ProviderKeySet {
    /// The `jwks_uri`.
    public let uri: URL
    private let transport: any HTTPTransport
    private var cached: JWKSet?
    private var inFlight: Task<JWKSet, any Error>?

    /// A key set read from `uri` through `transport`.
    public init(uri: URL, transport: any HTTPTransport) {
        self.uri = uri
        self.transport = transport
    }

    /// The cached keys, fetched on first use.
    public func keys() async throws -> JWKSet {
        if let cached { return cached }
        return try await refetch()
    }

    /// Fetches the set again (concurrent callers share one request).
    /// - Throws: ``OIDCError`` [`OIDCError.Code.keySetUnavailable`](doc:ErrorCode/keySetUnavailable) when the set cannot be fetched
    ///   (retryable as its cause says), [`OIDCError.Code.invalidMetadata`](doc:ErrorCode/invalidMetadata) when it cannot be read.
    public func refetch() async throws -> JWKSet {
        if let inFlight { return try await inFlight.value }
        let uri = self.uri
        let transport = self.transport
        let task = Task { () throws -> JWKSet in
            let body = try await ProviderDocument.fetch(uri, name: "the provider's keys", failure: .keySetUnavailable, transport: transport)
            do {
                return try JWKSet(json: body)
            } catch {
                throw OIDCError(.invalidMetadata, "the provider's keys \(uri.absoluteString) are not a JWK Set", cause: error)
            }
        }
        inFlight = task
        defer { inFlight = nil }
        let keys = try await task.value
        cached = keys
        return keys
    }
}
