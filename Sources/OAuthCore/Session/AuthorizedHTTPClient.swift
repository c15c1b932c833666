import Foundation

/// An ``HTTPTransport`` that calls APIs as the logged-in user (the seeds' `FetchClient`):
/// it adds the session's access token (`Bearer`, or `DPoP` with a proof), and when the API
/// refuses the token (``AccessTokenChallenge/asksForNewToken``) refreshes once and retries once.
///
/// Many concurrent requests that all get a 401 cause one refresh: each reports the token that
/// failed (``TokenSession/refresh(replacing:)``), and only a caller whose token is still the
/// session's refreshes; the others wait for that refresh or use its result.
public struct AuthorizedHTTPClient: HTTPTransport {
    /// The session whose tokens are sent.
    public let session: TokenSession
    /// The transport underneath.
    public let transport: any HTTPTransport
    /// The shortest remaining lifetime a token may have before it is refreshed up front.
    public var minimumLifetime: TimeInterval

    /// A client for `session`, sending through `transport` (by default the provider's).
    public init(session: TokenSession, transport: (any HTTPTransport)? = nil, minimumLifetime: TimeInterval = 30) {
        self.session = session
        self.transport = transport ?? session.provider.transport
        self.minimumLifetime = minimumLifetime
    }

    /// Sends `request` with the access token; a 401 answer is retried once after a refresh.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.loginRequired`](doc:ErrorCode/loginRequired) when there is no session or it
    ///   cannot be refreshed, the other errors of ``TokenSession/refresh()``; the transport's errors,
    ///   and with a DPoP-bound token ``DPoPError`` when the API asks for a new nonce again after
    ///   one retry (a nonce challenge is a 401 about the proof, never a reason to refresh).
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await AccessTokenChallenge.sendRenewingOnce(
            token: try await session.validAccessToken(minimumLifetime: minimumLifetime),
            renew: { refused in
                HaapiLogger.debug(OIDCFollowUpTag.flow, "API answered 401 to \(request.url.absoluteString); refreshing once")
                return try await session.refresh(replacing: refused)
            },
            send: { token in try await send(request, with: token) })
    }

    /// The header fields that authorize one `method` request to `url`, for a tool that sends it
    /// itself (`curl -H @-`): `Authorization`, and for a DPoP-bound token a `DPoP` proof made
    /// now for this method and URL, bound to the token (`ath`). Such a request cannot answer a
    /// 401 or a nonce challenge, which ``send(_:)`` does.
    /// - Throws: the errors of ``TokenSession/validAccessToken(minimumLifetime:)``; ``DPoPError``
    ///   or ``JOSEError`` when the proof cannot be made.
    public func authorizationHeaders(method: String, url: URL) async throws -> HeaderFields {
        let token = try await session.validAccessToken(minimumLifetime: minimumLifetime)
        var headers: HeaderFields = ["Authorization": token.authorizationHeaderValue]
        if token.isDPoPBound, let dpop = try await session.dpopHolder() {
            headers["DPoP"] = try dpop.proof(method: method.uppercased(), url: url, accessToken: token.value)
        }
        return headers
    }

    private func send(_ request: TransportRequest, with token: AccessToken) async throws -> TransportResponse {
        var request = request
        request.headers["Authorization"] = token.authorizationHeaderValue
        if token.isDPoPBound, let dpop = try await session.dpopHolder() {
            // DPoPTransport adds the proof (with `ath`) and answers a nonce challenge itself,
            // so a 401 seen here is about the token, not the proof's nonce.
            return try await DPoPTransport(base: transport, dpop: dpop).send(request)
        }
        return try await transport.send(request)
    }
}
