import OAuthCore

/// A step's `type` on the wire.
public struct RepresentationType: OpenName {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let authenticationStep: Self = "authentication-step"
    public static let registrationStep: Self = "registration-step"
    public static let redirectionStep: Self = "redirection-step"
    public static let pollingStep: Self = "polling-step"
    public static let continueSameStep: Self = "continue-same-step"
    public static let userConsentStep: Self = "user-consent-step"
    public static let consentorStep: Self = "consentor-step"
    public static let oauthAuthorizationResponse: Self = "oauth-authorization-response"
}

/// What every step has: the wire members common to all step types.
public struct RepresentationContent: RawJsonRepresentable, Hashable {
    /// The wire type.
    public let type: RepresentationType
    /// Rendering hints.
    public let metadata: Metadata?
    /// Messages to show.
    public let messages: [UserMessage]
    /// Links to offer.
    public let links: [Link]
    /// The actions.
    public let actions: [Action]
    /// `properties` (polling status, authorization response values, ...).
    public let properties: [String: JSONValue]
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        type = RepresentationType(rawValue: try reader.string("type"))
        metadata = try reader.optionalObject("metadata").map(Metadata.init)
        messages = try reader.objects("messages", UserMessage.init)
        links = try reader.objects("links", Link.init)
        actions = try reader.objects("actions", Action.init)
        properties = try reader.optionalObject("properties")?.members ?? [:]
        rawJSON = reader.raw
    }
}

/// A step of a HAAPI flow (the seeds' `HaapiRepresentation`). Switch on the concrete type:
/// ``InteractiveFormStep``, ``AuthenticatorSelectorStep``, ``RedirectionStep``, ``PollingStep``,
/// ``ContinueSameStep``, ``UserConsentStep``, ``OAuthAuthorizationResponseStep``, a
/// ``ClientOperationStep``, or ``GenericRepresentationStep`` for what fits none.
public protocol HaapiRepresentation: RawJsonRepresentable {
    /// The members every step has.
    var content: RepresentationContent { get }
}

extension HaapiRepresentation {
    public var type: RepresentationType { content.type }
    public var metadata: Metadata? { content.metadata }
    public var messages: [UserMessage] { content.messages }
    public var links: [Link] { content.links }
    public var actions: [Action] { content.actions }
    public var rawJSON: JSONValue { content.rawJSON }

    /// The link with relation `rel`.
    public func link(rel: String) -> Link? { links.first { $0.rel == rel } }

    /// The first action of kind `kind`.
    public func action(kind: ActionKind) -> Action? { actions.first { $0.kind == kind } }
}
