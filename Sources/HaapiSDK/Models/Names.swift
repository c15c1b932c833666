/// A name the server chooses from an open set (an action's template, a field's type): known
/// values are constants, unknown ones are kept as they are.
public protocol OpenName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension OpenName {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
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

/// An action's `template`: how the action is presented and submitted (the concrete ``Action``
/// types say the same: ``FormAction``, ``SelectorAction``, ``ClientOperationAction``).
public struct ActionTemplate: OpenName {
    public let rawValue: String
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
@frozen public enum ActionKind: Codable, Hashable, Sendable, RawRepresentable, CustomStringConvertible, ExpressibleByStringLiteral {
    case cancel
    case deviceOption
    case login
    case `continue`
    case continueAutoLogin
    case deviceSelector
    case redirect
    case authenticatorSelector
    case selectAuthenticator
    case poll
    case form
    case bankIdSameDevice
    case bankIdOtherDevice
    case passwordReset
    case accountIdRecovery
    case userRegister
    /// A kind this SDK has no case for, as received.
    case other(value: String)

    public init(rawValue: String) { self = Self.named(rawValue) ?? .other(value: rawValue) }
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var rawValue: String { knownName ?? { if case .other(let value) = self { return value } else { return "" } }() }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws { self.init(rawValue: try String(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try rawValue.encode(to: encoder) }

    /// `user-consent`: the form that grants consent.
    public static let userConsent = ActionKind.other(value: "user-consent")
    /// `device-register`.
    public static let deviceRegister = ActionKind.other(value: "device-register")
    /// `external-browser`: the kind of a legacy `launch` action.
    public static let externalBrowser = ActionKind.other(value: "external-browser")
}

extension ActionKind: WireNames {
    static let knownCases: [ActionKind] = [.cancel, .deviceOption, .login, .continue, .continueAutoLogin, .deviceSelector, .redirect, .authenticatorSelector, .selectAuthenticator, .poll, .form, .bankIdSameDevice, .bankIdOtherDevice, .passwordReset, .accountIdRecovery, .userRegister]
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

/// A client operation's `name`. Unknown names are ``unknown(value:)``.
@frozen public enum ClientOperationName: Codable, Hashable, Sendable, RawRepresentable, CustomStringConvertible, ExpressibleByStringLiteral {
    case externalBrowser
    case bankId
    case encapAutoActivation
    case webAuthnRegistration
    case webAuthnAuthentication
    /// A name this SDK has no case for, as received.
    case unknown(value: String)

    public init(rawValue: String) { self = Self.named(rawValue) ?? .unknown(value: rawValue) }
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var rawValue: String { knownName ?? { if case .unknown(let value) = self { return value } else { return "" } }() }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws { self.init(rawValue: try String(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try rawValue.encode(to: encoder) }
}

extension ClientOperationName: WireNames {
    static let knownCases: [ClientOperationName] = [.externalBrowser, .bankId, .encapAutoActivation, .webAuthnRegistration, .webAuthnAuthentication]
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
@frozen public enum RepresentationType: Codable, Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    case authenticationStep
    case redirectionStep
    case registrationStep
    case pollingStep
    case continueSameStep
    case oauthAuthorizationResponse
    case consentorStep
    case userConsentStep

    public init?(rawValue: String) {
        guard let known = Self.named(rawValue) else { return nil }
        self = known
    }
    public var rawValue: String { knownName ?? "" }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let name = try String(from: decoder)
        guard let known = Self(rawValue: name) else {
            throw HaapiModelError(.unknownStepType, path: "$", "\"\(name)\" is not a step type this SDK knows")
        }
        self = known
    }
    public func encode(to encoder: any Encoder) throws { try rawValue.encode(to: encoder) }
}

extension RepresentationType: WireNames {
    static let knownCases: [RepresentationType] = [.authenticationStep, .redirectionStep, .registrationStep, .pollingStep, .continueSameStep, .oauthAuthorizationResponse, .consentorStep, .userConsentStep]
    var knownName: String? {
        switch self {
        case .authenticationStep: return "authentication-step"
        case .redirectionStep: return "redirection-step"
        case .registrationStep: return "registration-step"
        case .pollingStep: return "polling-step"
        case .continueSameStep: return "continue-same-step"
        case .oauthAuthorizationResponse: return "oauth-authorization-response"
        case .consentorStep: return "consentor-step"
        case .userConsentStep: return "user-consent-step"
        }
    }
}

/// The status of a polling step.
@frozen public enum PollingStatus: Codable, Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    case pending
    case done
    case failed

    public init?(rawValue: String) {
        guard let known = Self.named(rawValue) else { return nil }
        self = known
    }
    public var rawValue: String { knownName ?? "" }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let name = try String(from: decoder)
        guard let known = Self(rawValue: name) else {
            throw HaapiModelError(.wrongType, path: "$", "\"\(name)\" is not a polling status (pending, done or failed)")
        }
        self = known
    }
    public func encode(to encoder: any Encoder) throws { try rawValue.encode(to: encoder) }
}

extension PollingStatus: WireNames {
    static let knownCases: [PollingStatus] = [.pending, .done, .failed]
    var knownName: String? {
        switch self {
        case .pending: return "pending"
        case .done: return "done"
        case .failed: return "failed"
        }
    }
}
