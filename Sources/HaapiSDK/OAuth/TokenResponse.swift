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

/// A raw token-endpoint response: the HTTP response and its body (the seeds' `HTTPURLResponseContent`).
///
/// Immutable: every stored property is a constant.
public class HTTPURLResponseContent: @unchecked Sendable {
    /// The body.
    public let data: Data?
    #if canImport(Darwin)
    /// The HTTP response, when one arrived; its `allHeaderFields` keys are in canonical case
    /// (`Content-Type`, `Dpop-Nonce`).
    public let httpURLResponse: HTTPURLResponse?
    #else
    /// The HTTP response, when one arrived. Outside Apple platforms it is the transport's own
    /// ``TransportResponse``, which answers as `HTTPURLResponse` does (`statusCode`,
    /// `allHeaderFields` in canonical case, `value(forHTTPHeaderField:)`): `HTTPURLResponse` is
    /// FoundationNetworking's there, and linking it loads libcurl into every process.
    public let httpURLResponse: TransportResponse?
    #endif
    /// The error, for failures; `nil` for a success.
    public let error: (any Error)?

    init(response: TransportResponse?, error: (any Error)?) {
        data = response?.body
        #if canImport(Darwin)
        httpURLResponse = response.flatMap {
            HTTPURLResponse(url: $0.url, statusCode: $0.status, httpVersion: "HTTP/1.1", headerFields: $0.canonicalHeaderFields)
        }
        #else
        httpURLResponse = response
        #endif
        self.error = error
    }

    /// The body as a JSON object (`String`, `NSNumber`, arrays and dictionaries as
    /// `JSONSerialization` makes them); empty when it is not one.
    public var dataAsDictionary: [String: Any] {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }
}

extension TransportResponse {
    /// The status code, as `HTTPURLResponse` names it.
    public var statusCode: Int { status }

    /// The header fields as `HTTPURLResponse` gives them: names in canonical case
    /// (`Content-Type`, `Dpop-Nonce`), repeated fields joined with ", ".
    public var allHeaderFields: [AnyHashable: Any] { canonicalHeaderFields }

    /// The value of a header field, whatever the case of `field`, as `HTTPURLResponse` answers.
    public func value(forHTTPHeaderField field: String) -> String? { headers[field] }

    var canonicalHeaderFields: [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in headers.fields {
            let canonical = name.split(separator: "-", omittingEmptySubsequences: false).map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
                .joined(separator: "-")
            fields[canonical] = fields[canonical].map { "\($0), \(value)" } ?? value
        }
        return fields
    }
}

/// A failure with no usable answer: the network, a body that is neither tokens nor an OAuth
/// error, or the SDK itself (the seeds' `ErrorHTTPURLResponseContent`); ``HTTPURLResponseContent/error`` says which.
public final class ErrorHTTPURLResponseContent: HTTPURLResponseContent, @unchecked Sendable {}

extension OAuthTokenManager {
    /// A token response with tokens (the seeds' `OAuthTokenManager.SuccessTokenHTTPURLResponseContent`).
    public final class SuccessTokenHTTPURLResponseContent: HTTPURLResponseContent, @unchecked Sendable {
        /// The tokens.
        public let successfulTokenResponse: SuccessfulTokenResponse

        init(response: TransportResponse, tokens: SuccessfulTokenResponse) {
            successfulTokenResponse = tokens
            super.init(response: response, error: nil)
        }
    }

    /// A token response with an OAuth error (the seeds' `OAuthTokenManager.ErrorTokenHTTPURLResponseContent`).
    public final class ErrorTokenHTTPURLResponseContent: HTTPURLResponseContent, @unchecked Sendable {
        /// The OAuth error.
        public let errorTokenResponse: ErrorTokenResponse

        init(response: TransportResponse, error: ErrorTokenResponse) {
            errorTokenResponse = error
            super.init(response: response, error: error)
        }
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
