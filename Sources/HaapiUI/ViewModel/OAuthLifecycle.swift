import HaapiDriver
import HaapiSDK
import OAuthCore

/// Receives the outcome of an ``OAuthLifecycle`` operation (the seeds' `OAuthLifecycleResultListener`).
public typealias OAuthLifecycleResultListener = @Sendable (Result<OAuthModel, any Error>) -> Void

/// Keeps a flow's tokens alive after the flow (the seeds' `OAuthLifecycle`).
public enum OAuthLifecycle {
    /// Refreshes tokens with the accessor's token manager: new tokens, or the server's OAuth error.
    /// A bound refresh token is refreshed with the key it is bound to (kept since the code exchange).
    /// - Throws: the SDK's or the network's failure.
    public static func refreshToken(refreshToken: String, accessor: HaapiAccessor) async throws -> OAuthModel {
        try await self.refreshToken(refreshToken: refreshToken, oAuthTokenManager: accessor.oAuthTokenManager)
    }

    /// Refreshes tokens with `oAuthTokenManager`.
    /// - Throws: ``HaapiError/invalidConfiguration(reason:)`` for an empty refresh token, or the
    ///   SDK's or the network's failure.
    public static func refreshToken(refreshToken: String, oAuthTokenManager: OAuthTokenManager) async throws -> OAuthModel {
        guard !refreshToken.isEmpty else { throw HaapiError.invalidConfiguration(reason: "the refresh token is empty") }
        switch await oAuthTokenManager.refreshAccessToken(with: refreshToken) {
        case .successfulToken(let tokens): return .token(OAuthTokenModel(tokens))
        case .errorToken(let error): return .error(OAuthErrorModel(error))
        case .error(let error): throw error
        }
    }

    /// ``refreshToken(refreshToken:accessor:)`` with a listener, as the seeds write it.
    public static func refreshToken(
        refreshToken: String, accessor: HaapiAccessor, lifecycleResultListener: @escaping OAuthLifecycleResultListener
    ) {
        Task {
            do {
                lifecycleResultListener(.success(try await self.refreshToken(refreshToken: refreshToken, accessor: accessor)))
            } catch {
                lifecycleResultListener(.failure(error))
            }
        }
    }
}
