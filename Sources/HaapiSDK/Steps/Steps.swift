import Foundation
import OAuthCore

// Each step keeps the members every step has (`type`, `metadata`, `messages`, `links`,
// `properties`, `actions`, the JSON as received) in one _RepresentationParts, which also makes
// its synthesized `==` and hash. One extension of HaapiRepresentation (for a _PartsHolder) hands
// them out under the names Curity's SDK declares, with `init(from:)` (through
// HaapiModel.representation(from:), the one reading of a step); _RawJSONEncodable encodes the
// JSON as received. Each step adds its own typed members.

/// A step whose actions are forms to fill in (login, registration, OTP entry, ...).
public struct InteractiveFormStep: HaapiRepresentation, _PartsHolder, _RawJSONEncodable, Hashable {
    /// The forms, in order.
    public var actions: [FormAction]
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts

    init(_ parts: _RepresentationParts, actions: [FormAction]) { (_parts, self.actions) = (parts, actions) }

    /// The forms (``actions``), as the untyped list every step has.
    public var allActions: [any Action] { actions }
}

/// A choice of authenticator: a selector whose options are `select-authenticator` forms.
public struct AuthenticatorSelectorStep: HaapiRepresentation, _PartsHolder, _RawJSONEncodable, Hashable {
    /// One authenticator to choose (the seeds' `AuthenticatorSelectorStep.AuthenticatorOption`).
    public struct AuthenticatorOption: Codable, Hashable, Sendable {
        /// The option's title (the authenticator type when it has none).
        public let title: Message
        /// `properties.authenticatorType`, such as `html-form`, `sms`, `google`.
        public let type: String?
        /// The option's action: submit its form to choose it.
        public let action: FormAction

        init(title: Message, type: String?, action: FormAction) { (self.title, self.type, self.action) = (title, type, action) }

        init(_ action: FormAction) {
            self.action = action
            type = action.properties?.authenticatorType ?? action.authenticatorType
            title = action.title ?? Message(literal: type ?? action.kind.rawValue)
        }

        /// Reads an option from its `select-authenticator` form action.
        /// - Throws: ``HaapiModelError`` when it is not a form action.
        public init(from decoder: any Decoder) throws { self.init(try FormAction(from: decoder)) }
        /// Encodes the option's form action as received.
        public func encode(to encoder: any Encoder) throws { try action.encode(to: encoder) }
    }

    /// The selector's title.
    public let title: Message
    /// The authenticators to choose from.
    public let authenticators: [AuthenticatorOption]
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order.
    public var actions: [any Action] { _parts.actions }
    /// The selector action.
    public let selector: SelectorAction

    init(_ parts: _RepresentationParts, selector: SelectorAction, title: Message? = nil, authenticators: [AuthenticatorOption]? = nil) {
        _parts = parts
        self.selector = selector
        self.title = title ?? selector.title ?? Message(literal: "")
        self.authenticators = authenticators ?? selector.model.options.compactMap { ($0 as? FormAction).map(AuthenticatorOption.init) }
    }
}

/// A step to follow without the user: one form of kind `redirect` (GET, or POST of hidden fields).
public struct RedirectionStep: HaapiRepresentation, _PartsHolder, _RawJSONEncodable, Hashable {
    /// The redirect action.
    public let redirectAction: FormAction
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order.
    public var actions: [any Action] { _parts.actions }

    init(_ parts: _RepresentationParts, redirectAction: FormAction) { (_parts, self.redirectAction) = (parts, redirectAction) }

    /// The redirect's form.
    public var form: FormActionModel { redirectAction.model }
}

/// A step that waits for something outside the client (a push approval, an SMS, BankID).
public struct PollingStep: HaapiRepresentation, _PartsHolder, _RawJSONEncodable, Hashable {
    /// What to submit next: the `poll` action while pending, otherwise the action that
    /// continues the flow (in captures, a `redirect` form the client submits by itself).
    public let mainAction: FormAction
    /// The action that abandons the wait, if offered.
    public let cancelAction: FormAction?
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order.
    public var actions: [any Action] { _parts.actions }
    /// Status, recipient, times.
    public let pollingProperties: PollingProperties

    /// The step's main action, or `nil` when it has none to submit (such a step is a
    /// ``GenericRepresentationStep``).
    init?(_ parts: _RepresentationParts, properties: PollingProperties) {
        let forms = parts.actions.compactMap { $0 as? FormAction }
        let main =
            properties.status == .pending
            ? forms.first { $0.kind == .poll } ?? forms.first { $0.kind != .cancel }
            : forms.first { $0.kind != .cancel && $0.kind != .poll }
        guard let main else { return nil }
        self.init(parts, properties: properties, mainAction: main, cancelAction: forms.first { $0.kind == .cancel })
    }

    init(_ parts: _RepresentationParts, properties: PollingProperties, mainAction: FormAction, cancelAction: FormAction?) {
        (_parts, self.mainAction, self.cancelAction, pollingProperties) = (parts, mainAction, cancelAction, properties)
    }

    /// ``pollingProperties``, as the type every step's properties have.
    public var properties: (any Properties)? { pollingProperties }
}

/// The answer to a form that had `continueActions`: stay on the step, show the new messages,
/// and offer those actions ("enter the passcode we sent"). ``HaapiManager`` fills ``actions``
/// with the submitted form's continue actions when the server sends none.
public struct ContinueSameStep: HaapiRepresentation, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// The actions to offer now.
    public var actions: [any Action] { _parts.actions }

    init(_ parts: _RepresentationParts, actions: [any Action]) {
        var parts = parts
        parts.actions = actions
        _parts = parts
    }

    /// The same step offering `actions` (the form's continue actions).
    func offering(_ actions: [any Action]) throws -> ContinueSameStep {
        ContinueSameStep(try _RepresentationParts(JSONReader(rawJSON, path: "$")), actions: actions)
    }

    /// The actions to offer (the seeds' name).
    public var continueActions: [any Action] { actions }
}

/// A step that asks the user to consent (`user-consent-step` and `consentor-step`).
public struct UserConsentStep: HaapiRepresentation, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order.
    public var actions: [any Action] { _parts.actions }

    init(_ parts: _RepresentationParts) { _parts = parts }
}

/// The end of a successful flow: the authorization response, with the code to exchange for tokens.
public struct OAuthAuthorizationResponseStep: HaapiRepresentation, _PartsHolder, _RawJSONEncodable, Hashable {
    /// The response's values.
    public let oauthAuthorizationResponseProperties: OAuthAuthorizationResponseProperties
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order.
    public var actions: [any Action] { _parts.actions }

    init(_ parts: _RepresentationParts, properties: OAuthAuthorizationResponseProperties) {
        (_parts, oauthAuthorizationResponseProperties) = (parts, properties)
    }

    /// ``oauthAuthorizationResponseProperties``, as the type every step's properties have.
    public var properties: (any Properties)? { oauthAuthorizationResponseProperties }

    /// The `authorization-response` link: the redirect URI with the response in its query.
    public var authorizationResponseLink: Link? { link(rel: "authorization-response") }
}

/// A step no typed class fits (an unknown template, or an unusual mix of actions). Nothing of
/// it is lost: see ``rawJSON``.
public struct GenericRepresentationStep: HaapiRepresentation, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order.
    public var actions: [any Action] { _parts.actions }

    init(_ parts: _RepresentationParts) { _parts = parts }
}
