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
