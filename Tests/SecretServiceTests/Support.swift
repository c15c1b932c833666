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
}
