import Foundation

/// Sends token requests to one token endpoint, with one client authentication method and,
/// optionally, DPoP proofs.
public struct TokenEndpointClient: Sendable {
    /// The token endpoint URL.
    public let endpoint: URL
    /// How the client authenticates.
    public let clientAuthentication: ClientAuthentication
    /// The transport requests go through.
    public let transport: any HTTPTransport
    /// The key holder that signs DPoP proofs, when tokens are to be DPoP-bound.
    public let dpop: Dpop?
    /// The server's issuer identifier, when known: a client assertion's audience.
    public let issuer: String?

    /// Makes a client.
    public init(
        endpoint: URL, clientAuthentication: ClientAuthentication, transport: any HTTPTransport, dpop: Dpop? = nil, issuer: String? = nil
    ) {
        self.endpoint = endpoint
        self.issuer = issuer
        self.clientAuthentication = clientAuthentication
        self.transport = transport
        self.dpop = dpop
    }

    /// Requests tokens.
    ///
    /// With a ``dpop`` holder, the request carries a proof, nonces are learned, and a
    /// `use_dpop_nonce` error is retried once with a freshly made request.
    /// - Parameters:
    ///   - grant: the grant.
    ///   - additionalParameters: extra form parameters (`resource`, `audience`, ...).
    ///   - headers: extra header fields.
    /// - Returns: the classified response and the raw HTTP response.
    /// - Throws: ``HTTPTransportError``, ``DPoPError``, ``JOSEError`` (client assertion), or
    ///   ``TokenEndpointError`` when the response is neither tokens nor an OAuth error.
    public func requestToken(
        _ grant: TokenGrant, additionalParameters: [(String, String)] = [], headers: HeaderFields = [:]
    ) async throws -> (result: TokenEndpointResponse, response: TransportResponse) {
        let endpoint = self.endpoint
        let recipient = ClientAuthentication.Recipient(endpoint: endpoint, issuer: issuer)
        let authentication = clientAuthentication
        let makeRequest: @Sendable () throws -> TransportRequest = {
            var parameters = grant.parameters + additionalParameters
            var headers = headers
            headers["Accept"] = "application/json"
            try authentication.apply(to: &parameters, headers: &headers, recipient: recipient)
            HaapiLogger.debug(
                DriverFollowUpTag.http,
                "POST \(endpoint.redacted) \(parameters: parameters) headers \(headers: headers)")
            return .form(endpoint, parameters: parameters, headers: headers)
        }
        let response: TransportResponse
        if let dpop {
            response = try await dpop.send(using: transport, makeRequest)
        } else {
            response = try await transport.send(try makeRequest())
        }
        HaapiLogger.debug(
            DriverFollowUpTag.http, "token endpoint answered HTTP \(response.status) (\(response.mediaType ?? "no content type"))")
        return (try TokenEndpointResponse(response), response)
    }
}
