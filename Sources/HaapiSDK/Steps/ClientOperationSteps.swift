import Foundation
import OAuthCore

/// A step whose main action is an operation the client performs itself (other actions, such
/// as BankID's "start the app" and "cancel", are forms). Switch on the concrete type for the
/// operations every client should know.
public protocol ClientOperationStep: HaapiRepresentation {}

extension ClientOperationStep {
    /// The client-operation action (each step type also has its typed `actionModel`).
    public var clientOperationAction: ClientOperationAction? { allActions.lazy.compactMap { $0 as? ClientOperationAction }.first }
    /// The operation's model, whatever its type.
    public var operationModel: (any ClientOperationActionModelRepresentation)? { clientOperationAction?.model }
    /// What to do once the operation is done.
    public var continueActions: [any Action] { operationModel?.continueActions ?? [] }
    /// What to do when it fails.
    public var errorActions: [any Action] { operationModel?.errorActions ?? [] }
}

/// The first form action of `actions`.
private func firstForm(_ actions: [any Action]) -> FormAction? { actions.lazy.compactMap { $0 as? FormAction }.first }

/// `external-browser-flow`: open the operation's `href` in a browser with the app's redirect
/// (``urlToLaunch(redirectTo:)``), then submit ``continueFormActionModel`` with the
/// `_resume_nonce` the browser comes back with (``formattedParametersFromURL(_:)``).
public struct ExternalBrowserClientOperationStep: ClientOperationStep, _PartsHolder, _RawJSONEncodable, Hashable {
    /// The operation: the `href` to open and what follows.
    public let actionModel: ExternalBrowserClientOperationActionModel
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order: the client operation and the forms beside it.
    public var actions: [any Action] { _parts.actions }
    /// The form that resumes the flow with the browser's `_resume_nonce` (the operation's first continue form).
    public let continueFormActionModel: FormActionModel

    init?(_ parts: _RepresentationParts, model: ExternalBrowserClientOperationActionModel) {
        guard let resume = firstForm(model.continueActions) else { return nil }
        self.init(parts, model: model, continueForm: resume.model)
    }

    init(_ parts: _RepresentationParts, model: ExternalBrowserClientOperationActionModel, continueForm: FormActionModel) {
        (_parts, actionModel, continueFormActionModel) = (parts, model, continueForm)
    }

    /// The actions to show beside the operation: the step's other actions (a cancel form).
    public var actionsToPresent: [any Action] { actions.filter { !($0 is ClientOperationAction) } }

    /// The URL to open, with `redirect_uri=<redirectTo>`.
    public func urlToLaunch(redirectTo: String) -> URL? { actionModel.urlToLaunch(redirectTo: redirectTo) }

    /// The parameters to submit with ``continueFormActionModel`` from the URL the browser came
    /// back to: its `_resume_nonce`, under the name of the form's context field.
    /// - Throws: ``HaapiModelError`` when the URL has no `_resume_nonce`.
    public func formattedParametersFromURL(_ url: URL) throws -> [String: String] {
        guard let nonce = ResumeNonce.of(url) else {
            throw HaapiModelError(.missingMember, path: "_resume_nonce", "the URL the browser came back to has no _resume_nonce")
        }
        let name = continueFormActionModel.fields.first { $0 is ContextFormField }?.name ?? ResumeNonce.parameter
        return [name: nonce]
    }
}

/// `bankid`: start BankID on this device, or show a QR code for another device; then continue
/// (usually with polling).
public struct BankIdClientOperationStep: ClientOperationStep, _PartsHolder, _RawJSONEncodable, Hashable {
    /// The `activation` link (a QR code), when the step has one.
    public let activationLink: Link?
    /// The operation: the auto-start token, the URL that starts BankID, and what follows.
    public let actionModel: BankIdClientOperationActionModel
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order: the client operation and the forms beside it.
    public var actions: [any Action] { _parts.actions }

    init(_ parts: _RepresentationParts, model: BankIdClientOperationActionModel) {
        _parts = parts
        actionModel = model
        activationLink = parts.links.first { $0.rel == "activation" }
    }

    /// The URL that starts BankID on this device, returning to `redirectTo`.
    public func urlToLaunch(redirectTo: String) -> URL? { actionModel.urlToLaunch(redirectTo: redirectTo) }
    /// What to do once BankID is started.
    public var continueActions: [any Action] { actionModel.continueActions }
    /// What to do when it fails (such as "BankID on another device").
    public var errorActions: [any Action] { actionModel.errorActions }
}

/// `encap-auto-activation`: activate an Encap device.
public struct EncapClientOperationStep: ClientOperationStep, _PartsHolder, _RawJSONEncodable, Hashable {
    /// The operation: the activation URL and what follows.
    public let actionModel: EncapAutoActivationClientOperationActionModel
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order: the client operation and the forms beside it.
    public var actions: [any Action] { _parts.actions }

    init(_ parts: _RepresentationParts, model: EncapAutoActivationClientOperationActionModel) { (_parts, actionModel) = (parts, model) }

    /// The activation URL.
    public var urlToLaunch: URL? { actionModel.urlToLaunch }
    /// What to do once activated.
    public var continueActions: [any Action] { actionModel.continueActions }
    /// What to do when activation fails.
    public var errorActions: [any Action] { actionModel.errorActions }
}

/// The WebAuthn credential as JSON members (base64url), as a continue form's credential field takes it.
private func credentialParameters(_ members: [String: JSONValue]) -> [String: Any] {
    members.mapValues { value -> Any in
        if let object = value.objectValue { return object.mapValues { $0.stringValue ?? "" } }
        return value.stringValue ?? ""
    }
}

/// `webauthn-registration`: create a WebAuthn credential with the operation's options, then
/// submit ``continueAction`` with it (``formattedParametersForRegistration(credentialOptions:attestationObject:rawClientDataJSON:credentialID:credentialParamType:)``).
public struct WebAuthnRegistrationClientOperationStep: ClientOperationStep, _PartsHolder, _RawJSONEncodable, Hashable {
    /// The operation: the credential creation options and what follows.
    public let actionModel: WebAuthnRegistrationClientOperationActionModel
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order: the client operation and the forms beside it.
    public var actions: [any Action] { _parts.actions }
    /// The form that takes the new credential.
    public let continueAction: FormAction

    init?(_ parts: _RepresentationParts, model: WebAuthnRegistrationClientOperationActionModel) {
        guard let resume = firstForm(model.continueActions) else { return nil }
        (_parts, actionModel, continueAction) = (parts, model, resume)
    }

    /// The error actions that continue in a browser instead.
    public var fallbackActions: [any Action] { actionModel.fallbackActions }

    /// The parameters of ``continueAction`` for a credential the authenticator made: the
    /// credential's JSON (WebAuthn's `PublicKeyCredential` shape) under the field for the kind
    /// of `credentialOptions` (`platformCredential`, `crossPlatformCredential`, or `credential`).
    public func formattedParametersForRegistration(
        credentialOptions: any WebAuthnRegistrationClientOperationActionModel.CredentialRequestOptions, attestationObject: Data,
        rawClientDataJSON: Data, credentialID: Data, credentialParamType: String = "public-key"
    ) -> [String: Any] {
        let kind: WebAuthnAuthenticatorKind =
            actionModel.creationOptions[.platform] == nil && actionModel.creationOptions[.crossPlatform] == nil
            ? .any
            : (credentialOptions is WebAuthnRegistrationClientOperationActionModel.PlatformCredentialRequestOptions
                ? .platform : .crossPlatform)
        let credential = WebAuthnCredential.registration(
            id: credentialID, clientDataJSON: rawClientDataJSON, attestationObject: attestationObject)
        let name = continueAction.model.field(kind.credentialField)?.name ?? kind.credentialField
        return [name: credentialParameters(credential.members(type: credentialParamType))]
    }
}

/// `webauthn-authentication`: sign the operation's challenge, then submit ``continueAction``
/// with the assertion (``formattedParametersForAssertion(rawAuthenticatorData:rawClientDataJSON:signature:credentialID:credentialParamType:userId:)``).
public struct WebAuthnAuthenticationClientOperationStep: ClientOperationStep, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order: the client operation and the forms beside it.
    public var actions: [any Action] { _parts.actions }
    /// The operation: the credential request options and what follows.
    public let actionModel: WebAuthnAuthenticationClientOperationActionModel
    /// The form that takes the assertion.
    public let continueAction: FormAction

    init?(_ parts: _RepresentationParts, model: WebAuthnAuthenticationClientOperationActionModel) {
        guard let resume = firstForm(model.continueActions) else { return nil }
        (_parts, actionModel, continueAction) = (parts, model, resume)
    }

    /// The error actions that continue in a browser instead.
    public var fallbackActions: [any Action] { actionModel.fallbackActions }

    /// The parameters of ``continueAction`` for an assertion: the credential's JSON under the
    /// form's credential field.
    public func formattedParametersForAssertion(
        rawAuthenticatorData: Data, rawClientDataJSON: Data, signature: Data, credentialID: Data,
        credentialParamType: String = "public-key",
        userId: Data? = nil
    ) -> [String: Any] {
        let credential = WebAuthnCredential.assertion(
            id: credentialID, clientDataJSON: rawClientDataJSON, authenticatorData: rawAuthenticatorData, signature: signature,
            userHandle: userId)
        let name =
            continueAction.model.field(WebAuthnAuthenticatorKind.any.credentialField)?.name
            ?? continueAction.model.fields.first { $0 is ContextFormField }?.name ?? WebAuthnAuthenticatorKind.any.credentialField
        return [name: credentialParameters(credential.members(type: credentialParamType))]
    }
}

/// Any other client operation (or a known one without what its typed step needs), for the app
/// to handle if it knows it.
public struct GenericClientOperationStep: ClientOperationStep, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every step has, read once (see `_PartsHolder`).
    public let _parts: _RepresentationParts
    /// Every action of the step, in order: the client operation and the forms beside it.
    public var actions: [any Action] { _parts.actions }
    /// The operation as received: its name, its arguments and what follows.
    public let actionModel: GenericClientOperationActionModel

    init(_ parts: _RepresentationParts, model: GenericClientOperationActionModel) { (_parts, actionModel) = (parts, model) }
}
