import Foundation

/// Fetches one of the provider's public JSON documents (discovery, JWKS).
enum ProviderDocument {
    /// GETs `url` and returns the body of its 200 answer (whatever its media type: a JSON
    /// document labelled `text/plain` is still read, and its parser judges it).
    /// - Parameters:
    ///   - name: what the document is, for the error message ("the discovery document").
    ///   - failure: the error code when no 200 answer arrives; its ``OIDCError/cause`` is the
    ///     ``HTTPTransportError``, or an ``UnexpectedResponseError`` keeping the answer's status and `Retry-After`.
    static func fetch(_ url: URL, name: String, failure: OIDCError.Code, transport: any HTTPTransport) async throws -> Data {
        let response: TransportResponse
        do {
            response = try await transport.send(TransportRequest(url: url, headers: ["Accept": "application/json"]))
        } catch {
            // A login cancelled while the provider's documents load is cancelled, not a provider failure.
            if Task.isCancelled || error is CancellationError || (error as? HTTPTransportError)?.code == .cancelled {
                throw OIDCError(.cancelled, "the task was cancelled while \(name) loaded", cause: error)
            }
            let reason = (error as? HTTPTransportError)?.plainReason ?? String(describing: error)
            throw OIDCError(failure, "\(name) \(url.absoluteString) could not be fetched: \(reason)", cause: error)
        }
        guard response.status == 200 else {
            throw OIDCError(
                failure, "\(name) \(url.absoluteString) answered HTTP \(response.status)",
                cause: UnexpectedResponseError(response, from: name, expected: "HTTP 200"))
        }
        return response.body
    }
}
