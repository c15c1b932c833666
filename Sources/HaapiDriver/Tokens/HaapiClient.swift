import Foundation
import OAuthCore

/// Sends requests with a HAAPI access token and a fresh DPoP proof (Curity's `HaapiClient`,
/// made by ``HaapiTokenManager/createClient()``): HAAPI requests, and an app's own calls to
/// APIs that accept HAAPI tokens.
///
/// Every request carries `Authorization: DPoP <HAAPI access token>` and a proof of the token
/// manager's key; the server's `DPoP-Nonce` is learned and the one `use_dpop_nonce` retry made.
/// When the server refuses the token (``/OAuthCore/AccessTokenChallenge/asksForNewToken``), one new token
/// is obtained and the request sent once more. As an ``/OAuthCore/HTTPTransport`` it is what
/// `HaapiManager` sends its requests through.
public final class HaapiClient: NSObject, HTTPTransport {
    /// Where tokens come from.
    public let tokenManager: HaapiTokenManager
    /// The network underneath.
    public let base: any HTTPTransport

    /// A client with `tokenManager`'s tokens and key, over `base`.
    public init(tokenManager: HaapiTokenManager, base: any HTTPTransport) {
        self.tokenManager = tokenManager
        self.base = base
    }

    /// The key the requests' proofs are signed with (the token manager's).
    public var dpop: Dpop? { tokenManager.key }

    /// Sends `request` with the HAAPI access token and a DPoP proof; when the server refuses the token, gets
    /// a new one and sends once more.
    /// - Throws: ``HaapiError`` when no token can be had or no proof made; the transport's errors.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await AccessTokenChallenge.sendRenewingOnce(
            token: try await tokenManager.accessToken(),
            renew: { refused in
                HaapiLogger.debug(DriverFollowUpTag.flow, "the HAAPI access token was refused; getting a new one")
                tokenManager.invalidateAccessToken(refused)
                return try await tokenManager.accessToken()
            },
            send: { token in
                var authorized = request
                authorized.headers[HttpHeaderNames.authorization] = token.authorizationHeaderValue
                let outgoing = authorized
                do {
                    return try await tokenManager.key.send(using: base, accessToken: token.value) { outgoing }
                } catch let error as DPoPError {
                    throw HaapiError(error)
                }
            })
    }
}

#if canImport(Darwin)
    /// A response and its body (Curity's `ResponseAndData`), as ``HaapiClient/performDataTask(for:)`` returns them.
    public struct ResponseAndData: Sendable {
        /// The response: an `HTTPURLResponse`.
        public let response: URLResponse
        /// The body.
        public let data: Data?
    }

    extension HaapiClient {
        /// Sends a `URLRequest` as ``send(_:)`` does (Curity's `performDataTask(for:)`): with the
        /// HAAPI access token and a DPoP proof. Redirects are not followed.
        /// - Throws: ``HaapiError/illegalState(message:)`` for a request without a URL;
        ///   ``HaapiError/communication(message:cause:)`` when the server cannot be reached;
        ///   the token manager's ``HaapiError``s.
        public func performDataTask(for urlRequest: URLRequest) async throws -> ResponseAndData {
            guard let url = urlRequest.url else { throw HaapiError.illegalState(message: "the request has no URL") }
            var headers = HeaderFields()
            for (name, value) in (urlRequest.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
                headers.add(name: name, value: value)
            }
            let request = TransportRequest(
                method: urlRequest.httpMethod ?? "GET", url: url, headers: headers, body: urlRequest.httpBody,
                timeout: urlRequest.timeoutInterval)
            let response: TransportResponse
            do {
                response = try await send(request)
            } catch {
                throw HaapiError.wrapping(error, "request", url: url)
            }
            return ResponseAndData(response: response.platformURLResponse, data: response.body)
        }

        /// ``performDataTask(for:)`` with a completion handler, as Curity's SDK 4 wrote it; called
        /// on a task of its own.
        @available(*, deprecated, message: "Use the async performDataTask(for:)")
        public func performDataTask(
            for urlRequest: URLRequest, completionHandler: @escaping @Sendable (Result<ResponseAndData, any Error>) -> Void
        ) {
            Task {
                do {
                    completionHandler(.success(try await performDataTask(for: urlRequest)))
                } catch {
                    completionHandler(.failure(error))
                }
            }
        }
    }
#endif

/// A HAAPI access token with the DPoP key it is bound to (Curity's `DpopAccessTokenInfo`), from
/// ``HaapiTokenManager/getHaapiTokenAsync(forceFresh:dpopNonce:)``: everything a request to an
/// API that accepts HAAPI tokens needs (see `addDpopAccessTokenHeaders(from:httpMethod:url:)`).
public final class DpopAccessTokenInfo: NSObject, Sendable {
    /// The token.
    public let accessToken: AccessToken
    /// The key the token is bound to.
    public let dpop: Dpop
    /// The nonce the proofs carry, when a server asked for one.
    public let dpopNonce: String?

    /// Bundles a token, its key and a nonce.
    public init(accessToken: AccessToken, dpop: Dpop, dpopNonce: String? = nil) {
        self.accessToken = accessToken
        self.dpop = dpop
        self.dpopNonce = dpopNonce
    }

    /// A `DPoP` header value for one request: a proof with the token's hash (`ath`) and
    /// ``dpopNonce`` (or the nonce the URL's origin last sent the key).
    /// - Throws: ``/OAuthCore/DPoPError`` when the proof cannot be signed.
    public func dpopHeaderValue(httpMethod: String, url: URL) throws -> String {
        try dpop.getHeaderValue(httpMethod: httpMethod, url: url, nonce: dpopNonce, accessToken: accessToken.value)
    }

    /// The `Authorization` header value: `DPoP <token>` (`Bearer <token>` for a token the server did not bind).
    public func authorizationHeaderValue() -> String { accessToken.authorizationHeaderValue }

    /// The token (masked as ``/OAuthCore/AccessToken/description`` masks it), the key's thumbprint and the nonce.
    public override var description: String {
        "DpopAccessTokenInfo(\(accessToken), jkt \(dpop.thumbprint), nonce \(dpopNonce?.maskedPrefix ?? "none"))"
    }

    /// As ``description``.
    public override var debugDescription: String { description }
}

/// The outcome of a request for a HAAPI token (Curity's `HaapiTokenResult`): the token and its
/// key, or the error.
public final class HaapiTokenResult: NSObject, Sendable {
    /// The token and its key, on success.
    public let dPopAccessTokenInfo: DpopAccessTokenInfo?
    /// The error, on failure.
    public let error: (any Error)?

    /// The result of `result`.
    public init(_ result: Result<DpopAccessTokenInfo, any Error>) {
        switch result {
        case .success(let info): (dPopAccessTokenInfo, error) = (info, nil)
        case .failure(let failure): (dPopAccessTokenInfo, error) = (nil, failure)
        }
    }
}
