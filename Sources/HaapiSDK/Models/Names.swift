/// A name the server chooses from an open set (an action's template and kind, a field's type, a
/// client operation's name): known values are constants or cases, unknown ones are kept as they are.
public protocol OpenName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
    /// The name `rawValue`, known or not (it never fails).
    init(rawValue: String)
}

extension OpenName {
    /// The name written as a literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// The name as on the wire.
    public var description: String { rawValue }
}

extension OpenName where Self: Codable {
    /// Decodes the name from its wire form (any string).
    public init(from decoder: any Decoder) throws { self.init(rawValue: try String(from: decoder)) }
    /// Encodes the name as on the wire.
    public func encode(to encoder: any Encoder) throws { try rawValue.encode(to: encoder) }
}

/// A closed set of wire names with a case for each known one: `init(rawValue:)` and
/// `rawValue` come from ``knownName``, written once per type. (Never compare cases with `==`
/// here: a `RawRepresentable` type's `==` compares raw values, which come from this.)
protocol WireNames: RawRepresentable where RawValue == String {
    /// Every case with a fixed name.
    static var knownCases: [Self] { get }
    /// The case's name on the wire, for the cases of ``knownCases``.
    var knownName: String? { get }
}

extension WireNames {
    /// The case named `rawValue`, if it is known.
    static func named(_ rawValue: String) -> Self? { knownCases.first { $0.knownName == rawValue } }
}

extension RawRepresentable where RawValue == String {
    /// Decodes a wire name this type has a case for; for any other, throws `unknown(name)`
    /// (the error says which name and why, where `DecodingError` would not).
    init(decoding decoder: any Decoder, unknown: (String) -> HaapiModelError) throws {
        let name = try String(from: decoder)
        guard let known = Self(rawValue: name) else { throw unknown(name) }
        self = known
    }
}

/// An action's `template`: how the action is presented and submitted (the concrete ``Action``
/// types say the same: ``FormAction``, ``SelectorAction``, ``ClientOperationAction``).
public struct ActionTemplate: OpenName {
    /// The name as on the wire.
    public let rawValue: String
    /// The name `rawValue`, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A form to fill in and submit.
    public static let form: Self = "form"
    /// A choice between nested actions.
    public static let selector: Self = "selector"
    /// An operation the client performs itself (open a browser, an app, WebAuthn).
    public static let clientOperation: Self = "client-operation"
    /// `launch`: the legacy shape of an external-browser launch (see ``GenericAction/launch``).
    public static let launch: Self = "launch"
}

/// An action's `kind`: what the action does. Unknown kinds are normal: ``other(value:)``.
@frozen public enum ActionKind: OpenName, Codable {
    /// `cancel`: abandons the flow or the step.
    case cancel
    /// `device-option`: chooses one of the user's devices.
    case deviceOption
    /// `login`: submits the credentials.
    case login
    /// `continue`: goes on to the next step.
    case `continue`
    /// `continue-auto-login`: goes on, logging in with the account just registered.
    case continueAutoLogin
    /// `device-selector`: a choice between the user's devices.
    case deviceSelector
    /// `redirect`: followed by the client without the user.
    case redirect
    /// `authenticator-selector`: a choice between authenticators.
    case authenticatorSelector
    /// `select-authenticator`: chooses one authenticator.
    case selectAuthenticator
    /// `poll`: asks whether the wait is over.
    case poll
    /// `form`: a form of no more specific kind.
    case form
    /// `bankid-same-device`: starts BankID on this device.
    case bankIdSameDevice
    /// `bankid-other-device`: shows a QR code for BankID on another device.
    case bankIdOtherDevice
    /// `password-reset`: starts resetting the password.
    case passwordReset
    /// `account-id-recovery`: starts recovering the account's user name.
    case accountIdRecovery
    /// `user-register`: starts registering a new account.
    case userRegister
    /// A kind this SDK has no case for, as received.
    case other(value: String)

    /// The kind named `rawValue`; ``other(value:)`` for a name this SDK has no case for.
    public init(rawValue: String) { self = Self.named(rawValue) ?? .other(value: rawValue) }
    /// The name as on the wire (an unknown kind's as received).
    public var rawValue: String { knownName ?? { if case .other(let value) = self { return value } else { return "" } }() }

    /// `user-consent`: the form that grants consent.
    public static let userConsent = ActionKind.other(value: "user-consent")
    /// `device-register`.
    public static let deviceRegister = ActionKind.other(value: "device-register")
    /// `external-browser`: the kind of a legacy `launch` action.
    public static let externalBrowser = ActionKind.other(value: "external-browser")
}

extension ActionKind: WireNames {
    static let knownCases: [ActionKind] = [
        .cancel, .deviceOption, .login, .continue, .continueAutoLogin, .deviceSelector, .redirect, .authenticatorSelector,
        .selectAuthenticator, .poll, .form, .bankIdSameDevice, .bankIdOtherDevice, .passwordReset, .accountIdRecovery, .userRegister,
    ]
    var knownName: String? {
        switch self {
        case .cancel: return "cancel"
        case .deviceOption: return "device-option"
        case .login: return "login"
        case .continue: return "continue"
        case .continueAutoLogin: return "continue-auto-login"
        case .deviceSelector: return "device-selector"
        case .redirect: return "redirect"
        case .authenticatorSelector: return "authenticator-selector"
        case .selectAuthenticator: return "select-authenticator"
        case .poll: return "poll"
        case .form: return "form"
        case .bankIdSameDevice: return "bankid-same-device"
        case .bankIdOtherDevice: return "bankid-other-device"
        case .passwordReset: return "password-reset"
        case .accountIdRecovery: return "account-id-recovery"
        case .userRegister: return "user-register"
        default: return nil
        }
    }
}

/// A form field's `type` on the wire (the concrete ``FormField`` types say the same).
public struct FormFieldType: OpenName {
    /// The name as on the wire.
    public let rawValue: String
    /// The type `rawValue`, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A line of text (``TextFormField``; its `kind` says what text).
    public static let text: Self = "text"
    /// A user name (``UsernameFormField``).
    public static let username: Self = "username"
    /// A password, never echoed (``PasswordFormField``).
    public static let password: Self = "password"
    /// A value sent as given, never shown (``HiddenFormField``).
    public static let hidden: Self = "hidden"
    /// A choice of options (``SelectFormField``).
    public static let select: Self = "select"
    /// A checkbox (``CheckboxFormField``).
    public static let checkbox: Self = "checkbox"
    /// Filled by the client, not the user (`_resume_nonce`, a WebAuthn `credential`).
    public static let context: Self = "context"
}

/// A client operation's `name`. Unknown names are ``unknown(value:)``.
@frozen public enum ClientOperationName: OpenName, Codable {
    /// `external-browser-flow`: log in in a browser, then resume with its `_resume_nonce`.
    case externalBrowser
    /// `bankid`: start BankID on this device or show its QR code.
    case bankId
    /// `encap-auto-activation`: activate an Encap device.
    case encapAutoActivation
    /// `webauthn-registration`: create a passkey or a security key's credential.
    case webAuthnRegistration
    /// `webauthn-authentication`: sign a challenge with a passkey or a security key.
    case webAuthnAuthentication
    /// A name this SDK has no case for, as received.
    case unknown(value: String)

    /// The operation named `rawValue`; ``unknown(value:)`` for a name this SDK has no case for.
    public init(rawValue: String) { self = Self.named(rawValue) ?? .unknown(value: rawValue) }
    /// The name as on the wire (an unknown operation's as received).
    public var rawValue: String { knownName ?? { if case .unknown(let value) = self { return value } else { return "" } }() }
}

extension ClientOperationName: WireNames {
    static let knownCases: [ClientOperationName] = [
        .externalBrowser, .bankId, .encapAutoActivation, .webAuthnRegistration, .webAuthnAuthentication,
    ]
    var knownName: String? {
        switch self {
        case .externalBrowser: return "external-browser-flow"
        case .bankId: return "bankid"
        case .encapAutoActivation: return "encap-auto-activation"
        case .webAuthnRegistration: return "webauthn-registration"
        case .webAuthnAuthentication: return "webauthn-authentication"
        default: return nil
        }
    }
}

/// A step's `type` on the wire. A document of another type is not a step this SDK can model:
/// decoding it fails with ``HaapiModelError`` (code `haapi_unknown_step_type`), naming the type.
@frozen public enum RepresentationType: String, Codable, Hashable, Sendable, CustomStringConvertible {
    /// `authentication-step`: a step of authentication.
    case authenticationStep = "authentication-step"
    /// `redirection-step`: a step the client follows by itself.
    case redirectionStep = "redirection-step"
    /// `registration-step`: a step of registering an account or a device.
    case registrationStep = "registration-step"
    /// `polling-step`: a wait for something outside the client.
    case pollingStep = "polling-step"
    /// `continue-same-step`: the answer to a form with continue actions.
    case continueSameStep = "continue-same-step"
    /// `oauth-authorization-response`: the end of the flow, with the authorization code.
    case oauthAuthorizationResponse = "oauth-authorization-response"
    /// `consentor-step`: a consent asked by a consentor.
    case consentorStep = "consentor-step"
    /// `user-consent-step`: the user's consent to the client's scopes and claims.
    case userConsentStep = "user-consent-step"

    /// The name as on the wire.
    public var description: String { rawValue }

    /// Decodes a step type from its wire name.
    /// - Throws: ``HaapiModelError`` (`haapi_unknown_step_type`) for a type this SDK does not know.
    public init(from decoder: any Decoder) throws {
        self = try Self(decoding: decoder) { HaapiModelError(.unknownStepType, path: "$", "\"\($0)\" is not a step type this SDK knows") }
    }
}

/// The status of a polling step.
@frozen public enum PollingStatus: String, Codable, Hashable, Sendable, CustomStringConvertible {
    /// `pending`: the wait goes on; poll again.
    case pending
    /// `done`: the wait is over; submit the main action to go on.
    case done
    /// `failed`: the wait failed (refused, timed out).
    case failed

    /// The name as on the wire.
    public var description: String { rawValue }

    /// Decodes a status from its wire name.
    /// - Throws: ``HaapiModelError`` for a name that is not `pending`, `done` or `failed`.
    public init(from decoder: any Decoder) throws {
        self = try Self(decoding: decoder) {
            HaapiModelError(.wrongType, path: "$", "\"\($0)\" is not a polling status (pending, done or failed)")
        }
    }
}
