import Foundation
import OAuthCore

/// A HAAPI document: a step (``HaapiRepresentation``) or a problem (``ProblemRepresentation``).
public protocol HaapiResponse: RawJsonRepresentable, Codable, Equatable, Sendable {}

/// A step of a HAAPI flow (the seeds' `HaapiRepresentation`). Switch on the concrete type:
/// ``InteractiveFormStep``, ``AuthenticatorSelectorStep``, ``RedirectionStep``, ``PollingStep``,
/// ``ContinueSameStep``, ``UserConsentStep``, ``OAuthAuthorizationResponseStep``, a
/// ``ClientOperationStep``, or ``GenericRepresentationStep`` for what fits none.
public protocol HaapiRepresentation: HaapiResponse {
    /// Rendering hints.
    var metadata: Metadata? { get }
    /// The wire type.
    var type: RepresentationType { get }
    /// `properties` (polling status, authorization response values, ...).
    var properties: (any Properties)? { get }
    /// Links to offer.
    var links: [Link] { get }
    /// Messages to show.
    var messages: [UserMessage] { get }
    /// Every action of the step, in order, whatever its type (each step also has its own,
    /// typed `actions`).
    var allActions: [any Action] { get }
}

extension HaapiRepresentation {
    /// None: a step of this SDK lists its actions; an app's own type may not.
    public var allActions: [any Action] { [] }

    /// The link with relation `rel`.
    public func link(rel: String) -> Link? { links.first { $0.rel == rel } }

    /// The first action of kind `kind`.
    public func action(kind: ActionKind) -> (any Action)? { allActions.first { $0.kind == kind } }

    /// The form actions of the step, in order.
    public var formActions: [FormAction] { allActions.compactMap { $0 as? FormAction } }

    /// `properties` as received (an empty object when there were none).
    public var propertiesJSON: [String: JSONValue] { rawJSON["properties"]?.objectValue ?? [:] }

    /// Whether the step is `other`, by type and content.
    public func isEqualTo(_ other: any HaapiRepresentation) -> Bool {
        Swift.type(of: other) == Swift.type(of: self) && other.rawJSON == rawJSON && other.allActions.isEqualTo(allActions)
    }
}

/// Not API: the members every step has, read once; each step keeps it whole and hands its
/// members out. Two steps are the same when their JSON and their actions are (a
/// continue-same-step may offer actions its JSON does not have), so a step's synthesized `==`
/// and hash come from here.
public struct _RepresentationParts: Sendable, Hashable {
    let type: RepresentationType
    let metadata: Metadata?
    let messages: [UserMessage]
    let links: [Link]
    var actions: [any Action]
    let properties: [String: JSONValue]?
    let raw: JSONValue

    /// The parts of a step made from values; its JSON is composed from theirs, unless
    /// `rawJsonString` gives JSON of its own.
    init(
        type: RepresentationType, metadata: Metadata?, messages: [UserMessage], links: [Link], actions: [any Action],
        properties: [String: JSONValue]?, rawJsonString: String?
    ) {
        (self.type, self.metadata, self.messages, self.links, self.actions, self.properties) = (
            type, metadata, messages, links, actions, properties
        )
        var members: [String: JSONValue] = ["type": .string(type.rawValue)]
        members["metadata"] = metadata?.rawJSON
        members.setList("messages", messages.map(\.rawJSON))
        members.setList("links", links.map(\.rawJSON))
        members.setList("actions", actions.map(\.rawJSON))
        members["properties"] = properties.map(JSONValue.object)
        raw = JSONValue(text: rawJsonString) ?? .object(members)
    }

    init(_ reader: JSONReader) throws {
        let name = try reader.string("type")
        guard let type = RepresentationType(rawValue: name) else {
            throw HaapiModelError(.unknownStepType, path: reader.child("type"), "\"\(name)\" is not a step type this SDK knows")
        }
        self.type = type
        metadata = try reader.optionalObject("metadata").map(Metadata.init)
        messages = try reader.objects("messages", UserMessage.init)
        links = try reader.objects("links", Link.init)
        actions = try reader.actions("actions")
        properties = try reader.optionalObject("properties")?.members
        raw = reader.raw
    }

    /// The properties as ``GenericProperties``, when the step has any.
    var genericProperties: GenericProperties? {
        properties.map { GenericProperties(rawJSON: .object($0)) }
    }

    /// A reader of the properties (empty when there are none).
    var propertiesReader: JSONReader {
        JSONReader(members: properties ?? [:], path: "properties")
    }

    /// Whether the two have the same JSON and the same actions.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.raw == rhs.raw && lhs.actions.isEqualTo(rhs.actions) }
    /// Hashes the JSON.
    public func hash(into hasher: inout Hasher) { hasher.combine(raw) }
}

extension HaapiRepresentation where Self: _PartsHolder, _Parts == _RepresentationParts {
    /// The step's wire type (`authentication-step`, `registration-step`, ...).
    public var type: RepresentationType { _parts.type }
    /// Rendering hints (the template area, the view name), if the server sent any.
    public var metadata: Metadata? { _parts.metadata }
    /// The messages to show, in order.
    public var messages: [UserMessage] { _parts.messages }
    /// The links to offer, in order (images such as QR codes among them).
    public var links: [Link] { _parts.links }
    /// The step's `properties` as received, if it has any.
    public var properties: (any Properties)? { _parts.genericProperties }
    /// Every action of the step, in order, as the untyped list every step has.
    public var allActions: [any Action] { _parts.actions }
    /// The step exactly as received (or as composed from values): nothing of it is lost.
    public var rawJSON: JSONValue { _parts.raw }

    /// Decodes a document that is a step of this type.
    /// - Throws: ``HaapiModelError`` when it is malformed or a step of another type.
    public init(from decoder: any Decoder) throws { self = try Self.decoded(decoder) }
}

extension HaapiRepresentation {
    /// Decodes a document as a step of this type (each step's `init(from:)`).
    static func decoded(_ decoder: any Decoder) throws -> Self {
        try decodeModel(decoder, by: HaapiModel.representation(from:), at: "$") { "a \(Swift.type(of: $0))" }
    }
}
