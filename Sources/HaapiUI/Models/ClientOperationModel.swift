import Foundation
import HaapiSDK
import OAuthCore

/// What every client operation offers: its continue and error actions as forms.
public struct ClientOperationActions: Sendable, Hashable {
    /// What to submit once the operation is done.
    public let continueActions: [FormModel]
    /// What to submit when it fails.
    public let errorActions: [FormModel]

    init(_ model: any ClientOperationActionModelRepresentation) {
        self.init(continueActions: model.continueActions, errorActions: model.errorActions)
    }

    init(continueActions: [any Action], errorActions: [any Action]) {
        self.continueActions = continueActions.compactMap { FormModel($0) }
        self.errorActions = errorActions.compactMap { FormModel($0) }
    }

    /// Whether the operation offers any action at all.
    public var isEmpty: Bool { continueActions.isEmpty && errorActions.isEmpty }

    /// The forms of `model` that repeat none of these actions (the step's cancel, mostly):
    /// what a UI offers beside the operation's own actions.
    public func formsBeside(in model: UIModel) -> [FormModel] {
        let own = continueActions + errorActions
        return model.forms.filter { form in !own.contains { $0.form.href == form.form.href && $0.form.method == form.form.method } }
    }
}

/// `external-browser-flow`: open ``launchURL`` in a browser, then call
/// ``HaapiFlowViewModel/resumeExternalBrowser(nonce:)`` (or `(url:)`) with what it comes back with.
public struct ExternalBrowserOperationModel: Sendable, Hashable {
    /// The `href` argument as received.
    public let href: String?
    /// The URL to open: `href` resolved against the base URL, with the app's redirect appended as `redirect_uri`.
    public let launchURL: URL?
    /// The redirect the browser comes back to, with `_resume_nonce` in its query.
    public let appRedirect: String
    /// Whether to use the default browser rather than an in-app session (``HaapiUIKitConfiguration/useDefaultExternalBrowser``).
    public let prefersDefaultBrowser: Bool
    /// The form that resumes the flow; its `_resume_nonce` context field is filled by the view model.
    public var continueAction: FormModel? { actions.continueActions.first }
    /// Continue and error actions.
    public let actions: ClientOperationActions

    /// `href` resolved against `baseURL` with `redirect_uri=<appRedirect>` added to its query.
    public static func launchURL(href: String, appRedirect: String, baseURL: URL) -> URL? {
        guard let url = URL(string: href, relativeTo: baseURL)?.absoluteURL,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else { return nil }
        let added = "redirect_uri=" + FormURLEncoding.escape(appRedirect)
        components.percentEncodedQuery = [components.percentEncodedQuery, added].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "&")
        return components.url
    }
}

/// `bankid`: start the BankID app on this device (``autoStartURL``), or let the user scan
/// ``qrData`` / ``qrCode`` with BankID on another device; then submit the first continue action
/// (it polls), or an error action (such as "BankID on another device").
public struct BankIDOperationModel: Sendable, Hashable {
    /// The URL that starts the app, as the server sent it.
    public let href: String?
    /// The auto-start token.
    public let autoStartToken: String?
    /// Where the app returns to, as the server sent it (possibly percent-encoded, or `null`).
    public let redirect: String?
    /// The text of the QR code for BankID on another device (`qrCodeData` or `qrData` among the
    /// operation's arguments or the step's properties), for UIs that draw the code themselves.
    public let qrData: String?
    /// The QR code image the server sent (a `qr-code` link, or any image link named a QR code).
    public let qrCode: LinkModel?
    /// Continue and error actions.
    public let actions: ClientOperationActions

    /// Makes a model.
    public init(
        href: String?, autoStartToken: String?, redirect: String?, qrData: String? = nil, qrCode: LinkModel? = nil,
        actions: ClientOperationActions
    ) {
        self.href = href
        self.autoStartToken = autoStartToken
        self.redirect = redirect
        self.qrData = qrData
        self.qrCode = qrCode
        self.actions = actions
    }

    /// The URL that starts BankID on this device: the server's `href` when it is a `bankid:` URL,
    /// otherwise `bankid:///?autostarttoken=TOKEN&redirect=RETURN` as BankID's relying-party
    /// guidelines define it (`redirect=null` when there is no return URL: the app then goes back
    /// to whatever started it).
    public var autoStartURL: URL? {
        if let href, let url = URL(string: href), url.scheme?.lowercased() == "bankid" { return url }
        guard let autoStartToken, !autoStartToken.isEmpty else { return nil }
        let back: String
        if let redirect, !redirect.isEmpty, redirect != "null" {
            // Sent encoded (Curity does) or not: encoded exactly once either way.
            back = FormURLEncoding.escape(redirect.removingPercentEncoding ?? redirect)
        } else {
            back = "null"
        }
        return URL(string: "bankid:///?autostarttoken=\(FormURLEncoding.escape(autoStartToken))&redirect=\(back)")
    }
}

/// `encap-auto-activation`: activate an Encap device.
public struct EncapOperationModel: Sendable, Hashable {
    /// The activation URL.
    public let href: String?
    /// The activation code.
    public let activationCode: String?
    /// Continue and error actions.
    public let actions: ClientOperationActions
}

/// `webauthn-registration` or `webauthn-authentication`: the WebAuthn options decoded for the
/// platform's authenticator API (``creationOptions`` or ``requestOptions``, by kind of
/// authenticator); the continue action takes the credential as JSON
/// (``HaapiFlowViewModel/completeWebAuthn(_:kind:)``), and where no authenticator is at hand
/// the flow goes on in a browser (``browserFallback``).
public struct WebAuthnOperationModel: Sendable, Hashable {
    /// Whether a credential is created (registration) rather than used (authentication).
    public let isRegistration: Bool
    /// The operation's arguments as received (credential creation or request options).
    public let arguments: [String: JSONValue]
    /// Continue and error actions.
    public let actions: ClientOperationActions

    /// Makes a model.
    public init(isRegistration: Bool, arguments: [String: JSONValue], actions: ClientOperationActions) {
        self.isRegistration = isRegistration
        self.arguments = arguments
        self.actions = actions
    }

    /// Registration: the creation options the server sent, by kind of authenticator (one for
    /// passkeys, or one each for this device and another); options that do not decode are left out.
    public var creationOptions: [WebAuthnAuthenticatorKind: WebAuthnCreationOptions] {
        guard isRegistration else { return [:] }
        var found: [WebAuthnAuthenticatorKind: WebAuthnCreationOptions] = [:]
        for kind in WebAuthnAuthenticatorKind.allCases {
            if let value = arguments[kind.creationKey], let options = WebAuthnCreationOptions(value) { found[kind] = options }
        }
        return found
    }

    /// Authentication: the request options, when they decode.
    public var requestOptions: WebAuthnRequestOptions? {
        guard !isRegistration, let value = arguments["credentialRequestOptions"] else { return nil }
        return WebAuthnRequestOptions(value)
    }

    /// Authentication: the credentials of this device and of other devices the server knows
    /// for the user (Curity's `platformCredentials` / `crossPlatformCredentials`), when sent.
    public var knownCredentials: [WebAuthnAuthenticatorKind: [WebAuthnCredentialDescriptor]] {
        var found: [WebAuthnAuthenticatorKind: [WebAuthnCredentialDescriptor]] = [:]
        if let value = arguments["platformCredentials"] { found[.platform] = WebAuthnCredentialDescriptor.list(value) }
        if let value = arguments["crossPlatformCredentials"] { found[.crossPlatform] = WebAuthnCredentialDescriptor.list(value) }
        return found
    }

    /// Whether the options decoded: an authenticator can be asked.
    public var isPerformable: Bool { isRegistration ? !creationOptions.isEmpty : requestOptions != nil }

    /// The continue action that carries a credential made by `kind` (the form with that
    /// field, else the first continue action).
    public func continueAction(for kind: WebAuthnAuthenticatorKind) -> FormModel? {
        actions.continueActions.first { $0.field(kind.credentialField) != nil } ?? actions.continueActions.first
    }

    /// The error action that continues the flow in a browser instead, where no authenticator is
    /// available (Curity's passkeys browser fallback: a form whose `href` asks for
    /// `_force_external_browser_flow`, else the first error action).
    public var browserFallback: FormModel? {
        actions.errorActions.first { $0.form.href.contains("_force_external_browser_flow") } ?? actions.errorActions.first
    }
}

/// Any other client operation, for the app to handle if it knows it.
public struct GenericOperationModel: Sendable, Hashable {
    /// The operation's name.
    public let name: ClientOperationName
    /// Its arguments as received.
    public let arguments: [String: JSONValue]
    /// Continue and error actions.
    public let actions: ClientOperationActions
}

/// A client operation as a UI handles it.
public enum ClientOperationModel: Sendable, Hashable {
    /// Open a browser, resume with `_resume_nonce`.
    case externalBrowser(ExternalBrowserOperationModel)
    /// Start BankID.
    case bankID(BankIDOperationModel)
    /// Activate Encap.
    case encap(EncapOperationModel)
    /// Run WebAuthn.
    case webAuthn(WebAuthnOperationModel)
    /// Anything else.
    case generic(GenericOperationModel)

    /// The continue and error actions of whichever operation this is.
    public var actions: ClientOperationActions {
        switch self {
        case .externalBrowser(let model): return model.actions
        case .bankID(let model): return model.actions
        case .encap(let model): return model.actions
        case .webAuthn(let model): return model.actions
        case .generic(let model): return model.actions
        }
    }
}
