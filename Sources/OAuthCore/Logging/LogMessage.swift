/// A log message whose sensitive parts are marked, so the logger can mask them.
///
/// Write messages with string interpolation and mark secrets:
/// `"token response for \(sensitive: accessToken)"`, `"headers: \(headers: request.headers)"`.
public struct LogMessage: ExpressibleByStringInterpolation, Sendable {
    enum Part: Sendable {
        case literal(String)
        case sensitive(String)
    }

    var parts: [Part]

    /// A message of literal text only: nothing in it is sensitive.
    public init(stringLiteral value: String) { parts = [.literal(value)] }

    /// The message an interpolated string builds, its sensitive values marked.
    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    /// Whether any part is sensitive.
    var hasSensitiveParts: Bool {
        parts.contains { if case .sensitive = $0 { return true } else { return false } }
    }

    /// The text, with sensitive parts replaced by ``HaapiLogger/maskText`` when `masked`.
    public func rendered(masked: Bool) -> String {
        parts.map { part in
            switch part {
            case .literal(let text): return text
            case .sensitive(let text): return masked ? HaapiLogger.maskText : text
            }
        }.joined()
    }

    /// The interpolation that builds a ``LogMessage``.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var parts: [Part] = []

        /// An empty message; the capacity hints are not used.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// Appends literal text, which is never masked.
        public mutating func appendLiteral(_ literal: String) { parts.append(.literal(literal)) }

        /// A value that is not sensitive.
        public mutating func appendInterpolation(_ value: some Any) { parts.append(.literal("\(value)")) }

        /// A secret: token, code, password, key, proof. `nil` prints as `nil`.
        public mutating func appendInterpolation(sensitive value: String?) {
            parts.append(value.map { .sensitive($0) } ?? .literal("nil"))
        }

        /// Header fields, with the values of credential-carrying headers marked sensitive.
        public mutating func appendInterpolation(headers: HeaderFields) {
            appendLiteral("[")
            for (index, field) in headers.enumerated() {
                if index > 0 { appendLiteral(", ") }
                appendLiteral("\(field.name): ")
                if Sensitive.headerNames.contains(field.name.lowercased()) {
                    parts.append(.sensitive(field.value))
                } else {
                    appendLiteral(field.value)
                }
            }
            appendLiteral("]")
        }

        /// Form or query parameters, with credential-carrying values marked sensitive.
        public mutating func appendInterpolation(parameters: [(String, String)]) {
            for (index, parameter) in parameters.enumerated() {
                if index > 0 { appendLiteral("&") }
                appendLiteral("\(parameter.0)=")
                if Sensitive.parameterNames.contains(parameter.0.lowercased()) {
                    parts.append(.sensitive(parameter.1))
                } else {
                    appendLiteral(parameter.1)
                }
            }
        }
    }
}

/// The names whose values are always treated as secrets.
enum Sensitive {
    static let headerNames: Set<String> = [
        "authorization", "proxy-authorization", "dpop", "cookie", "set-cookie", "session-id", "set-session-id",
    ]
    static let parameterNames: Set<String> = [
        "password", "client_secret", "code", "code_verifier", "refresh_token", "access_token", "id_token",
        "client_assertion", "assertion", "token", "challenge_response", "cat", "otp", "_resume_nonce", "id_token_hint",
    ]
}
