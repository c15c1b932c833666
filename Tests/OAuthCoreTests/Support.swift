import Foundation
import OAuthCore
import Testing

/// Reads a vector file shipped with the tests.
func vectors(_ name: String) throws -> JSONValue {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors"))
    return try JSONValue(parsing: Data(contentsOf: url))
}

extension JSONValue {
    /// A member as a string, failing the test when absent.
    func string(_ key: String) throws -> String { try #require(self[key]?.stringValue, "missing \(key)") }

    /// A member as a JWK.
    func jwk(_ key: String = "jwk") throws -> JWK { try JWK(json: try #require(self[key]).serialized()) }
}

/// Expects `body` to throw a JOSEError with `code`.
@discardableResult
func expectJOSE(_ code: JOSEError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> JOSEError? {
    do {
        try body()
        Issue.record("expected JOSEError \(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as JOSEError {
        #expect(error.code == code, "got \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected JOSEError \(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// A transport that answers from a script and records what it was sent.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var script: [(TransportRequest) throws -> TransportResponse]
    private(set) var requests: [TransportRequest] = []

    init(_ script: [(TransportRequest) throws -> TransportResponse]) { self.script = script }

    /// Answers every request the same way.
    convenience init(repeating answer: @escaping (TransportRequest) throws -> TransportResponse, count: Int = 10) {
        self.init(Array(repeating: answer, count: count))
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let step: (TransportRequest) throws -> TransportResponse = try lock.withLock {
            requests.append(request)
            guard !script.isEmpty else { throw HTTPTransportError(.connectionFailed, "script exhausted") }
            return script.removeFirst()
        }
        return try step(request)
    }

    var sent: [TransportRequest] { lock.withLock { requests } }
}

func json(_ status: Int, _ body: String, headers: HeaderFields = [:]) -> (TransportRequest) -> TransportResponse {
    { request in
        var headers = headers
        if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        return TransportResponse(status: status, headers: headers, body: Data(body.utf8), url: request.url)
    }
}

/// The form parameters of a request body.
func formParameters(_ request: TransportRequest) -> [String: String] {
    Dictionary(FormURLEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self)), uniquingKeysWith: { a, _ in a })
}
