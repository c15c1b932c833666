import HaapiDriver
import HaapiSDK
import OAuthCore

/// Keeps a flow's tokens alive after the flow (Curity's `OAuthLifecycle`): refreshes them with
/// the application's token manager, revokes them with the configuration's.
public final class OAuthLifecycle {
    private init() {}

    /// Refreshes tokens: new tokens (an ``OAuthTokenModel``), or the server's OAuth error (an
    /// ``OAuthErrorModel``), as the application's OAuth data mapper makes them. A bound refresh
    /// token is refreshed with the key it is bound to (kept since the code exchange).
    /// - Parameters:
    ///   - refreshToken: the refresh token to present.
    ///   - haapiUIKitApplication: the application whose token manager refreshes and whose OAuth
    ///     data mapper makes the result.
    ///   - additionalParameters: more parameters of the token request (`resource`, `scope`, ...).
    /// - Throws: ``/HaapiDriver/HaapiError/invalidConfiguration(reason:)`` for an empty refresh token, or
    ///   the SDK's or the network's failure.
    public static func refreshToken(
        _ refreshToken: String, haapiUIKitApplication: any HaapiUIKitApplication, additionalParameters: [String: String]? = nil
    ) async throws -> any OAuthModel {
        guard !refreshToken.isEmpty else { throw HaapiError.invalidConfiguration(reason: "the refresh token is empty") }
        let accessor = try await haapiUIKitApplication.haapiAccessor()
        let response = await accessor.oAuthTokenManager.refreshAccessToken(with: refreshToken, additionalParameters: additionalParameters)
        return try haapiUIKitApplication.oAuthDataMapper.mapTokenResponseToOAuthModel(tokenResponse: response)
    }

    /// ``refreshToken(_:haapiUIKitApplication:additionalParameters:)`` with a listener, as
    /// Curity's older API: the listener's ``HaapiFlowResult/didReceiveOAuthModel(_:)`` or
    /// ``HaapiFlowResult/didReceiveError(_:)`` is called on the main actor.
    @available(*, deprecated, message: "Use the async refreshToken(_:haapiUIKitApplication:additionalParameters:)")
    public static func refreshToken(
        refreshToken: String, haapiUIKitApplication: any HaapiUIKitApplication, lifecycleResultListener: any OAuthLifecycleResultListener,
        additionalParameters: [String: String]? = nil
    ) {
        Task { @MainActor in
            do {
                let model = try await self.refreshToken(
                    refreshToken, haapiUIKitApplication: haapiUIKitApplication, additionalParameters: additionalParameters)
                lifecycleResultListener.didReceiveOAuthModel(model)
            } catch {
                lifecycleResultListener.didReceiveError(error)
            }
        }
    }

    /// Revokes an access token (RFC 7009) at the configuration's revocation endpoint.
    /// - Throws: the server's ``/OAuthCore/OAuthErrorResponse``, ``/HaapiDriver/HaapiError/invalidConfiguration(reason:)``
    ///   without a revocation endpoint, or the SDK's or the network's failure.
    public static func revokeAccessToken(_ accessToken: String, haapiUIKitConfiguration: HaapiUIKitConfiguration) async throws {
        try check(await tokenManager(haapiUIKitConfiguration).revokeAccessToken(with: accessToken))
    }

    /// Revokes a refresh token (RFC 7009) and forgets the key it was bound to.
    /// - Throws: as ``revokeAccessToken(_:haapiUIKitConfiguration:)``.
    public static func revokeRefreshToken(_ refreshToken: String, haapiUIKitConfiguration: HaapiUIKitConfiguration) async throws {
        try check(await tokenManager(haapiUIKitConfiguration).revokeRefreshToken(with: refreshToken))
    }

    /// The token manager of `configuration`: its client, endpoints and storage (where bound
    /// keys are kept), without a HAAPI flow.
    private static func tokenManager(_ configuration: HaapiUIKitConfiguration) async throws -> OAuthTokenManager {
        try await configuration.makeAccessorBuilder().setHaapiAccessorOption(option: .oauth).build().oAuthTokenManager
    }

    private static func check(_ response: TokenRevocationResponse) throws {
        switch response {
        case .success: return
        case .error(let error): throw error
        }
    }
}
