import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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
    /// The HTTP response, when one arrived; its `allHeaderFields` keys are in canonical case
    /// (`Content-Type`, `Dpop-Nonce`).
    public let httpURLResponse: HTTPURLResponse?
    /// The error, for failures; `nil` for a success.
    public let error: (any Error)?

    init(response: TransportResponse?, error: (any Error)?) {
        data = response?.body
        httpURLResponse = response.flatMap(Self.httpURLResponse(of:))
        self.error = error
    }

    /// The body as a JSON object (`String`, `NSNumber`, arrays and dictionaries as
    /// `JSONSerialization` makes them); empty when it is not one.
    public var dataAsDictionary: [String: Any] {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    private static func httpURLResponse(of response: TransportResponse) -> HTTPURLResponse? {
        var fields: [String: String] = [:]
        for (name, value) in response.headers.fields {
            let canonical = name.split(separator: "-", omittingEmptySubsequences: false).map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
                .joined(separator: "-")
            fields[canonical] = fields[canonical].map { "\($0), \(value)" } ?? value
        }
        return HTTPURLResponse(url: response.url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields)
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
