/// A name the server chooses from an open set (an action's template or kind, a field's type,
/// a client operation's name): known values are constants, unknown ones are kept as they are.
public protocol OpenName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension OpenName {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
}

/// An action's `template`: how the action is presented and submitted.
public struct ActionTemplate: OpenName {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A form to fill in and submit.
    public static let form: Self = "form"
    /// A choice between nested actions.
    public static let selector: Self = "selector"
    /// An operation the client performs itself (open a browser, an app, WebAuthn).
    public static let clientOperation: Self = "client-operation"
    /// `launch`: the legacy shape of an external-browser launch (see ``Action/launch``).
    public static let launch: Self = "launch"
}

/// An action's `kind`: what the action does. Unknown kinds are normal.
public struct ActionKind: OpenName {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let login: Self = "login"
    public static let cancel: Self = "cancel"
    public static let redirect: Self = "redirect"
    public static let `continue`: Self = "continue"
    public static let poll: Self = "poll"
    public static let selectAuthenticator: Self = "select-authenticator"
    public static let authenticatorSelector: Self = "authenticator-selector"
    public static let userRegister: Self = "user-register"
    public static let userConsent: Self = "user-consent"
    public static let deviceRegister: Self = "device-register"
    public static let passwordReset: Self = "password-reset"
    /// `external-browser`: the kind of a legacy `launch` action.
    public static let externalBrowser: Self = "external-browser"
}

/// A form field's `type`.
public struct FormFieldType: OpenName {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let text: Self = "text"
    public static let username: Self = "username"
    public static let password: Self = "password"
    public static let hidden: Self = "hidden"
    public static let select: Self = "select"
    public static let checkbox: Self = "checkbox"
    /// Filled by the client, not the user (`_resume_nonce`, a WebAuthn `credential`).
    public static let context: Self = "context"
}

/// A client operation's `name`.
public struct ClientOperationName: OpenName {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let externalBrowserFlow: Self = "external-browser-flow"
    public static let bankID: Self = "bankid"
    public static let encapAutoActivation: Self = "encap-auto-activation"
    public static let webAuthnRegistration: Self = "webauthn-registration"
    public static let webAuthnAuthentication: Self = "webauthn-authentication"
}
