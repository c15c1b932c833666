import Foundation

/// Sends one HTTP request and returns its response, exactly as the server sent it.
///
/// The seam between the protocol code and the network: OAuth, DPoP and HAAPI code depends
/// only on this protocol, so tests and apps can put any transport (or middleware, such as
/// ``DPoPTransport``) behind it. Implementations must not follow redirects (the protocols
/// need to see them), must honour ``TransportRequest/timeout`` and task cancellation, and
/// must throw ``HTTPTransportError`` for failures below HTTP. Any HTTP status, 4xx and 5xx
/// included, is a response, not an error.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// HTTP header fields: ordered, repeatable, compared without regard to case.
public struct HeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order, names as given.
    public private(set) var fields: [(name: String, value: String)]

    /// Empty header fields.
    public init() { fields = [] }

    /// Fields written as a literal, in order; a name may come more than once.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`; setting replaces every field of that name (`nil` removes them).
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let newValue { fields.append((name: name, value: newValue)) }
        }
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// Adds a field, keeping any other of the same name.
    public mutating func add(name: String, value: String) { fields.append((name: name, value: value)) }

    /// The fields in order, names as given.
    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> { fields.makeIterator() }

    /// Whether the two have the same fields in the same order, names compared without regard to case.
    public static func == (lhs: HeaderFields, rhs: HeaderFields) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name.lowercased() == $1.name.lowercased() && $0.value == $1.value }
    }

    /// Hashes what ``==(_:_:)`` compares: each name in lower case, and its value.
    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }
}

/// An HTTP request to send through an ``HTTPTransport``.
public struct TransportRequest: Sendable, Hashable {
    /// The method, upper case: `GET`, `POST`, ...
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// The header fields.
    public var headers: HeaderFields
    /// The body, if any.
    public var body: Data?
    /// The longest the whole exchange may take, in seconds; `nil` uses the transport's default.
    public var timeout: TimeInterval?

    /// Makes a request.
    public init(
        method: String = "GET", url: URL, headers: HeaderFields = [:], body: Data? = nil, timeout: TimeInterval? = nil
    ) {
        self.method = method.uppercased()
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A POST of `application/x-www-form-urlencoded` parameters (RFC 6749 §4.1.3 and friends).
    public static func form(
        _ url: URL, parameters: [(String, String)], headers: HeaderFields = [:], timeout: TimeInterval? = nil
    ) -> TransportRequest {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return TransportRequest(
            method: "POST", url: url, headers: headers, body: Data(FormURLEncoding.encode(parameters).utf8),
            timeout: timeout)
    }
}

/// An HTTP response as received.
public struct TransportResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: HeaderFields
    /// The body (empty when there was none).
    public var body: Data
    /// The URL that was requested.
    public var url: URL
    /// The status line as it came (`HTTP/1.1 404 Not Found`, `HTTP/2 404`), when the transport
    /// sees it; `nil` where it does not (URLSession). Server-sent: escape it before showing it.
    public var statusLine: String?

    /// Makes a response.
    public init(status: Int, headers: HeaderFields = [:], body: Data = Data(), url: URL, statusLine: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.statusLine = statusLine
    }

    /// The media type of `Content-Type`, lower case and without parameters (`application/json`).
    public var mediaType: String? { Self.mediaType(of: headers["Content-Type"]) }

    /// The media type of a `Content-Type` value, lower case and without parameters.
    package static func mediaType(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The `Retry-After` delay in seconds (RFC 9110 §10.2.3): a number of seconds, or an
    /// HTTP date turned into the seconds from `now` (0 for a date already past); a longer one
    /// than ``longestRetryAfter`` is cut to it, so that no caller waits, or converts, an absurd number.
    public func retryAfterSeconds(now: Date = Date()) -> Double? {
        guard let value = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value) { return seconds >= 0 && seconds.isFinite ? min(seconds, Self.longestRetryAfter) : nil }
        guard let date = Self.httpDate(value) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), Self.longestRetryAfter)
    }

    /// The longest `Retry-After` delay ``retryAfterSeconds(now:)`` gives: a day.
    public static let longestRetryAfter: TimeInterval = 24 * 3600

    /// The `Retry-After` delay in seconds from now; see ``retryAfterSeconds(now:)``.
    public var retryAfterSeconds: Double? { retryAfterSeconds() }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or one of the two obsolete forms
    /// recipients must accept (RFC 9110 §5.6.7).
    static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// The body as UTF-8 text (invalid bytes replaced), for messages and logs.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

extension URL {
    /// This URL with `parameters` added to its query (after any it has, before any fragment),
    /// form-encoded with a space as `%20`, which every form decoder and URL parser reads the same.
    /// The URL itself when it has no parseable components.
    package func appendingQuery(_ parameters: [(String, String)]) -> URL {
        guard !parameters.isEmpty, var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else { return self }
        let added = FormURLEncoding.encode(parameters).replacingOccurrences(of: "+", with: "%20")
        components.percentEncodedQuery = [components.percentEncodedQuery, added].compactMap { $0 }.filter { !$0.isEmpty }.joined(
            separator: "&")
        return components.url ?? self
    }

    /// The form-decoded parameters of the query, in order (a name may repeat).
    package var queryParameters: [(String, String)] {
        FormURLEncoding.decode(URLComponents(url: self, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
    }

    /// The value of the query's first parameter called `name`, form-decoded.
    package func queryParameter(_ name: String) -> String? { queryParameters.first { $0.0 == name }?.1 }
}

/// `application/x-www-form-urlencoded` encoding, as HTML and OAuth define it.
package enum FormURLEncoding {
    private static let unreserved = CharacterSet(
        charactersIn:
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Encodes one name or value: unreserved characters stay, space becomes `+`, the rest is percent-encoded.
    package static func escape(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: unreserved.union(CharacterSet(charactersIn: " "))) ?? "")
            .replacingOccurrences(of: " ", with: "+")
    }

    /// Encodes parameters in order.
    package static func encode(_ parameters: [(String, String)]) -> String {
        parameters.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// Each name's first value in a form body or query string, decoded as ``decode(_:)`` does:
    /// how a server reads parameters it expects once.
    package static func firstValues(_ text: String) -> [String: String] {
        Dictionary(decode(text), uniquingKeysWith: { first, _ in first })
    }

    /// Decodes a form body or query string; malformed percent escapes are kept as written.
    package static func decode(_ text: String) -> [(String, String)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }

    /// Decodes one form-encoded name or value (`+` is a space); a malformed percent escape is
    /// kept as written.
    package static func unescape<S: StringProtocol>(_ part: S) -> String {
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
