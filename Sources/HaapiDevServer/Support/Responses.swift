import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OAuthCore

/// Response builders shared by the routes.
enum Reply {
    /// The HAAPI step media type.
    static let authMediaType = "application/vnd.auth+json"
    /// The problem media type.
    static let problemMediaType = "application/problem+json"

    /// A JSON response. A HAAPI step or problem is worded in the request's language
    /// (``ServerLanguage``), which `Content-Language` names.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, type: String = "application/json", headers: HTTPFields = [:])
        -> Response
    {
        var headers = headers
        var value = value
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        if type == authMediaType || type == problemMediaType {
            value = ServerTexts.localized(value, to: ServerLanguage.current)
            headers[.contentLanguage] = ServerLanguage.current
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: value.serialized())))
    }

    /// An OAuth error response (RFC 6749 §5.2).
    static func oauthError(_ error: String, _ description: String, status: HTTPResponse.Status = .badRequest, headers: HTTPFields = [:])
        -> Response
    {
        json(["error": .string(error), "error_description": .string(description)], status: status, headers: headers)
    }

    /// An HTML page.
    /// A page: never framed (clickjacking of the login and consent forms), never cached (they
    /// carry a session), no referrer to the next site, no content sniffing, and no script or
    /// resource loads at all (the pages are plain forms with inline style).
    static func html(_ body: Markup, status: HTTPResponse.Status = .ok, showingImages: Bool = false) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .contentLanguage: ServerLanguage.current,
        ]
        headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'"
            + (showingImages ? "; img-src data:" : "")
        headers[.xFrameOptions] = "DENY"
        headers[.referrerPolicy] = "no-referrer"
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body.description)))
    }

    /// A redirect (never cached: it may carry a code or a session).
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store", .referrerPolicy: "no-referrer"])
    }

    /// The answer to a body over the limit, whatever the endpoint.
    static func payloadTooLarge() -> Response { OAuthFailure.payloadTooLarge.response() }

    /// Whether `error` is a body over the limit (Hummingbird's collect(upTo:)).
    static func isTooLarge(_ error: any Error) -> Bool { error is NIOTooManyBytesError }
}

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let dpop = Self("DPoP")!
    static let dpopNonce = Self("DPoP-Nonce")!
    static let sessionID = Self("Session-Id")!
    static let setSessionID = Self("Set-Session-Id")!
}

extension Request {
    /// The form parameters of a form-encoded body, or the query of a GET.
    func formParameters(limit: Int = 64 * 1024) async throws -> [String: String] {
        let buffer = try await body.collect(upTo: limit)
        let text = String(buffer: buffer)
        return FormURLEncoding.firstValues(text)
    }

    /// The query parameters.
    var query: [String: String] {
        FormURLEncoding.firstValues(uri.query ?? "")
    }
}
