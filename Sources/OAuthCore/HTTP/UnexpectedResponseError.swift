import Foundation

/// A server's answer that is neither what was asked for nor an OAuth error: an HTML error page,
/// an empty body, other JSON, plain text, or a busy server's 503 or 429.
///
/// Every endpoint of the package reports such an answer with this one error, which keeps the
/// whole answer (``response``), so an app or a log can show what came back, and whose recovery
/// the status and `Retry-After` decide: a busy or failing server is worth another try; any other
/// answer needs a look at the server.
public struct UnexpectedResponseError: IdsvrError, Hashable {
    /// The answer as received.
    public let response: TransportResponse
    /// What was wrong with it, as one sentence that names where it came from.
    public let detail: String
    /// How many seconds the server asked to wait (`Retry-After`), when it answered with a
    /// failure status and asked; a success status never asks to wait.
    public let retryAfter: Double?

    /// Describes `response`, an answer from `source` ("the token endpoint") that was not `expected`.
    /// - Parameters:
    ///   - response: the answer as received.
    ///   - source: where the answer came from, as words that fit the sentence ("the token endpoint").
    ///   - expected: what a good answer would have been ("an OAuth JSON response").
    ///   - detail: what was wrong, when the answer's status and content type do not say it.
    public init(
        _ response: TransportResponse, from source: String = "the server", expected: String = "an OAuth JSON response",
        detail: String? = nil
    ) {
        self.response = response
        let retryAfter = response.isSuccess ? nil : response.retryAfterSeconds
        self.retryAfter = retryAfter
        let sentence: String
        if let detail {
            sentence = detail
        } else if let retryAfter {
            // Int(exactly:): a whole number in Int's range prints without ".0"; no value traps.
            let seconds = Int(exactly: retryAfter).map(String.init) ?? String(retryAfter)
            sentence = "\(source) answered HTTP \(response.status) and asked to try again in \(seconds) s."
        } else {
            let kind = response.body.isEmpty ? "an empty body" : "content of type \(response.mediaType ?? "none")"
            sentence = "\(source) answered HTTP \(response.status) with \(kind), not \(expected)."
        }
        self.detail = sentence.prefix(1).uppercased() + sentence.dropFirst()
    }

    /// The HTTP status.
    public var statusCode: Int { response.status }
    /// The `Content-Type`, if any.
    public var contentType: String? { response.headers["Content-Type"] }
    /// The body as received.
    public var body: Data { response.body }

    /// `server_busy` when the server said when to come back (`Retry-After`), else `unexpected_response`.
    public var error: String { retryAfter == nil ? "unexpected_response" : "server_busy" }
    /// Who answered what instead of what was expected: "The token endpoint answered HTTP 502 with an HTML
    /// page, not JSON."
    public var errorDescription: String? { detail }

    /// The body's first 200 bytes as text, when there is a body; otherwise the description.
    public var failureReason: String {
        response.bodyOpening.map { "Body begins: " + $0 } ?? errorDescription ?? error
    }

    /// By the status and `Retry-After` (a 503 says when to retry); a look at the cause otherwise.
    public var recoverySuggestion: IdsvrErrorHandling {
        .forServerAnswer(status: statusCode, retryAfter: retryAfter)
    }
}

extension TransportResponse {
    /// The body's first 200 bytes as text, for an error that quotes what came instead of what was
    /// expected; `nil` when there is no body.
    package var bodyOpening: String? {
        body.isEmpty ? nil : String(decoding: body.prefix(200), as: UTF8.self)
    }
}
