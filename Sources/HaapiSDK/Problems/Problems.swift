import Foundation
import OAuthCore

/// A problem's `type`: an absolute URI; the ones Curity's servers send have a case each,
/// others are ``other(value:)``.
@frozen public enum ProblemType: Codable, Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    case authenticationFailedProblem
    case invalidInputProblem
    case incorrectCredentialsProblem
    case errorAuthorizationResponseProblem
    case unexpectedProblem
    case tooManyAttemptsProblem
    case genericUserProblem
    case sessionAndAccessTokenMismatchProblem
    /// A type this SDK has no case for, as received.
    case other(value: String)

    /// The type named `rawValue` (never `nil`: an unknown type is ``other(value:)``).
    public init?(rawValue: String) { self = Self.named(rawValue) ?? .other(value: rawValue) }
    /// The type named `rawValue`.
    public init(uri rawValue: String) { self = Self.named(rawValue) ?? .other(value: rawValue) }
    public var rawValue: String { knownName ?? { if case .other(let value) = self { return value } else { return "" } }() }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws { self.init(uri: try String(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try rawValue.encode(to: encoder) }

    /// Whether the user can correct the input and retry on the same step.
    public var isRetryableOnSameStep: Bool {
        [.invalidInputProblem, .incorrectCredentialsProblem, .authenticationFailedProblem, .tooManyAttemptsProblem].contains(self)
    }
}

extension ProblemType: WireNames {
    static let knownCases: [ProblemType] = [.authenticationFailedProblem, .invalidInputProblem, .incorrectCredentialsProblem, .errorAuthorizationResponseProblem, .unexpectedProblem, .tooManyAttemptsProblem, .genericUserProblem, .sessionAndAccessTokenMismatchProblem]
    var knownName: String? {
        switch self {
        case .authenticationFailedProblem: return "https://curity.se/problems/authentication-failed"
        case .invalidInputProblem: return "https://curity.se/problems/invalid-input"
        case .incorrectCredentialsProblem: return "https://curity.se/problems/incorrect-credentials"
        case .errorAuthorizationResponseProblem: return "https://curity.se/problems/error-authorization-response"
        case .unexpectedProblem: return "https://curity.se/problems/unexpected"
        case .tooManyAttemptsProblem: return "https://curity.se/problems/too-many-attempts"
        case .genericUserProblem: return "https://curity.se/problems/generic-user-error"
        case .sessionAndAccessTokenMismatchProblem: return "https://curity.se/problems/mismatch-between-session-and-access-token"
        default: return nil
        }
    }
}

/// A problem (`application/problem+json`): the server refused the last request. Switch on the
/// concrete type: ``InvalidInputProblem``, ``AuthorizationProblem``, or ``Problem`` for the rest.
public protocol ProblemRepresentation: HaapiResponse {
    /// Rendering hints.
    var metadata: Metadata? { get }
    /// The problem type.
    var type: ProblemType { get }
    /// A short summary.
    var title: Message? { get }
    /// Messages to show.
    var messages: [UserMessage] { get }
    /// Links to offer (`authorization-response` for OAuth errors).
    var links: [Link] { get }
}

extension ProblemRepresentation {
    /// The title's text, if there is a title.
    public var titleText: String? { title?.literal }
    /// A code, when the server gives one.
    public var code: String? { rawJSON["code"]?.stringValue }

    /// Decodes a document as a problem of this type (each problem's `init(from:)`).
    static func decoded(_ decoder: any Decoder) throws -> Self {
        let problem = try HaapiModel.problem(from: JSONValue(from: decoder))
        guard let typed = problem as? Self else {
            throw HaapiModelError(.wrongType, path: "$", "the document is a \(Swift.type(of: problem)), not a \(Self.self)")
        }
        return typed
    }
}

/// The members every problem has, read once.
struct ProblemParts {
    let type: ProblemType
    let title: Message?
    let messages: [UserMessage]
    let links: [Link]
    let metadata: Metadata?
    let raw: JSONValue

    /// The parts of a problem made from values; `extra` are the type's own wire members.
    init(
        type: ProblemType, metadata: Metadata?, title: Message?, messages: [UserMessage], links: [Link], rawJsonString: String?,
        extra: [String: JSONValue] = [:]
    ) {
        (self.type, self.metadata, self.title, self.messages, self.links) = (type, metadata, title, messages, links)
        if let text = rawJsonString, let given = try? JSONValue(parsing: Data(text.utf8)) {
            raw = given
        } else {
            var members = extra
            members["type"] = .string(type.rawValue)
            members["title"] = title?.json
            members["metadata"] = metadata?.rawJSON
            if !messages.isEmpty { members["messages"] = .array(messages.map(\.rawJSON)) }
            if !links.isEmpty { members["links"] = .array(links.map(\.rawJSON)) }
            raw = .object(members)
        }
    }

    init(_ reader: JSONReader) throws {
        type = ProblemType(uri: try reader.string("type"))
        title = try reader.optionalMessage("title")
        messages = try reader.objects("messages", UserMessage.init)
        links = try reader.objects("links", Link.init)
        metadata = try reader.optionalObject("metadata").map(Metadata.init)
        raw = reader.raw
    }
}

/// A problem with no members beyond the common ones: incorrect-credentials,
/// authentication-failed, too-many-attempts, generic-user-error, unexpected,
/// mismatch-between-session-and-access-token, and every unknown type.
public struct Problem: ProblemRepresentation, Hashable {
    public let metadata: Metadata?
    public let messages: [UserMessage]
    public let links: [Link]
    public let title: Message?
    public let type: ProblemType
    public let rawJSON: JSONValue

    init(_ parts: ProblemParts) {
        (type, title, messages, links, metadata, rawJSON) = (parts.type, parts.title, parts.messages, parts.links, parts.metadata, parts.raw)
    }

    public init(from decoder: any Decoder) throws { self = try Self.decoded(decoder) }
    public func encode(to encoder: any Encoder) throws { try rawJSON.encode(to: encoder) }
    public var rawJsonString: String? { rawJSON.jsonText }
}

/// `invalid-input`: some fields were wrong (the seeds' `InvalidInputProblem`).
public struct InvalidInputProblem: ProblemRepresentation, Hashable {
    /// One wrong field (the seeds' `InvalidInputProblem.InvalidField`).
    public struct InvalidField: Codable, Hashable, Sendable {
        /// The field's name.
        public let name: String
        /// `missing` or `invalidValue`, or another reason.
        public let reason: String?
        /// Text to show next to the field (empty when the server gave none).
        public let detail: Message

        init(_ reader: JSONReader) throws {
            name = try reader.string("name")
            reason = try reader.optionalString("reason")
            detail = try reader.optionalMessage("detail") ?? Message(literal: "")
        }

        init(name: String, reason: String?, detail: Message) {
            (self.name, self.reason, self.detail) = (name, reason, detail)
        }

        public init(from decoder: any Decoder) throws { try self.init(JSONReader(decoding: decoder)) }
        public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
    }

    public let metadata: Metadata?
    public let messages: [UserMessage]
    public let links: [Link]
    public let title: Message?
    public let type: ProblemType
    /// `error_description`, when the server gives one.
    public let errorDescription: String?
    /// The wrong fields.
    public let invalidFields: [InvalidField]
    public let rawJSON: JSONValue

    init(_ parts: ProblemParts, invalidFields: [InvalidField], errorDescription: String?) {
        (type, title, messages, links, metadata, rawJSON) = (parts.type, parts.title, parts.messages, parts.links, parts.metadata, parts.raw)
        (self.invalidFields, self.errorDescription) = (invalidFields, errorDescription)
    }

    init(_ parts: ProblemParts, reader: JSONReader) throws {
        (type, title, messages, links, metadata, rawJSON) = (parts.type, parts.title, parts.messages, parts.links, parts.metadata, parts.raw)
        invalidFields = try reader.objects("invalidFields", InvalidField.init)
        errorDescription = try reader.optionalString("error_description")
    }

    public init(from decoder: any Decoder) throws { self = try Self.decoded(decoder) }
    public func encode(to encoder: any Encoder) throws { try rawJSON.encode(to: encoder) }
    public var rawJsonString: String? { rawJSON.jsonText }

    /// The problem about the field named `name`, if any.
    public func invalidField(named name: String) -> InvalidField? { invalidFields.first { $0.name == name } }
}

/// `error-authorization-response`: the flow ended with an OAuth error (the seeds' `AuthorizationProblem`).
public struct AuthorizationProblem: ProblemRepresentation, Hashable {
    public let metadata: Metadata?
    public let messages: [UserMessage]
    public let links: [Link]
    public let title: Message?
    public let type: ProblemType
    /// The OAuth `error`, such as `access_denied` (`access_denied` when the server gave none).
    public let error: String
    /// `error_description`.
    public let errorDescription: String?
    /// The issuer (RFC 9207).
    public let iss: String?
    public let rawJSON: JSONValue

    init(_ parts: ProblemParts, error: String, errorDescription: String?) {
        (type, title, messages, links, metadata, rawJSON) = (parts.type, parts.title, parts.messages, parts.links, parts.metadata, parts.raw)
        (self.error, self.errorDescription, iss) = (error, errorDescription, parts.raw["iss"]?.stringValue)
    }

    init(_ parts: ProblemParts, reader: JSONReader) throws {
        (type, title, messages, links, metadata, rawJSON) = (parts.type, parts.title, parts.messages, parts.links, parts.metadata, parts.raw)
        error = try reader.optionalString("error") ?? "access_denied"
        errorDescription = try reader.optionalString("error_description")
        iss = try reader.optionalString("iss")
    }

    public init(from decoder: any Decoder) throws { self = try Self.decoded(decoder) }
    public func encode(to encoder: any Encoder) throws { try rawJSON.encode(to: encoder) }
    public var rawJsonString: String? { rawJSON.jsonText }
}
