import OAuthCore

/// The transport of HAAPI requests: adds `Authorization: DPoP <HAAPI access token>` and a fresh
/// DPoP proof to every request, and when the server refuses the token (``AccessTokenChallenge/asksForNewToken``),
/// gets one new token and retries once.
public struct HaapiDriverTransport: HTTPTransport {
    /// Where tokens come from.
    public let tokenManager: HaapiTokenManager
    /// The network underneath.
    public let base: any HTTPTransport

    /// Makes the transport.
    public init(tokenManager: HaapiTokenManager, base: any HTTPTransport) {
        self.tokenManager = tokenManager
        self.base = base
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var retried = false
        while true {
            let token = try await tokenManager.accessToken()
            var authorized = request
            authorized.headers["Authorization"] = token.authorizationHeaderValue
            let response: TransportResponse
            let outgoing = authorized
            do {
                response = try await tokenManager.dpop.send(using: base, accessToken: token.value) { outgoing }
            } catch let error as DPoPError {
                throw HaapiError(error)
            }
            guard AccessTokenChallenge(response)?.asksForNewToken == true, !retried else { return response }
            HaapiLogger.debug(DriverFollowUpTag.flow, "the HAAPI access token was refused; getting a new one")
            await tokenManager.invalidateAccessToken(token)
            retried = true
        }
    }
}
