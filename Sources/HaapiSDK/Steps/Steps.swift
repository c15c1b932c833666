import OAuthCore

/// A step whose actions are forms to fill in (login, registration, OTP entry, ...).
public struct InteractiveFormStep: HaapiRepresentation, Hashable {
    public let content: RepresentationContent

    /// The form actions, in order.
    public var forms: [Action] { actions.filter { $0.form != nil } }
}

/// A choice of authenticator: a selector whose options are `select-authenticator` forms.
public struct AuthenticatorSelectorStep: HaapiRepresentation, Hashable {
    /// One authenticator to choose (the seeds' `AuthenticatorSelectorStep.AuthenticatorOption`).
    public struct AuthenticatorOption: Sendable, Hashable {
        /// The option's title.
        public let title: String?
        /// `properties.authenticatorType`, such as `html-form`, `sms`, `google`.
        public let authenticatorType: String?
        /// The option's action (submit its form to choose it).
        public let action: Action
    }

    public let content: RepresentationContent
    /// The selector action.
    public let selector: Action

    /// The selector's title.
    public var title: String? { selector.title }

    /// The authenticators to choose from.
    public var options: [AuthenticatorOption] {
        (selector.selector?.options ?? []).map { AuthenticatorOption(title: $0.title, authenticatorType: $0.authenticatorType, action: $0) }
    }
}

/// A step to follow without the user: one form of kind `redirect` (GET, or POST of hidden fields).
public struct RedirectionStep: HaapiRepresentation, Hashable {
    public let content: RepresentationContent
    /// The redirect action.
    public let action: Action

    /// Its form.
    public var form: FormActionModel { action.form! }
}

/// The status of a polling step.
public struct PollingStatus: OpenName {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let pending: Self = "pending"
    public static let done: Self = "done"
    public static let failed: Self = "failed"
}

/// The `properties` of a polling step (the seeds' `PollingProperties`).
public struct PollingProperties: Sendable, Hashable {
    /// pending, done or failed.
    public let status: PollingStatus
    /// Who was contacted (a phone number, a device name).
    public let recipientOfCommunication: String?
    /// The longest the server will wait, in seconds.
    public let maxWaitTime: Int?
    /// How much of it is left, in seconds.
    public let maxWaitRemainingTime: Int?
    /// The server's polling interval in milliseconds, when it gives one.
    public let interval: Int?

    init(_ reader: JSONReader) throws {
        status = PollingStatus(rawValue: try reader.string("status"))
        recipientOfCommunication = try reader.optionalString("recipientOfCommunication")
        maxWaitTime = try reader.optionalInt("maxWaitTime")
        maxWaitRemainingTime = try reader.optionalInt("maxWaitRemainingTime")
        interval = try reader.optionalInt("interval")
    }
}

/// A step that waits for something outside the client (a push approval, an SMS, BankID).
public struct PollingStep: HaapiRepresentation, Hashable {
    public let content: RepresentationContent
    /// Status, recipient, times.
    public let properties: PollingProperties

    /// What to submit next: the `poll` action while pending, otherwise the action that
    /// continues the flow (in captures, a `redirect` form the client submits by itself).
    public var mainAction: Action? {
        properties.status == .pending
            ? action(kind: .poll) ?? actions.first { $0.kind != .cancel }
            : actions.first { $0.kind != .cancel && $0.kind != .poll }
    }

    /// The action that abandons the wait, if offered.
    public var cancelAction: Action? { action(kind: .cancel) }
}

/// The answer to a form that had `continueActions`: stay on the step, show the new messages,
/// and offer those actions ("enter the passcode we sent").
public struct ContinueSameStep: HaapiRepresentation, Hashable {
    public let content: RepresentationContent
    /// The actions to offer now: the submitted form's `continueActions` (HaapiManager fills
    /// them in), or the step's own actions when it has any.
    public let continueActions: [Action]
}

/// A step that asks the user to consent (`user-consent-step` and `consentor-step`).
public struct UserConsentStep: HaapiRepresentation, Hashable {
    public let content: RepresentationContent
}

/// The values of an authorization response (the seeds' `OAuthAuthorizationResponseProperties`).
public struct OAuthAuthorizationResponseProperties: Sendable, Hashable {
    /// The authorization code.
    public let code: String?
    /// The state sent in the authorization request.
    public let state: String?
    /// The issuer (RFC 9207).
    public let iss: String?
    /// The granted scope.
    public let scope: String?
    /// Implicit and hybrid flows: the access token.
    public let accessToken: String?
    /// Implicit and hybrid flows: the token type.
    public let tokenType: String?
    /// Implicit and hybrid flows: seconds until the access token expires (number or string on the wire).
    public let expiresIn: Int?
    /// The ID token.
    public let idToken: String?
    /// The session state.
    public let sessionState: String?

    init(_ reader: JSONReader) throws {
        code = try reader.optionalString("code")
        state = try reader.optionalString("state")
        iss = try reader.optionalString("iss")
        scope = try reader.optionalString("scope")
        accessToken = try reader.optionalString("access_token")
        tokenType = try reader.optionalString("token_type")
        expiresIn = try reader.optionalInt("expires_in")
        idToken = try reader.optionalString("id_token")
        sessionState = try reader.optionalString("session_state")
    }
}

/// The end of a successful flow: the authorization response, with the code to exchange for tokens.
public struct OAuthAuthorizationResponseStep: HaapiRepresentation, Hashable {
    public let content: RepresentationContent
    /// The response's values.
    public let oauthAuthorizationResponseProperties: OAuthAuthorizationResponseProperties

    /// The `authorization-response` link: the redirect URI with the response in its query.
    public var authorizationResponseLink: Link? { link(rel: "authorization-response") }
}

/// A step no typed class fits (an unknown type or template, or an unusual mix of actions).
/// Nothing of it is lost: see ``RepresentationContent/rawJSON``.
public struct GenericRepresentationStep: HaapiRepresentation, Hashable {
    public let content: RepresentationContent
}
