import HaapiDriver
import HaapiSDK
import OAuthCore

/// Keeps a flow's tokens alive after the flow, with the application's token manager (the
/// seeds' `OAuthLifecycle`).
public enum OAuthLifecycle {
    /// Refreshes tokens: new tokens (``OAuthTokenModel``), or the server's OAuth error
    /// (``OAuthErrorModel``). A bound refresh token is refreshed with the key it is bound to
    /// (kept since the code exchange).
    /// - Throws: ``HaapiError/invalidConfiguration(reason:)`` for an empty refresh token, or
    ///   the SDK's or the network's failure.
    public static func refreshToken(_ refreshToken: String, haapiUIKitApplication: HaapiUIKitApplication) async throws -> OAuthModel {
        guard !refreshToken.isEmpty else { throw HaapiError.invalidConfiguration(reason: "the refresh token is empty") }
        let accessor = try await haapiUIKitApplication.haapiAccessor()
        let response = await accessor.oAuthTokenManager.refreshAccessToken(with: refreshToken)
        return try haapiUIKitApplication.oAuthDataMapper.mapTokenResponseToOAuthModel(tokenResponse: response)
    }

    /// ``refreshToken(_:haapiUIKitApplication:)`` with a listener, as the seeds write it: the
    /// listener's ``HaapiFlowResult/didReceiveOAuthModel(_:)`` or
    /// ``HaapiFlowResult/didReceiveError(_:)`` is called on the main actor.
    public static func refreshToken(
        refreshToken: String, haapiUIKitApplication: HaapiUIKitApplication, lifecycleResultListener: any OAuthLifecycleResultListener
    ) {
        Task { @MainActor in
            do {
                lifecycleResultListener.didReceiveOAuthModel(try await self.refreshToken(refreshToken, haapiUIKitApplication: haapiUIKitApplication))
            } catch {
                lifecycleResultListener.didReceiveError(error)
            }
        }
    }

    /// Revokes an access token (RFC 7009) at the configuration's revocation endpoint.
    /// - Throws: the server's ``OAuthErrorResponse``, or the SDK's or the network's failure.
    public static func revokeAccessToken(_ accessToken: String, haapiUIKitApplication: HaapiUIKitApplication) async throws {
        try check(await haapiUIKitApplication.haapiAccessor().oAuthTokenManager.revokeAccessToken(with: accessToken))
    }

    /// Revokes a refresh token (RFC 7009) and forgets the key it was bound to.
    /// - Throws: the server's ``OAuthErrorResponse``, or the SDK's or the network's failure.
    public static func revokeRefreshToken(_ refreshToken: String, haapiUIKitApplication: HaapiUIKitApplication) async throws {
        try check(await haapiUIKitApplication.haapiAccessor().oAuthTokenManager.revokeRefreshToken(with: refreshToken))
    }

    private static func check(_ response: TokenRevocationResponse) throws {
        switch response {
        case .success: return
        case .error(let error): throw error
        }
    }
}
