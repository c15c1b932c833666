import Foundation
import OAuthCore

/// The authorization response the browser brought back to the redirect URI (RFC 6749
/// §4.1.2), checked against the request it answers.
public struct AuthorizationResponse: Sendable, Hashable {
    /// The authorization code.
    public let code: String
    /// `iss`, when the provider sent it (RFC 9207).
    public let issuer: String?
    /// Every query parameter as received.
    public let parameters: [String: String]

    /// Reads and checks the redirect URL, in the order that keeps forged responses harmless:
    /// `state` first (an unsolicited response is dropped before anything else is believed),
    /// then `iss` (RFC 9207 mix-up defence), then `error`, then `code`.
    ///
    /// - Parameters:
    ///   - url: the URL the browser was redirected to.
    ///   - state: the `state` the request sent.
    ///   - issuer: the provider's issuer; `iss` must equal it when present.
    ///   - requireIssuer: whether `iss` must be present (the metadata's
    ///     `authorization_response_iss_parameter_supported`).
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.stateMismatch`,
    ///   `OIDCError.Code.authorizationIssuerMismatch`, `OIDCError.Code.missingAuthorizationIssuer`,
    ///   or `OIDCError.Code.authorizationError` (the provider's `error`, or no `code`).
    public init(url: URL, state: String, issuer: String, requireIssuer: Bool) throws {
        var parameters: [String: String] = [:]
        for (name, value) in url.queryParameters where parameters[name] == nil { parameters[name] = value }
        self.parameters = parameters
        guard parameters["state"] == state else {
            throw OIDCError(
                .stateMismatch,
                parameters["state"] == nil
                    ? "the authorization response has no state" : "the authorization response's state is not the one this login sent")
        }
        if let received = parameters["iss"] {
            guard received == issuer else {
                throw OIDCError(
                    .authorizationIssuerMismatch, "the authorization response comes from issuer \"\(received)\", expected \"\(issuer)\"")
            }
        } else if requireIssuer {
            throw OIDCError(
                .missingAuthorizationIssuer,
                "the authorization response has no iss, though the provider's metadata says it always sends one (RFC 9207)")
        }
        self.issuer = parameters["iss"]
        if let error = parameters["error"] {
            let description = parameters["error_description"].map { ": \($0)" } ?? ""
            throw OIDCError(.authorizationError, "the provider refused the login with \(error)\(description)", serverError: error)
        }
        guard let code = parameters["code"], !code.isEmpty else {
            throw OIDCError(.authorizationError, "the authorization response has neither a code nor an error")
        }
        self.code = code
    }
}
