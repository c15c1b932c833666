import Foundation

/// What a token endpoint answered: tokens, or an OAuth error. Both are results, not thrown errors;
/// anything else is thrown: an ``UnexpectedResponseError`` (no JSON, the wrong content type, no
/// `error`) or a ``TokenEndpointError`` (a success without the members tokens need).
public enum TokenEndpointResponse: Sendable, Hashable {
    /// A successful response (RFC 6749 §5.1).
    case success(TokenSuccessResponse)
    /// An error response (RFC 6749 §5.2).
    case failure(OAuthErrorResponse)

    /// Classifies a token endpoint's HTTP response.
    /// - Throws: ``UnexpectedResponseError`` when the response is neither JSON tokens nor an OAuth
    ///   error; ``TokenEndpointError`` when a success lacks what tokens need.
    public init(_ response: TransportResponse, receivedAt: Date = Date()) throws {
        let isJSON = response.mediaType.map { $0 == "application/json" || $0.hasSuffix("+json") } ?? false
        guard isJSON, let document = try? JSONValue(parsing: response.body), let members = document.objectValue else {
            throw UnexpectedResponseError(response, from: "the token endpoint")
        }
        if response.isSuccess {
            self = .success(try TokenSuccessResponse(members: members, response: response, receivedAt: receivedAt))
        } else if let refusal = OAuthErrorResponse(members: members, statusCode: response.status, retryAfter: response.retryAfterSeconds) {
            self = .failure(refusal)
        } else {
            throw UnexpectedResponseError(response, from: "the token endpoint")
        }
    }
}

/// Tokens from a token endpoint (RFC 6749 §5.1), with every member kept.
public struct TokenSuccessResponse: Sendable, Hashable {
    /// `access_token`.
    public let accessToken: String
    /// `token_type`: `Bearer` or `DPoP` (compare without regard to case).
    public let tokenType: String
    /// `expires_in`, in seconds; sent as a number or a string, kept at most
    /// ``OutsideNumber/longestSeconds`` (a provider may send `Int.max`).
    public let expiresIn: Int?
    /// `refresh_token`.
    public let refreshToken: String?
    /// `scope`.
    public let scope: String?
    /// `id_token`.
    public let idToken: String?
    /// When the response was received, the base of ``expiresAt``.
    public let receivedAt: Date
    /// Every member as received.
    public let raw: [String: JSONValue]

    /// When the access token expires, if the server said.
    public var expiresAt: Date? { expiresIn.map { receivedAt.addingTimeInterval(TimeInterval($0)) } }

    /// Whether the access token is DPoP-bound.
    public var isDPoPBound: Bool { tokenType.caseInsensitiveCompare("DPoP") == .orderedSame }

    /// Reads a success response's members.
    /// - Throws: ``TokenEndpointError`` with [`TokenEndpointError.Code.invalidResponse`](doc:ErrorCode/invalidResponse) when a
    ///   required member is missing or a member has the wrong type.
    public init(members: [String: JSONValue], response: TransportResponse? = nil, receivedAt: Date = Date()) throws {
        func fail(_ reason: String) -> TokenEndpointError {
            TokenEndpointError(.invalidResponse, detail: reason, response: response)
        }
        guard let accessToken = members["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw fail("the token response has no string \"access_token\"")
        }
        guard let tokenType = members["token_type"]?.stringValue else {
            throw fail("the token response has no string \"token_type\"")
        }
        func optionalString(_ name: String) throws -> String? {
            try members.string(name) { fail("the token response's \"\($0)\" is not a string") }
        }
        switch members["expires_in"] {
        case nil, .null?: expiresIn = nil
        case .string(let text)?:
            guard let seconds = OutsideNumber.seconds(parsing: text.trimmingCharacters(in: .whitespaces)) else {
                throw fail("the token response's \"expires_in\" is not a number of seconds: \"\(text)\"")
            }
            expiresIn = seconds
        case let value?:
            guard let seconds = value.intValue, seconds >= 0 else {
                throw fail("the token response's \"expires_in\" is not a number of seconds")
            }
            expiresIn = OutsideNumber.seconds(seconds)
        }
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.refreshToken = try optionalString("refresh_token")
        self.scope = try optionalString("scope")
        self.idToken = try optionalString("id_token")
        self.receivedAt = receivedAt
        self.raw = members
    }
}

/// An OAuth error response (RFC 6749 §5.2), such as `invalid_grant`.
public struct OAuthErrorResponse: IdsvrError, Hashable {
    /// `error`.
    public let error: String
    /// `error_description`, if given.
    public let serverDescription: String?
    /// `error_uri`, if given.
    public let errorURI: String?
    /// The HTTP status.
    public let statusCode: Int
    /// Every member as received.
    public let raw: [String: JSONValue]
    /// The `Retry-After` delay in seconds, when the response gave one (a busy server's
    /// `temporarily_unavailable`, a `slow_down`).
    public let retryAfter: Double?

    /// The OAuth error in a failed `response`, whatever its media type (servers label it
    /// loosely); `nil` when the body is not a JSON object with an `error`, or the status is 2xx.
    package init?(_ response: TransportResponse) {
        guard !response.isSuccess, let members = (try? JSONValue(parsing: response.body))?.objectValue else { return nil }
        self.init(members: members, statusCode: response.status, retryAfter: response.retryAfterSeconds)
    }

    /// The OAuth error `members` describe; `nil` without a non-empty string `error` (RFC 6749
    /// §5.2: a code of one or more characters, so `""` names no error).
    package init?(members: [String: JSONValue], statusCode: Int = 400, retryAfter: Double? = nil) {
        guard let error = members["error"]?.stringValue, !error.isEmpty else { return nil }
        self.init(error: error, members: members, statusCode: statusCode, retryAfter: retryAfter)
    }

    /// Makes an error response from its members.
    public init(error: String, members: [String: JSONValue] = [:], statusCode: Int = 400, retryAfter: Double? = nil) {
        self.error = error
        self.serverDescription = members["error_description"]?.stringValue
        self.errorURI = members["error_uri"]?.stringValue
        self.statusCode = statusCode
        self.raw = members
        self.retryAfter = retryAfter
    }

    /// The server's `error_description`, else "the server answered" and the code.
    public var errorDescription: String? { serverDescription ?? "the server answered \(error)" }
    /// The code and the HTTP status: "The token endpoint refused the request with "invalid_grant" (HTTP
    /// 400)."
    public var failureReason: String { "The token endpoint refused the request with \"\(error)\" (HTTP \(statusCode))." }

    /// By the code: a new login when the grant or the session is gone, a retry when the server is busy or
    /// asks again, otherwise a configuration change.
    public var recoverySuggestion: IdsvrErrorHandling { .forOAuthError(error, reason: errorDescription ?? error) }
}
