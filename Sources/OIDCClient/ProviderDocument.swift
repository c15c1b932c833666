import Foundation
import OAuthCore

/// Fetches one of the provider's public JSON documents (discovery, JWKS).
enum ProviderDocument {
    /// GETs `url` and returns the body of its 200 answer.
    /// - Parameters:
    ///   - name: what the document is, for the error message ("the discovery document").
    ///   - failure: the error code when no 200 answer arrives.
    static func fetch(_ url: URL, name: String, failure: OIDCError.Code, transport: any HTTPTransport) async throws -> Data {
        let response: TransportResponse
        do {
            response = try await transport.send(TransportRequest(url: url, headers: ["Accept": "application/json"]))
        } catch {
            throw OIDCError(failure, "\(name) \(url.absoluteString) could not be fetched", cause: error)
        }
        guard response.status == 200 else {
            throw OIDCError(failure, "\(name) \(url.absoluteString) answered HTTP \(response.status)")
        }
        return response.body
    }
}
