import Foundation
import OAuthCore

/// Tokens from the token endpoint (the seeds' `SuccessfulTokenResponse`).
public typealias SuccessfulTokenResponse = TokenSuccessResponse
/// An OAuth error from the token endpoint (the seeds' `ErrorTokenResponse`).
public typealias ErrorTokenResponse = OAuthErrorResponse

/// The outcome of a token request (the seeds' `TokenResponse`).
public enum TokenResponse: Sendable {
    /// Tokens.
    case successfulToken(SuccessfulTokenResponse)
    /// An OAuth error the server returned (`invalid_grant`, ...).
    case errorToken(ErrorTokenResponse)
    /// A failure of the SDK, the network or the server's response; it conforms to `IdsvrError`.
    case error(any Error)
}

/// The outcome of a revocation (the seeds' `TokenRevocationResponse`).
public enum TokenRevocationResponse: Sendable {
    /// The server accepted the revocation (RFC 7009: also when the token was already invalid).
    case success
    /// An OAuth error the server returned.
    case errorToken(ErrorTokenResponse)
    /// A failure of the SDK, the network or the server's response.
    case error(any Error)
}

/// A raw token-endpoint response (the seeds' `HTTPURLResponseContent` family).
public struct HTTPURLResponseContent: Sendable {
    /// The HTTP response, when one arrived.
    public let httpURLResponse: TransportResponse?
    /// The body.
    public let data: Data?
    /// The body as a JSON object, when it is one.
    public let dataAsDictionary: [String: JSONValue]
    /// The error, for failures.
    public let error: (any Error)?

    init(response: TransportResponse?, error: (any Error)?) {
        httpURLResponse = response
        data = response?.body
        dataAsDictionary = response.flatMap { try? JSONValue(parsing: $0.body).objectValue } ?? [:]
        self.error = error
    }
}

/// A raw error response: no usable tokens, and no OAuth error either.
public typealias ErrorHTTPURLResponseContent = HTTPURLResponseContent

/// Receives every token-endpoint response raw, with headers (such as `DPoP-Nonce`) and body
/// (the seeds' `OAuthTokenManager.TokenEndpointResponseListener`).
public protocol TokenEndpointResponseListener: Sendable {
    /// A successful token response.
    func onSuccess(_ value: OAuthTokenManager.SuccessTokenHTTPURLResponseContent)
    /// An OAuth error response.
    func onTokenError(_ value: OAuthTokenManager.ErrorTokenHTTPURLResponseContent)
    /// Any other failure.
    func onError(_ value: ErrorHTTPURLResponseContent)
}
