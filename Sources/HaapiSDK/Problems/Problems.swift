import OAuthCore

/// A problem's `type`: an absolute URI.
public struct ProblemType: OpenName {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let invalidInput: Self = "https://curity.se/problems/invalid-input"
    public static let incorrectCredentials: Self = "https://curity.se/problems/incorrect-credentials"
    public static let authenticationFailed: Self = "https://curity.se/problems/authentication-failed"
    public static let tooManyAttempts: Self = "https://curity.se/problems/too-many-attempts"
    public static let genericUserError: Self = "https://curity.se/problems/generic-user-error"
    public static let unexpected: Self = "https://curity.se/problems/unexpected"
    public static let mismatchBetweenSessionAndAccessToken: Self =
        "https://curity.se/problems/mismatch-between-session-and-access-token"
    public static let errorAuthorizationResponse: Self = "https://curity.se/problems/error-authorization-response"

    /// Whether the user can correct the input and retry on the same step.
    public var isRetryableOnSameStep: Bool {
        [.invalidInput, .incorrectCredentials, .authenticationFailed, .tooManyAttempts].contains(self)
    }
}

/// What every problem has (RFC 7807 members and HAAPI's additions).
public struct ProblemContent: RawJsonRepresentable, Hashable {
    /// The problem type.
    public let type: ProblemType
    /// A short summary.
    public let title: String?
    /// A code, when the server gives one.
    public let code: String?
    /// Messages to show.
    public let messages: [UserMessage]
    /// Links to offer (`authorization-response` for OAuth errors).
    public let links: [Link]
    /// Rendering hints.
    public let metadata: Metadata?
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        type = ProblemType(rawValue: try reader.string("type"))
        title = try reader.optionalString("title")
        code = try reader.optionalString("code")
        messages = try reader.objects("messages", UserMessage.init)
        links = try reader.objects("links", Link.init)
        metadata = try reader.optionalObject("metadata").map(Metadata.init)
        rawJSON = reader.raw
    }
}

/// A problem (`application/problem+json`): the server refused the last request. Switch on the
/// concrete type: ``InvalidInputProblem``, ``AuthorizationProblem``, or ``Problem`` for the rest.
public protocol ProblemRepresentation: RawJsonRepresentable {
    /// The members every problem has.
    var problemContent: ProblemContent { get }
}

extension ProblemRepresentation {
    public var type: ProblemType { problemContent.type }
    public var title: String? { problemContent.title }
    public var messages: [UserMessage] { problemContent.messages }
    public var links: [Link] { problemContent.links }
    public var rawJSON: JSONValue { problemContent.rawJSON }
}

/// A problem with no members beyond the common ones: incorrect-credentials,
/// authentication-failed, too-many-attempts, generic-user-error, unexpected,
/// mismatch-between-session-and-access-token, and every unknown type.
public struct Problem: ProblemRepresentation, Hashable {
    public let problemContent: ProblemContent
}

/// `invalid-input`: some fields were wrong (the seeds' `InvalidInputProblem`).
public struct InvalidInputProblem: ProblemRepresentation, Hashable {
    /// One wrong field (the seeds' `InvalidInputProblem.InvalidField`).
    public struct InvalidField: Sendable, Hashable {
        /// The field's name.
        public let name: String
        /// `missing` or `invalidValue`, or another reason.
        public let reason: String?
        /// Text to show next to the field.
        public let detail: String?
    }

    public let problemContent: ProblemContent
    /// The wrong fields.
    public let invalidFields: [InvalidField]

    /// The problem about the field named `name`, if any.
    public func invalidField(named name: String) -> InvalidField? { invalidFields.first { $0.name == name } }
}

/// `error-authorization-response`: the flow ended with an OAuth error (the seeds' `AuthorizationProblem`).
public struct AuthorizationProblem: ProblemRepresentation, Hashable {
    public let problemContent: ProblemContent
    /// The OAuth `error`, such as `access_denied`.
    public let error: String?
    /// `error_description`.
    public let errorDescription: String?
    /// The issuer (RFC 9207).
    public let iss: String?
}
