import Foundation
import OAuthCore

/// A model that keeps the JSON it was made from, whole: members the typed model does not
/// know are still there (the seeds' `RawJsonRepresentable`).
public protocol RawJsonRepresentable: Sendable {
    /// The JSON the model was decoded from, exactly as received.
    var rawJSON: JSONValue { get }
}

extension RawJsonRepresentable {
    /// The raw JSON as a dictionary, as the seeds' `rawJsonDictionary`.
    public var rawJsonDictionary: [String: JSONValue] { rawJSON.objectValue ?? [:] }

    /// The raw JSON serialized again (sorted keys): decoding and encoding lose nothing.
    public func jsonData() -> Data { rawJSON.serialized() }
}
