import Foundation

/// A token endpoint answered JSON that is not a token response: a success without the members
/// RFC 6749 §5.1 requires, or with members of the wrong type.
///
/// An answer that is not JSON at all, or a failure without an OAuth error, is an
/// ``UnexpectedResponseError``; an OAuth error is an ``OAuthErrorResponse``.
public struct TokenEndpointError: IdsvrError, Hashable {
    /// The kind of failure.
    public typealias Code = ErrorCode<TokenEndpointError>

    /// The kind of failure.
    public let code: Code
    /// What was wrong.
    public let detail: String
    /// The answer, when the members came in one (not when tokens are read from storage).
    public let response: TransportResponse?

    /// Makes an error describing what was wrong with `response`.
    public init(_ code: Code = .invalidResponse, detail: String, response: TransportResponse?) {
        self.code = code
        self.detail = detail
        self.response = response
    }

    /// The HTTP status, if a response arrived.
    public var statusCode: Int? { response?.status }
    /// The `Content-Type` of the response.
    public var contentType: String? { response?.headers["Content-Type"] }
    /// The raw body.
    public var rawBody: Data { response?.body ?? Data() }

    /// The code: `invalid_token_response`.
    public var error: String { code.rawValue }
    /// What is wrong with the response (``detail``).
    public var errorDescription: String? { detail }
    /// The detail, then the body's first 200 bytes as text when there is a body.
    public var failureReason: String {
        response?.bodyOpening.map { "\(detail); body begins: \($0)" } ?? detail
    }

    /// By the HTTP status (a 5xx or 429 may be retried now); a look at the cause otherwise.
    public var recoverySuggestion: IdsvrErrorHandling {
        .forServerAnswer(status: statusCode, retryAfter: nil)
    }
}

extension ErrorCode where Domain == TokenEndpointError {
    /// JSON, but without the members RFC 6749 §5.1 requires, or with members of the wrong type.
    public static var invalidResponse: Self { Self("invalid_token_response") }
}
