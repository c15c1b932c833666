import Foundation

/// A token endpoint answered with something that is neither tokens nor an OAuth error.
///
/// The status code and the raw body are kept, so the app (or a log) can show what came back.
public struct TokenEndpointError: IdsvrError, Hashable {
    /// The kind of failure.
    public typealias Code = ErrorCode<TokenEndpointError>

    /// The kind of failure.
    public let code: Code
    /// What was wrong.
    public let detail: String
    /// The HTTP status, if a response arrived.
    public let statusCode: Int?
    /// The `Content-Type` of the response.
    public let contentType: String?
    /// The raw body.
    public let rawBody: Data
    /// The `Retry-After` delay in seconds, when the server gave one.
    public let retryAfter: Double?

    /// Makes an error describing `response`.
    public init(_ code: Code, detail: String? = nil, response: TransportResponse?) {
        self.code = code
        self.statusCode = response?.status
        self.contentType = response?.headers["Content-Type"]
        self.rawBody = response?.body ?? Data()
        self.retryAfter = response?.retryAfterSeconds
        if let detail {
            self.detail = detail
        } else if let response {
            let kind = response.body.isEmpty ? "an empty body" : "a body of type \(response.mediaType ?? "none")"
            self.detail = "the token endpoint answered HTTP \(response.status) with \(kind), not an OAuth JSON response"
        } else {
            self.detail = "the token endpoint gave no usable response"
        }
    }

    public var error: String { code.rawValue }
    public var errorDescription: String? { detail }
    public var failureReason: String {
        let body = String(decoding: rawBody.prefix(200), as: UTF8.self)
        return body.isEmpty ? detail : "\(detail); body begins: \(body)"
    }

    public var recoverySuggestion: IdsvrErrorHandling {
        // A busy server (its `Retry-After` is ``retryAfter``) or a failing one: worth another try.
        if retryAfter != nil { return .retryable(condition: .now) }
        if let statusCode, statusCode >= 500 || statusCode == 429 { return .retryable(condition: .now) }
        return .unrecoverable(action: .introspectCause)
    }
}

extension ErrorCode where Domain == TokenEndpointError {
    /// Not a JSON object with the JSON media type (an HTML error page, an empty body, plain text).
    public static var unexpectedResponse: Self { Self("unexpected_token_response") }
    /// JSON, but without the members RFC 6749 §5.1 requires, or with members of the wrong type.
    public static var invalidResponse: Self { Self("invalid_token_response") }
}
