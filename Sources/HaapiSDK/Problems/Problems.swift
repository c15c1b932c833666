import Foundation
import OAuthCore

/// A problem's `type`: an absolute URI; the ones Curity's servers send have a case each,
/// others are ``other(value:)``.
@frozen public enum ProblemType: Codable, Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    /// `authentication-failed`: the authentication failed; the attempt is over.
    case authenticationFailedProblem
    /// `invalid-input`: some fields were wrong (``InvalidInputProblem``).
    case invalidInputProblem
    /// `incorrect-credentials`: the user name or password was wrong.
    case incorrectCredentialsProblem
    /// `error-authorization-response`: the flow ended with an OAuth error (``AuthorizationProblem``).
    case errorAuthorizationResponseProblem
    /// `unexpected`: the server failed.
    case unexpectedProblem
    /// `too-many-attempts`: the user tried too often.
    case tooManyAttemptsProblem
    /// `generic-user-error`: an error to show the user.
    case genericUserProblem
    /// `mismatch-between-session-and-access-token`: the HAAPI token no longer matches the flow's session.
    case sessionAndAccessTokenMismatchProblem
    /// A type this SDK has no case for, as received.
    case other(value: String)

    /// The type named `rawValue` (never `nil`: an unknown type is ``other(value:)``).
    public init?(rawValue: String) { self = Self.named(rawValue) ?? .other(value: rawValue) }
    /// The type named `rawValue`.
    public init(uri rawValue: String) { self = Self.named(rawValue) ?? .other(value: rawValue) }
    /// The type URI (an unknown type's as received).
    public var rawValue: String { knownName ?? { if case .other(let value) = self { return value } else { return "" } }() }
    /// The type URI.
    public var description: String { rawValue }

    /// Decodes a type from its URI (any string).
    public init(from decoder: any Decoder) throws { self.init(uri: try String(from: decoder)) }
    /// Encodes the type URI.
    public func encode(to encoder: any Encoder) throws { try rawValue.encode(to: encoder) }

    /// Whether the user can correct the input and retry on the same step.
    public var isRetryableOnSameStep: Bool {
        [.invalidInputProblem, .incorrectCredentialsProblem, .authenticationFailedProblem, .tooManyAttemptsProblem].contains(self)
    }
}

extension ProblemType: WireNames {
    static let knownCases: [ProblemType] = [
        .authenticationFailedProblem, .invalidInputProblem, .incorrectCredentialsProblem, .errorAuthorizationResponseProblem,
        .unexpectedProblem, .tooManyAttemptsProblem, .genericUserProblem, .sessionAndAccessTokenMismatchProblem,
    ]
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
        try decodeModel(decoder, by: HaapiModel.problem(from:), at: "$") { "a \(Swift.type(of: $0))" }
    }
}

/// Not API: the members every problem has, read once; each problem keeps it whole and hands
/// its members out (a problem's synthesized `==` and hash come from here and its own members).
public struct _ProblemParts: Sendable, Hashable {
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
        var members = extra
        members["type"] = .string(type.rawValue)
        members["title"] = title?.json
        members["metadata"] = metadata?.rawJSON
        members.setList("messages", messages.map(\.rawJSON))
        members.setList("links", links.map(\.rawJSON))
        raw = JSONValue(text: rawJsonString) ?? .object(members)
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

extension ProblemRepresentation where Self: _PartsHolder, _Parts == _ProblemParts {
    /// The problem's type URI.
    public var type: ProblemType { _parts.type }
    /// A short summary, if the server gave one.
    public var title: Message? { _parts.title }
    /// Rendering hints, if the server sent any.
    public var metadata: Metadata? { _parts.metadata }
    /// The messages to show, in order.
    public var messages: [UserMessage] { _parts.messages }
    /// The links to offer, in order.
    public var links: [Link] { _parts.links }
    /// The problem exactly as received: nothing of it is lost.
    public var rawJSON: JSONValue { _parts.raw }

    /// Decodes a document that is a problem of this type.
    /// - Throws: ``HaapiModelError`` when it is malformed or a problem of another type.
    public init(from decoder: any Decoder) throws { self = try Self.decoded(decoder) }
}

/// A problem with no members beyond the common ones: incorrect-credentials,
/// authentication-failed, too-many-attempts, generic-user-error, unexpected,
/// mismatch-between-session-and-access-token, and every unknown type.
public struct Problem: ProblemRepresentation, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every problem has, read once (see `_PartsHolder`).
    public let _parts: _ProblemParts

    init(_ parts: _ProblemParts) { _parts = parts }
}

/// `invalid-input`: some fields were wrong (the seeds' `InvalidInputProblem`).
public struct InvalidInputProblem: ProblemRepresentation, _PartsHolder, _RawJSONEncodable, Hashable {
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

        /// Decodes a wrong field: `name` is required; a missing `detail` is empty.
        /// - Throws: ``HaapiModelError`` when it is malformed.
        public init(from decoder: any Decoder) throws { try self.init(JSONReader(decoding: decoder)) }
        /// Encodes the field's `name`, `reason` and `detail`.
        public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
    }

    /// Not API: what every problem has, read once (see `_PartsHolder`).
    public let _parts: _ProblemParts
    /// `error_description`, when the server gives one.
    public let errorDescription: String?
    /// The wrong fields.
    public let invalidFields: [InvalidField]

    init(_ parts: _ProblemParts, invalidFields: [InvalidField], errorDescription: String?) {
        (_parts, self.invalidFields, self.errorDescription) = (parts, invalidFields, errorDescription)
    }

    init(_ parts: _ProblemParts, reader: JSONReader) throws {
        _parts = parts
        invalidFields = try reader.objects("invalidFields", InvalidField.init)
        errorDescription = try reader.optionalString("error_description")
    }

    /// The problem about the field named `name`, if any.
    public func invalidField(named name: String) -> InvalidField? { invalidFields.first { $0.name == name } }
}

/// `error-authorization-response`: the flow ended with an OAuth error (the seeds' `AuthorizationProblem`).
public struct AuthorizationProblem: ProblemRepresentation, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every problem has, read once (see `_PartsHolder`).
    public let _parts: _ProblemParts
    /// The OAuth `error`, such as `access_denied` (`access_denied` when the server gave none).
    public let error: String
    /// `error_description`.
    public let errorDescription: String?
    /// The issuer (RFC 9207).
    public let iss: String?

    init(_ parts: _ProblemParts, error: String, errorDescription: String?) {
        (_parts, self.error, self.errorDescription, iss) = (parts, error, errorDescription, parts.raw["iss"]?.stringValue)
    }

    init(_ parts: _ProblemParts, reader: JSONReader) throws {
        _parts = parts
        error = try reader.optionalString("error") ?? "access_denied"
        errorDescription = try reader.optionalString("error_description")
        iss = try reader.optionalString("iss")
    }
}
