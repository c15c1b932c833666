import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OAuthCore

/// Writes one line per answered request to ``DevServerConfiguration/requestLog``:
/// `request: METHOD PATH STATUS`, with `grant_type=TYPE` before the status for a POST to the
/// token endpoint (the path never has its query: it may hold codes and nonces).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let log: @Sendable (PrintableText) -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        var line: PrintableText = "request: \(request.method.rawValue) \(request.uri.path)"
        if request.method == .post, request.uri.path == TokenEndpoint.path {
            // collectBody keeps the collected body on the request, so the endpoint can read it again.
            let body: ByteBuffer
            do { body = try await request.collectBody(upTo: Self.formLimit) } catch {
                // Part of the body is gone: the endpoint must not see the rest as if it were all of it.
                let response = Reply.oauthError("invalid_request", "the request body is too large or unreadable")
                log("\(line) \(response.status.code)")
                return response
            }
            if let grantType = FormURLEncoding.decode(String(buffer: body)).first(where: { $0.0 == "grant_type" })?.1 {
                // Percent-encoded beyond the characters of grant types, so a request cannot write a line of its own.
                line = line + " grant_type=\(grantType.addingPercentEncoding(withAllowedCharacters: Self.grantTypeCharacters) ?? "?")"
            }
        }
        do {
            let response = try await next(request, context)
            log("\(line) \(response.status.code)")
            return response
        } catch {
            // Hummingbird turns the error into the answer: its status, or 500.
            log("\(line) \((error as? any HTTPResponseError)?.status.code ?? 500)")
            throw error
        }
    }

    /// The characters of grant types (`refresh_token`, `urn:ietf:params:oauth:grant-type:device_code`), logged as they are.
    static var grantTypeCharacters: CharacterSet {
        CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:")
    }

    /// The most of a token request's body that is read for its grant type (the endpoint's own limit).
    static var formLimit: Int { 64 * 1024 }
}
