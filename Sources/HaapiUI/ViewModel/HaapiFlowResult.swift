import Foundation

/// Receives how a flow ended (the seeds' `HaapiFlowResult`): implement
/// ``didReceiveOAuthModel(_:)``, or ``didReceiveOAuthTokenModel(_:)`` for the tokens alone,
/// and ``didReceiveError(_:)``.
@MainActor public protocol HaapiFlowResult: Sendable {
    /// The flow (or an ``OAuthLifecycle`` refresh) ended with tokens or an OAuth error. By
    /// default an ``OAuthTokenModel`` goes to ``didReceiveOAuthTokenModel(_:)`` and an
    /// ``OAuthErrorModel`` to ``didReceiveError(_:)``.
    func didReceiveOAuthModel(_ oAuthModel: any OAuthModel)
    /// The flow ended with tokens (called by the default ``didReceiveOAuthModel(_:)``).
    func didReceiveOAuthTokenModel(_ oAuthTokenModel: any OAuthTokenModel)
    /// The flow stopped with an error.
    func didReceiveError(_ error: any Error)
}

extension HaapiFlowResult {
    /// Calls ``didReceiveOAuthTokenModel(_:)`` with tokens; calls ``didReceiveError(_:)`` with an OAuth error
    /// (as a ``KitOAuthErrorModel``) or any other model.
    public func didReceiveOAuthModel(_ oAuthModel: any OAuthModel) {
        switch oAuthModel {
        case let tokens as any OAuthTokenModel: didReceiveOAuthTokenModel(tokens)
        case let error as KitOAuthErrorModel: didReceiveError(error)
        case let error as any OAuthErrorModel:
            didReceiveError(
                KitOAuthErrorModel(
                    error: error.error, errorDescription: error.errorDescription, errorUri: error.errorUri, source: .tokenEndpoint))
        default: didReceiveError(HaapiUIKitError.unsupportedMap(objName: "\(type(of: oAuthModel))", expectedObjName: "OAuthTokenModel"))
        }
    }

    /// Does nothing: implement it, or ``didReceiveOAuthModel(_:)``, to receive the tokens.
    public func didReceiveOAuthTokenModel(_ oAuthTokenModel: any OAuthTokenModel) {}
}

/// Receives the outcome of an ``OAuthLifecycle`` operation (the seeds' `OAuthLifecycleResultListener`).
public typealias OAuthLifecycleResultListener = HaapiFlowResult
