import Foundation
import OAuthCore

/// The names of the header fields of HAAPI requests and responses (Curity's `HttpHeaderNames`).
public enum HttpHeaderNames {
    /// `Accept`.
    public static let accept = "Accept"
    /// `Authorization`.
    public static let authorization = "Authorization"
    /// `Content-Type`.
    public static let contentType = "Content-Type"
    /// `DPoP`: the proof of possession (RFC 9449).
    public static let dpop = "DPoP"
    /// `Session-Id`: the HAAPI flow's session, sent with every request of the flow.
    public static let haapiSessionId = "Session-Id"
    /// `Set-Session-Id`: the HAAPI flow's session, as the server sets it.
    public static let haapiSetSessionId = "Set-Session-Id"
    /// `DPoP-Nonce`: the nonce a server wants in the next proofs.
    public static let dpopNonce = "DPoP-Nonce"
    /// `WWW-Authenticate`: why a server refused a token (`use_dpop_nonce`, `invalid_token`).
    public static let wwwAuthenticate = "WWW-Authenticate"
    /// `X-Client-Info`: what the app says about itself (name, version).
    public static let clientInfo = "X-Client-Info"
}

/// The media types of HAAPI requests (Curity's `MimeTypes`).
public enum MimeTypes: String, Sendable {
    /// `application/vnd.auth+json`: HAAPI steps (Curity's spelling of the case).
    case happi = "application/vnd.auth+json"
    /// `application/json`.
    case json = "application/json"
    /// `application/x-www-form-urlencoded`: forms.
    case xWwwFormUrlEncoded = "application/x-www-form-urlencoded"
}

/// A request whose header fields can be set: ``/OAuthCore/TransportRequest`` and, on Apple platforms,
/// Foundation's `URLRequest`, which get Curity's helpers (`addAuthorizationHeader(headerValue:)`,
/// `addDpopAccessTokenHeaders(from:httpMethod:url:)`, ...) through it. Each helper sets its field,
/// replacing a value it had.
public protocol HTTPHeaderSettable {
    /// Sets a field, replacing its value; `nil` removes it.
    mutating func setValue(_ value: String?, forHTTPHeaderField field: String)
    /// The value of a field, whatever the case of `field`.
    func value(forHTTPHeaderField field: String) -> String?
}

extension HTTPHeaderSettable {
    /// Sets `Authorization` (`DPoP <token>`, `Bearer <token>`).
    public mutating func addAuthorizationHeader(headerValue: String) {
        setValue(headerValue, forHTTPHeaderField: HttpHeaderNames.authorization)
    }

    /// Sets `DPoP`, a proof made for this request.
    public mutating func addDpopHeader(headerValue: String) {
        setValue(headerValue, forHTTPHeaderField: HttpHeaderNames.dpop)
    }

    /// Sets `X-Client-Info`.
    public mutating func addClientInfoHeader(headerValue: String) {
        setValue(headerValue, forHTTPHeaderField: HttpHeaderNames.clientInfo)
    }

    /// Sets `Authorization` to the token and, for a DPoP-bound token, `DPoP` to a proof of its
    /// key for `httpMethod` and `url` (with the token's hash and ``DpopAccessTokenInfo/dpopNonce``).
    /// - Throws: ``/OAuthCore/DPoPError`` when the proof cannot be signed; the request is then unchanged.
    public mutating func addDpopAccessTokenHeaders(from dpopAccessTokenInfo: DpopAccessTokenInfo, httpMethod: String, url: URL) throws {
        let proof =
            dpopAccessTokenInfo.accessToken.isDPoPBound ? try dpopAccessTokenInfo.dpopHeaderValue(httpMethod: httpMethod, url: url) : nil
        addAuthorizationHeader(headerValue: dpopAccessTokenInfo.authorizationHeaderValue())
        if let proof { addDpopHeader(headerValue: proof) }
    }

    /// Sets `Accept: application/vnd.auth+json`, asking for a HAAPI step.
    public mutating func addHaapiMediaTypeAcceptHeader() {
        setValue(MimeTypes.happi.rawValue, forHTTPHeaderField: HttpHeaderNames.accept)
    }

    /// Sets `Session-Id`, the HAAPI flow's session.
    public mutating func addHaapiSessionIdHeader(_ sessionId: String) {
        setValue(sessionId, forHTTPHeaderField: HttpHeaderNames.haapiSessionId)
    }
}

extension TransportRequest: HTTPHeaderSettable {
    /// Sets the field `field` to `value`, replacing every field of that name; `nil` removes them.
    public mutating func setValue(_ value: String?, forHTTPHeaderField field: String) { headers[field] = value }
    /// The first value of the field `field` (any case), if the request has it.
    public func value(forHTTPHeaderField field: String) -> String? { headers[field] }
}

/// The header fields of a response that HAAPI reads: ``/OAuthCore/TransportResponse`` and, on Apple
/// platforms, Foundation's `URLResponse` (when it is an `HTTPURLResponse`).
extension TransportResponse {
    /// The flow's session the server set (`Set-Session-Id`), if it did.
    public func haapiSessionId() -> String? { headers[HttpHeaderNames.haapiSetSessionId] }
    /// The nonce the server wants in the next DPoP proofs (`DPoP-Nonce`), if it sent one.
    public func dpopNonce() -> String? { headers[HttpHeaderNames.dpopNonce] }
}

#if canImport(Darwin)
    extension URLRequest: HTTPHeaderSettable {}

    extension URLResponse {
        /// The flow's session the server set (`Set-Session-Id`), if this is an HTTP response that sets one.
        public func haapiSessionId() -> String? {
            (self as? HTTPURLResponse)?.value(forHTTPHeaderField: HttpHeaderNames.haapiSetSessionId)
        }

        /// The nonce the server wants in the next DPoP proofs (`DPoP-Nonce`), if this is an HTTP response with one.
        public func dpopNonce() -> String? {
            (self as? HTTPURLResponse)?.value(forHTTPHeaderField: HttpHeaderNames.dpopNonce)
        }
    }
#endif

/// Whether this platform runs HAAPI flows (Curity's `Haapi`).
public final class Haapi: NSObject, Sendable {
    private override init() {}

    /// `true` on every platform the package builds for (iOS 17, macOS 14 and Linux, where
    /// Curity's SDK asks for iOS 14): each has the P-256 keys DPoP proofs are signed with. Whether
    /// the device can also attest is ``AttestationProvider/isSupported``; without attestation a
    /// flow uses the DCR fallback or client credentials.
    public static var isSupported: Bool { true }
}
