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

    /// A JSON response.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, type: String = "application/json", headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: value.serialized())))
    }

    /// An OAuth error response (RFC 6749 §5.2).
    static func oauthError(_ error: String, _ description: String, status: HTTPResponse.Status = .badRequest, headers: HTTPFields = [:]) -> Response {
        json(["error": .string(error), "error_description": .string(description)], status: status, headers: headers)
    }

    /// An HTML page.
    static func html(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// A redirect.
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}

extension HTTPField.Name {
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
        return Dictionary(FormURLEncoding.decode(text), uniquingKeysWith: { first, _ in first })
    }

    /// The query parameters.
    var query: [String: String] {
        Dictionary(FormURLEncoding.decode(uri.query ?? ""), uniquingKeysWith: { first, _ in first })
    }
}
