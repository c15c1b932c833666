import Foundation
import OAuthCore

/// A token endpoint's answer, as the SDK hands it to the app (Curity's `OAuthResponse`):
/// ``SuccessfulTokenResponse`` or ``ErrorTokenResponse``.
public protocol OAuthResponse: Codable, Equatable, Sendable {}

/// Tokens from the token endpoint (Curity's `SuccessfulTokenResponse`), made from the package's
/// ``/OAuthCore/TokenSuccessResponse``, whose members it keeps (``raw``).
///
/// Its description shows the tokens masked (``/OAuthCore/Swift/String/maskedPrefix``).
public final class SuccessfulTokenResponse: NSObject, OAuthResponse {
    /// `access_token`.
    public let accessToken: String
    /// `expires_in`, in seconds; 0 when the server did not say (see ``expiresAt``).
    public let expiresIn: Int
    /// `id_token`.
    public let idToken: String?
    /// `refresh_token`.
    public let refreshToken: String?
    /// `scope`.
    public let scope: String?
    /// `token_type`: `Bearer` or `DPoP` (compare without regard to case).
    public let tokenType: String?
    /// Every member as received.
    public let raw: [String: JSONValue]
    /// When the response was received, the base of ``expiresAt``.
    public let receivedAt: Date

    /// The tokens of a token endpoint response.
    public init(_ tokens: TokenSuccessResponse) {
        (accessToken, expiresIn, idToken) = (tokens.accessToken, tokens.expiresIn ?? 0, tokens.idToken)
        (refreshToken, scope, tokenType) = (tokens.refreshToken, tokens.scope, tokens.tokenType)
        (raw, receivedAt) = (tokens.raw, tokens.receivedAt)
    }

    /// The tokens of a token endpoint response's members.
    /// - Throws: ``/OAuthCore/TokenEndpointError`` when a required member is missing or of the wrong type.
    public convenience init(members: [String: JSONValue], receivedAt: Date = Date()) throws {
        self.init(try TokenSuccessResponse(members: members, receivedAt: receivedAt))
    }

    /// Tokens with these members (``HaapiModel/TokenResponseFactory``): `token_type` may be left out here.
    init(accessToken: String, tokenType: String?, scope: String?, expiresIn: Int, refreshToken: String?, idToken: String?) {
        (self.accessToken, self.tokenType, self.scope, self.expiresIn) = (accessToken, tokenType, scope, expiresIn)
        (self.refreshToken, self.idToken, receivedAt) = (refreshToken, idToken, Date())
        var members: [String: JSONValue] = ["access_token": .string(accessToken), "expires_in": .integer(expiresIn)]
        for (name, value) in [("token_type", tokenType), ("scope", scope), ("refresh_token", refreshToken), ("id_token", idToken)] {
            if let value { members[name] = .string(value) }
        }
        raw = members
    }

    /// Reads a token response's JSON object.
    public convenience init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard let members = value.objectValue else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a token response is a JSON object"))
        }
        do {
            try self.init(members: members)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    /// Writes the members as received.
    public func encode(to encoder: any Encoder) throws { try JSONValue.object(raw).encode(to: encoder) }

    /// When the access token expires, if the server said (`expires_in`).
    public var expiresAt: Date? { raw["expires_in"] == nil ? nil : receivedAt.addingTimeInterval(TimeInterval(expiresIn)) }

    /// Whether the access token is DPoP-bound.
    public var isDPoPBound: Bool { tokenType?.caseInsensitiveCompare("DPoP") == .orderedSame }

    /// The package's value of these tokens, for ``/OAuthCore/TokenSession``.
    /// - Throws: ``/OAuthCore/TokenEndpointError`` when they lack what RFC 6749 requires (a `token_type`).
    public func tokenSuccessResponse() throws -> TokenSuccessResponse { try TokenSuccessResponse(members: raw, receivedAt: receivedAt) }

    /// The type, the masked tokens and the lifetime.
    public override var description: String {
        "SuccessfulTokenResponse(\(tokenType ?? "no type"), access \(accessToken.maskedPrefix), refresh \(refreshToken?.maskedPrefix ?? "none"), "
            + "id \(idToken?.maskedPrefix ?? "none"), scope \(scope ?? "none"), expires in \(expiresIn) s)"
    }

    /// Equal members.
    public override func isEqual(_ object: Any?) -> Bool { (object as? SuccessfulTokenResponse)?.raw == raw }

    /// Hashes the members.
    public override var hash: Int { raw.hashValue }
}

/// An OAuth error from the token endpoint (Curity's `ErrorTokenResponse`), such as `invalid_grant`,
/// made from the package's ``/OAuthCore/OAuthErrorResponse`` (``response``: the status, every member and `Retry-After`).
public final class ErrorTokenResponse: NSObject, OAuthResponse {
    /// `error`.
    public let error: String
    /// `error_description`, if given.
    public let errorDescription: String?
    /// `error_uri`, if given.
    public let errorUri: String?
    /// The error as the package reads it: an ``/OAuthCore/IdsvrError`` with the status and every member.
    public let response: OAuthErrorResponse

    /// The error of a token endpoint response.
    public init(_ response: OAuthErrorResponse) {
        (error, errorDescription, errorUri, self.response) = (response.error, response.serverDescription, response.errorURI, response)
    }

    /// Reads an error response's JSON object (its status taken as 400).
    public convenience init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard let members = value.objectValue, let error = members["error"]?.stringValue else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "an OAuth error response is a JSON object with an error"))
        }
        self.init(OAuthErrorResponse(error: error, members: members))
    }

    /// Writes the members as received.
    public func encode(to encoder: any Encoder) throws {
        var members = response.raw
        members["error"] = .string(error)
        try JSONValue.object(members).encode(to: encoder)
    }

    /// `error`, `error_description` and `error_uri`.
    public override var debugDescription: String {
        "ErrorTokenResponse(\(error)\(errorDescription.map { ": \($0)" } ?? "")\(errorUri.map { " (\($0))" } ?? ""))"
    }

    /// The same error and members.
    public override func isEqual(_ object: Any?) -> Bool { (object as? ErrorTokenResponse)?.response == response }

    /// Hashes the error and its members.
    public override var hash: Int { response.hashValue }
}

/// The outcome of a token request (Curity's `TokenResponse`).
public enum TokenResponse: Sendable {
    /// Tokens.
    case successfulToken(SuccessfulTokenResponse)
    /// An OAuth error the server returned (`invalid_grant`, ...).
    case errorToken(ErrorTokenResponse)
    /// A failure of the SDK, the network or the server's response; it conforms to `IdsvrError`.
    case error(any Error)
}

/// The outcome of a revocation (Curity's `TokenRevocationResponse`).
public enum TokenRevocationResponse: Sendable {
    /// The server accepted the revocation (RFC 7009: also when the token was already invalid).
    case success
    /// Why not: an OAuth error the server returned (an ``/OAuthCore/OAuthErrorResponse``), or a failure of
    /// the SDK, the network or the server's response. Each conforms to `IdsvrError`.
    case error(any Error)
}

/// A raw token-endpoint response: the HTTP response and its body (the seeds' `HTTPURLResponseContent`).
///
/// Immutable: every stored property is a constant.
public class HTTPURLResponseContent: NSObject, @unchecked Sendable {
    /// The body.
    public let data: Data?
    #if canImport(Darwin)
        /// The HTTP response, when one arrived; its `allHeaderFields` keys are in canonical case
        /// (`Content-Type`, `Dpop-Nonce`).
        public let httpURLResponse: HTTPURLResponse?
    #else
        /// The HTTP response, when one arrived. Outside Apple platforms it is the transport's own
        /// ``/OAuthCore/TransportResponse``, which answers as `HTTPURLResponse` does (`statusCode`,
        /// `allHeaderFields` in canonical case, `value(forHTTPHeaderField:)`): `HTTPURLResponse` is
        /// FoundationNetworking's there, and linking it loads libcurl into every process.
        public let httpURLResponse: TransportResponse?
    #endif

    /// The error, for failures: the SDK's in an ``ErrorHTTPURLResponseContent``, the server's
    /// OAuth error in an `ErrorTokenHTTPURLResponseContent`; `nil` for a success (as Curity's
    /// guide reads it).
    public var error: (any Error)? { nil }

    init(response: TransportResponse?) {
        data = response?.body
        #if canImport(Darwin)
            httpURLResponse = response.flatMap {
                HTTPURLResponse(url: $0.url, statusCode: $0.status, httpVersion: "HTTP/1.1", headerFields: $0.canonicalHeaderFields)
            }
        #else
            httpURLResponse = response
        #endif
    }

    /// The body as a JSON object (`String`, `NSNumber`, arrays and dictionaries as
    /// `JSONSerialization` makes them); empty when it is not one.
    public var dataAsDictionary: [String: Any] {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }
}

/// A failure with no usable answer: the network, a body that is neither tokens nor an OAuth
/// error, or the SDK itself (Curity's `ErrorHTTPURLResponseContent`); ``error`` says which.
public final class ErrorHTTPURLResponseContent: HTTPURLResponseContent, @unchecked Sendable {
    private let failure: any Error

    /// What went wrong: the SDK's error (an ``/OAuthCore/IdsvrError``), never `nil` here.
    public override var error: any Error { failure }

    init(response: TransportResponse?, error: any Error) {
        failure = error
        super.init(response: response)
    }
}

extension OAuthTokenManager {
    /// A token response with tokens (the seeds' `OAuthTokenManager.SuccessTokenHTTPURLResponseContent`).
    public final class SuccessTokenHTTPURLResponseContent: HTTPURLResponseContent, @unchecked Sendable {
        /// The tokens.
        public let successfulTokenResponse: SuccessfulTokenResponse

        init(response: TransportResponse, tokens: SuccessfulTokenResponse) {
            successfulTokenResponse = tokens
            super.init(response: response)
        }
    }

    /// A token response with an OAuth error (the seeds' `OAuthTokenManager.ErrorTokenHTTPURLResponseContent`).
    public final class ErrorTokenHTTPURLResponseContent: HTTPURLResponseContent, @unchecked Sendable {
        /// The OAuth error.
        public let errorTokenResponse: ErrorTokenResponse

        init(response: TransportResponse, error: ErrorTokenResponse) {
            errorTokenResponse = error
            super.init(response: response)
        }

        /// The server's OAuth error, as an ``/OAuthCore/OAuthErrorResponse``.
        public override var error: (any Error)? { errorTokenResponse.response }
    }

    /// Receives every token-endpoint response raw, with headers (such as `DPoP-Nonce`) and
    /// body (the seeds' `OAuthTokenManager.TokenEndpointResponseListener`). It is called on
    /// the task that made the request, before the ``TokenResponse`` is returned.
    public protocol TokenEndpointResponseListener: Sendable {
        /// A successful token response.
        func onSuccess(_ value: OAuthTokenManager.SuccessTokenHTTPURLResponseContent)
        /// An OAuth error response.
        func onTokenError(_ value: OAuthTokenManager.ErrorTokenHTTPURLResponseContent)
        /// Any other failure.
        func onError(_ value: ErrorHTTPURLResponseContent)
    }
}

extension HaapiModel {
    /// Makes token responses from values (Curity's `HaapiModel.TokenResponseFactory`), for
    /// tests and previews; their members are the values given.
    public enum TokenResponseFactory {
        /// Tokens.
        public static func success(
            accessToken: String, tokenType: String?, scope: String?, expiresIn: Int, refreshToken: String?, idToken: String?
        ) -> SuccessfulTokenResponse {
            SuccessfulTokenResponse(
                accessToken: accessToken, tokenType: tokenType, scope: scope, expiresIn: expiresIn, refreshToken: refreshToken,
                idToken: idToken)
        }

        /// An OAuth error, as a 400 answer.
        public static func error(error: String, errorDescription: String?, errorUri: String? = nil) -> ErrorTokenResponse {
            var members: [String: JSONValue] = ["error": .string(error)]
            members["error_description"] = errorDescription.map(JSONValue.string)
            members["error_uri"] = errorUri.map(JSONValue.string)
            return ErrorTokenResponse(OAuthErrorResponse(error: error, members: members))
        }
    }
}
