import Foundation
import HaapiSDK
import OAuthCore

/// The tokens a flow ended with (the seeds' `OAuthTokenModel`).
public struct OAuthTokenModel: Sendable, Hashable {
    /// The access token.
    public var accessToken: String { response.accessToken }
    /// `Bearer` or `DPoP`.
    public var tokenType: String { response.tokenType }
    /// Seconds the access token lives.
    public var expiresIn: Int? { response.expiresIn }
    /// The refresh token, if any.
    public var refreshToken: String? { response.refreshToken }
    /// The ID token, if any.
    public var idToken: String? { response.idToken }
    /// The granted scope.
    public var scope: String? { response.scope }
    /// Whether the tokens are bound to the flow's DPoP key.
    public var isBound: Bool { response.isDPoPBound }
    /// The token response as received.
    public let response: SuccessfulTokenResponse

    /// A model of a token response.
    public init(_ response: SuccessfulTokenResponse) { self.response = response }
}

/// An OAuth error a flow ended with: an `error-authorization-response` problem, or an error
/// from the token endpoint (the seeds' `OAuthErrorModel`).
public struct OAuthErrorModel: Sendable, Hashable {
    /// The OAuth `error` (`access_denied`, `invalid_grant`, ...).
    public let error: String
    /// `error_description`.
    public let errorDescription: String?
    /// Where it came from.
    public let source: Source

    /// Where an OAuth error came from.
    public enum Source: Sendable, Hashable {
        /// The authorization response (the flow was refused or cancelled).
        case authorizationResponse
        /// The token endpoint (the code exchange or a refresh).
        case tokenEndpoint
        /// The client: the user abandoned a flow that offered no cancel action.
        case client
    }

    /// A model of an error from any source.
    public init(error: String, errorDescription: String?, source: Source) {
        self.error = error
        self.errorDescription = errorDescription
        self.source = source
    }

    /// A model of an `error-authorization-response` problem.
    public init(_ problem: AuthorizationProblem) {
        error = problem.error ?? "access_denied"
        errorDescription = problem.errorDescription ?? problem.title
        source = .authorizationResponse
    }

    /// A model of a token endpoint error.
    public init(_ response: ErrorTokenResponse) {
        error = response.error
        errorDescription = response.serverDescription
        source = .tokenEndpoint
    }
}

/// How a flow ended (the seeds' `OAuthModel`): tokens, or an OAuth error.
public enum OAuthModel: Sendable, Hashable {
    /// Tokens.
    case token(OAuthTokenModel)
    /// An OAuth error.
    case error(OAuthErrorModel)

    /// The tokens, if the flow succeeded.
    public var tokens: OAuthTokenModel? {
        if case .token(let model) = self { return model }
        return nil
    }

    /// The error, if the flow ended with one.
    public var oauthError: OAuthErrorModel? {
        if case .error(let model) = self { return model }
        return nil
    }
}
