import Foundation
import HaapiSDK
import OAuthCore

/// How a flow (or an ``OAuthLifecycle`` refresh) ended (the seeds' `OAuthModel`): an
/// ``OAuthTokenModel`` or an ``OAuthErrorModel``.
///
/// ```swift
/// switch oAuthModel {
/// case let tokens as OAuthTokenModel: store(tokens)
/// case let error as OAuthErrorModel: show(error)
/// default: break
/// }
/// ```
public protocol OAuthModel: Sendable {}

extension OAuthModel {
    /// The tokens, if this is an ``OAuthTokenModel``.
    public var tokens: OAuthTokenModel? { self as? OAuthTokenModel }
    /// The error, if this is an ``OAuthErrorModel``.
    public var oauthError: OAuthErrorModel? { self as? OAuthErrorModel }
}

/// The tokens a flow ended with (the seeds' `OAuthTokenModel`).
public struct OAuthTokenModel: OAuthModel, Hashable {
    /// The access token.
    public var accessToken: String { response.accessToken }
    /// `Bearer` or `DPoP`.
    public var tokenType: String? { response.tokenType }
    /// The granted scope.
    public var scope: String? { response.scope }
    /// Seconds the access token lives, as the server said; `0` when it did not say
    /// (``response``'s `expiresAt` tells the difference).
    public var expiresIn: Int { response.expiresIn }
    /// The refresh token, if any.
    public var refreshToken: String? { response.refreshToken }
    /// The ID token, if any.
    public var idToken: String? { response.idToken }
    /// Whether the tokens are bound to the flow's DPoP key.
    public var isBound: Bool { response.isDPoPBound }
    /// The token response as received.
    public let response: SuccessfulTokenResponse

    /// A model of a token response.
    public init(_ response: SuccessfulTokenResponse) { self.response = response }
}

/// An OAuth error a flow ended with: an `error-authorization-response` problem, or an error
/// from the token endpoint (the seeds' `OAuthErrorModel`).
public struct OAuthErrorModel: OAuthModel, Error, Hashable {
    /// The OAuth `error` (`access_denied`, `invalid_grant`, ...).
    public let error: String
    /// `error_description`.
    public let errorDescription: String?
    /// `error_uri`.
    public let errorUri: String?
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
    public init(error: String, errorDescription: String?, errorUri: String? = nil, source: Source) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorUri = errorUri
        self.source = source
    }

    /// A model of an `error-authorization-response` problem.
    public init(_ problem: AuthorizationProblem) {
        self.init(error: problem.error, errorDescription: problem.errorDescription ?? problem.title?.literal, source: .authorizationResponse)
    }

    /// A model of a token endpoint error.
    public init(_ response: ErrorTokenResponse) {
        self.init(error: response.error, errorDescription: response.errorDescription, errorUri: response.errorUri, source: .tokenEndpoint)
    }
}
