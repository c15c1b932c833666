import Foundation
import OAuthCore

/// A transport of the test kit that keeps the requests it was sent, so that tests can check
/// what reached it and how often.
public protocol RecordsRequests {
    /// The requests sent so far, in the order they arrived.
    var sent: [TransportRequest] { get }
}

extension RecordsRequests {
    /// The requests sent so far to `path` (the URL's path, exactly).
    public func sent(to path: String) -> [TransportRequest] { sent.filter { $0.url.path == path } }

    /// How many requests were sent to `path` (the URL's path, exactly).
    public func count(to path: String) -> Int { sent(to: path).count }

    /// How many requests sent so far satisfy `predicate`.
    public func count(where predicate: (TransportRequest) -> Bool) -> Int { sent.filter(predicate).count }
}

extension TransportRequest {
    /// The body read as `application/x-www-form-urlencoded` parameters; the first value of a
    /// repeated name wins, as the servers these fakes stand for read them.
    public var form: [String: String] {
        FormURLEncoding.firstValues(String(decoding: body ?? Data(), as: UTF8.self))
    }

    /// The URL's query parameters, form-decoded as a server reads them (`+` is a space); the
    /// first value of a repeated name wins.
    public var query: [String: String] {
        FormURLEncoding.firstValues(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
    }

    /// Whether this is a refresh-token grant (RFC 6749 §6).
    public var isRefreshTokenGrant: Bool { form["grant_type"] == "refresh_token" }

    /// The `DPoP` proof this request carries, if its signature verifies with the key its own
    /// header names (RFC 9449 §4.3), with that key's thumbprint: what a server binds tokens to.
    /// Claims such as `htu` or `ath` are left to the caller, which knows what it expects.
    public var verifiedDPoPProof: (proof: CompactJWS, thumbprint: String)? {
        guard let text = headers["DPoP"], let proof = try? CompactJWS(text), let jwk = proof.header.jwk,
            (try? proof.verify(with: JWSVerificationKey(jwk: jwk))) != nil, let thumbprint = try? jwk.thumbprint()
        else { return nil }
        return (proof, thumbprint)
    }
}

extension TransportResponse {
    /// A JSON answer to `request`, with `type` as its `Content-Type`.
    public static func json(
        _ value: JSONValue, status: Int = 200, type: String = "application/json", headers: HeaderFields = [:],
        to request: TransportRequest
    ) -> TransportResponse {
        var headers = headers
        headers["Content-Type"] = type
        return TransportResponse(status: status, headers: headers, body: value.serialized(), url: request.url)
    }

    /// A text answer to `request`; a `nil` type sends no `Content-Type` at all.
    public static func text(
        _ body: String, status: Int = 200, type: String? = "text/plain", headers: HeaderFields = [:], to request: TransportRequest
    ) -> TransportResponse {
        var headers = headers
        if let type { headers["Content-Type"] = type }
        return TransportResponse(status: status, headers: headers, body: Data(body.utf8), url: request.url)
    }
}
