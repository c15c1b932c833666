import OAuthCore

/// A HAAPI response body that cannot be made into a model: not JSON, or JSON of the wrong
/// shape for its declared type. ``path`` names where (`actions[0].model.fields[1].name`).
///
/// Unknown templates, kinds, field types, operations and problem types are *not* errors: they
/// decode into generic models. A step `type` this SDK does not know is ([`Code.unknownStepType`](doc:OAuthCore/ErrorCode/unknownStepType)):
/// no step model can say what it is.
public struct HaapiModelError: CodedError, Hashable {
    /// The kind of failure.
    public let code: Code
    /// Where in the document: a JSON path such as `actions[2].model.href`, or `$` for the root.
    public let path: String
    /// What was wrong.
    public let message: String

    /// Makes an error.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// What is wrong, then where (a JSON path such as `actions[0].model.fields[2].name`).
    public var errorDescription: String? { "\(message) at \(path)" }
    /// The same for every code: the response does not have the shape its type has in the HAAPI format.
    public var failureReason: String { "The server's response does not have the shape the HAAPI format gives its type." }
    /// Nothing to retry: the server (or a proxy) sent something this SDK cannot read; see ``errorDescription``.
    public var recoverySuggestion: IdsvrErrorHandling { .unrecoverable(action: .introspectCause) }
}

extension ErrorCode where Domain == HaapiModelError {
    /// The body is not JSON.
    public static var notJSON: Self { Self("haapi_not_json") }
    /// A value has the wrong JSON type (an array where an object belongs, a number for a string, ...).
    public static var wrongType: Self { Self("haapi_wrong_type") }
    /// A member the type requires is missing.
    public static var missingMember: Self { Self("haapi_missing_member") }
    /// The step's `type` is not one this SDK knows.
    public static var unknownStepType: Self { Self("haapi_unknown_step_type") }
}
