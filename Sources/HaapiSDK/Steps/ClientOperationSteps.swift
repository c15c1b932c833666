import OAuthCore

/// A step whose main action is an operation the client performs itself (other actions, such
/// as BankID's "start the app" and "cancel", are forms). Switch on the concrete type for the
/// operations every client should know.
public protocol ClientOperationStep: HaapiRepresentation {
    /// The client-operation action.
    var action: Action { get }
}

extension ClientOperationStep {
    /// The operation's model: name, arguments, continue and error actions.
    public var actionModel: ClientOperationActionModel { action.clientOperation! }
    /// What to do once the operation is done.
    public var continueActions: [Action] { actionModel.continueActions }
    /// What to do when it fails.
    public var errorActions: [Action] { actionModel.errorActions }
}

/// `external-browser-flow`: open `href` in a browser (with the app's `redirect_uri` appended),
/// then submit the continue action with the `_resume_nonce` the browser comes back with.
public struct ExternalBrowserClientOperationStep: ClientOperationStep, Hashable {
    public let content: RepresentationContent
    public let action: Action
    /// The URL to open.
    public var href: String? { actionModel.argument("href") }
}

/// `bankid`: start the BankID app, then continue (usually with polling).
public struct BankIdClientOperationStep: ClientOperationStep, Hashable {
    public let content: RepresentationContent
    public let action: Action
    /// The URL that starts the app.
    public var href: String? { actionModel.argument("href") }
    /// The auto-start token.
    public var autoStartToken: String? { actionModel.argument("autoStartToken") }
    /// Where the app returns to.
    public var redirect: String? { actionModel.argument("redirect") }
}

/// `encap-auto-activation`: activate an Encap device.
public struct EncapClientOperationStep: ClientOperationStep, Hashable {
    public let content: RepresentationContent
    public let action: Action
    /// The activation URL.
    public var href: String? { actionModel.argument("href") }
    /// The activation code.
    public var activationCode: String? { actionModel.argument("activationCode") }
}

/// `webauthn-registration`: create a WebAuthn credential with the given options.
public struct WebAuthnRegistrationClientOperationStep: ClientOperationStep, Hashable {
    public let content: RepresentationContent
    public let action: Action
    /// The credential creation options as received (`credentialCreationOptions`, or platform
    /// and cross-platform variants).
    public var credentialOptions: [String: JSONValue] { actionModel.arguments }
}

/// `webauthn-authentication`: sign a WebAuthn challenge with the given options.
public struct WebAuthnAuthenticationClientOperationStep: ClientOperationStep, Hashable {
    public let content: RepresentationContent
    public let action: Action
    /// The credential request options as received.
    public var credentialOptions: [String: JSONValue] { actionModel.arguments }
}

/// Any other client operation, for the app to handle if it knows it.
public struct GenericClientOperationStep: ClientOperationStep, Hashable {
    public let content: RepresentationContent
    public let action: Action
}
