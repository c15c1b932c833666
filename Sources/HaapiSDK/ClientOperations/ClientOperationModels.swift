import Foundation
import OAuthCore

/// What every client operation's model has (the seeds' `ClientOperationActionModel`): the
/// operation's name and arguments, what to submit once it is done, and what when it fails.
/// Switch on the concrete type: ``ExternalBrowserClientOperationActionModel``,
/// ``BankIdClientOperationActionModel``, ``EncapAutoActivationClientOperationActionModel``,
/// ``WebAuthnRegistrationClientOperationActionModel``,
/// ``WebAuthnAuthenticationClientOperationActionModel``, ``GenericClientOperationActionModel``.
public protocol ClientOperationActionModelRepresentation: RepresentationActionModel {
    /// The operation.
    var name: ClientOperationName { get }
    /// Its arguments, as Foundation values (`String`, numbers, `Bool`, arrays, dictionaries).
    var arguments: [String: any Sendable] { get }
    /// What to do once the operation is done.
    var continueActions: [any Action] { get }
    /// What to do when it fails.
    var errorActions: [any Action] { get }
    /// The model as received (models of this SDK keep it).
    var rawJSON: JSONValue { get }
}

extension ClientOperationActionModelRepresentation {
    /// `null`: only a model of this SDK keeps its JSON.
    public var rawJSON: JSONValue { .null }

    /// Encodes ``rawJSON`` (`null` for a model that keeps none).
    public func encode(to encoder: any Encoder) throws { try rawJSON.encode(to: encoder) }

    /// Whether `other` is the same operation.
    public func isEqualTo(_ other: any ClientOperationActionModelRepresentation) -> Bool {
        type(of: other) == type(of: self) && other.rawJSON == rawJSON
    }

    /// The arguments as received.
    public var argumentsJSON: [String: JSONValue] { rawJSON["arguments"]?.objectValue ?? [:] }
    /// A string argument.
    public func argument(_ name: String) -> String? { argumentsJSON[name]?.stringValue }
}

/// Not API: the members every client operation's model has, read once; each model keeps it
/// whole and hands its members out. Two are the same operation when their JSON is the same, so a
/// model's synthesized `==` and hash come from here.
public struct _OperationParts: Sendable, Hashable {
    let name: ClientOperationName
    let arguments: [String: JSONValue]
    /// ``arguments`` as Foundation values, as the models hand them out.
    let foundationArguments: [String: any Sendable]
    let continueActions: [any Action]
    let errorActions: [any Action]
    let raw: JSONValue

    init(name: ClientOperationName, arguments: [String: JSONValue], continueActions: [any Action], errorActions: [any Action]) {
        (self.name, self.arguments, self.continueActions, self.errorActions) = (name, arguments, continueActions, errorActions)
        foundationArguments = arguments.mapValues(\.sendableValue)
        var members: [String: JSONValue] = ["name": .string(name.rawValue), "arguments": .object(arguments)]
        members.setList("continueActions", continueActions.map(\.rawJSON))
        members.setList("errorActions", errorActions.map(\.rawJSON))
        raw = .object(members)
    }

    init(_ reader: JSONReader) throws {
        name = ClientOperationName(rawValue: try reader.string("name"))
        arguments = try reader.optionalObject("arguments")?.members ?? [:]
        foundationArguments = arguments.mapValues(\.sendableValue)
        continueActions = try reader.actions("continueActions")
        errorActions = try reader.actions("errorActions")
        raw = reader.raw
    }

    func argument(_ key: String) -> String? { arguments[key]?.stringValue }

    /// Whether the two have the same JSON.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.raw == rhs.raw }
    /// Hashes the JSON.
    public func hash(into hasher: inout Hasher) { hasher.combine(raw) }
}

extension ClientOperationActionModelRepresentation where Self: _PartsHolder, _Parts == _OperationParts {
    /// The operation's `name` (`external-browser-flow`, `bankid`, ...).
    public var name: ClientOperationName { _parts.name }
    /// The operation's `arguments`, as Foundation values.
    public var arguments: [String: any Sendable] { _parts.foundationArguments }
    /// What to submit once the operation is done.
    public var continueActions: [any Action] { _parts.continueActions }
    /// What to submit when the operation fails.
    public var errorActions: [any Action] { _parts.errorActions }
    /// The model exactly as received: nothing of it is lost.
    public var rawJSON: JSONValue { _parts.raw }

    /// Decodes an operation's model of this type.
    /// - Throws: ``HaapiModelError`` when it is malformed, another operation, or lacks the arguments this type needs.
    public init(from decoder: any Decoder) throws { self = try decodeOperation(decoder, as: Self.self) }
}

/// Reads a client operation's model by its `name`: the typed model when its required arguments
/// are there, the generic one otherwise (nothing is lost either way).
func decodeClientOperationModel(_ reader: JSONReader) throws -> any ClientOperationActionModelRepresentation {
    let parts = try _OperationParts(reader)
    switch parts.name {
    case .externalBrowser:
        if let model = ExternalBrowserClientOperationActionModel(parts) { return model }
    case .bankId:
        if let model = BankIdClientOperationActionModel(parts) { return model }
    case .encapAutoActivation:
        if let model = EncapAutoActivationClientOperationActionModel(parts) { return model }
    case .webAuthnRegistration:
        return WebAuthnRegistrationClientOperationActionModel(parts)
    case .webAuthnAuthentication:
        return WebAuthnAuthenticationClientOperationActionModel(parts)
    case .unknown:
        break
    }
    return GenericClientOperationActionModel(parts)
}

/// Decodes a client operation's model of the type `T`.
private func decodeOperation<T: ClientOperationActionModelRepresentation>(_ decoder: any Decoder, as _: T.Type) throws -> T {
    let parts = try _OperationParts(JSONReader(decoding: decoder))
    let model: (any ClientOperationActionModelRepresentation)?
    switch T.self {
    case is ClientOperationActionModel.Type: model = ClientOperationActionModel(parts)
    case is GenericClientOperationActionModel.Type: model = GenericClientOperationActionModel(parts)
    default: model = try decodeClientOperationModel(JSONReader(parts.raw, path: "$"))
    }
    guard let typed = model as? T else {
        throw HaapiModelError(.wrongType, path: "name", "the operation \(parts.name.rawValue) is not a \(T.self), or lacks its arguments")
    }
    return typed
}

/// Adds `redirect_uri=<redirectTo>` to `href` (resolved against `baseURL` when relative):
/// where a browser comes back to once an external login is done.
func launchURL(href: String, redirectTo: String, baseURL: URL?) -> URL? {
    guard let url = URL(string: href, relativeTo: baseURL)?.absoluteURL, url.scheme != nil,
        URLComponents(url: url, resolvingAgainstBaseURL: true) != nil
    else { return nil }
    return url.appendingQuery([("redirect_uri", redirectTo)])
}

/// The `_resume_nonce` an external browser or app comes back with, in the query of the app's
/// redirect: the value that resumes an external-browser or BankID step.
public enum ResumeNonce {
    /// The parameter's name.
    public static let parameter = "_resume_nonce"

    /// The nonce in `url`'s query, if it has one.
    public static func of(_ url: URL) -> String? { url.queryParameter(parameter) }
}

/// Any client operation, its arguments as received (the seeds' `ClientOperationActionModel`).
public struct ClientOperationActionModel: ClientOperationActionModelRepresentation, _PartsHolder, Hashable {
    /// Not API: what every operation has, read once (see `_PartsHolder`).
    public let _parts: _OperationParts

    init(_ parts: _OperationParts) { _parts = parts }
}

/// `external-browser-flow`: open ``href`` in a browser with the app's redirect
/// (``urlToLaunch(redirectTo:)``), then submit the continue action with the `_resume_nonce`
/// the browser comes back with.
public struct ExternalBrowserClientOperationActionModel: ClientOperationActionModelRepresentation, _PartsHolder, Hashable {
    /// Not API: what every operation has, read once (see `_PartsHolder`).
    public let _parts: _OperationParts
    /// What to open.
    public let href: String

    init?(_ parts: _OperationParts) {
        guard let href = parts.argument("href") else { return nil }
        self.href = href
        _parts = parts
    }

    /// ``href`` with `redirect_uri=<redirectTo>` added; `nil` when `href` is not an absolute URL.
    public func urlToLaunch(redirectTo: String) -> URL? { urlToLaunch(redirectTo: redirectTo, relativeTo: nil) }

    /// ``href``, resolved against `baseURL` when relative, with `redirect_uri=<redirectTo>` added.
    public func urlToLaunch(redirectTo: String, relativeTo baseURL: URL?) -> URL? {
        Self.urlToLaunch(href: href, redirectTo: redirectTo, relativeTo: baseURL)
    }

    /// `href`, resolved against `baseURL` when relative, with `redirect_uri=<redirectTo>` added:
    /// where an external browser is sent so that it comes back to `redirectTo`.
    public static func urlToLaunch(href: String, redirectTo: String, relativeTo baseURL: URL?) -> URL? {
        launchURL(href: href, redirectTo: redirectTo, baseURL: baseURL)
    }
}

/// `bankid`: start BankID on this device (``urlToLaunch(redirectTo:)``), or show a QR code for
/// BankID on another device; then submit the first continue action (it polls).
public struct BankIdClientOperationActionModel: ClientOperationActionModelRepresentation, _PartsHolder, Hashable {
    /// Not API: what every operation has, read once (see `_PartsHolder`).
    public let _parts: _OperationParts
    /// The auto-start token (empty when the server sent only a `bankid:` URL).
    public let autoStartToken: String
    /// Where BankID returns to, as the server sent it (possibly percent-encoded, or `null`).
    public let redirect: String
    /// The URL that starts BankID, as the server sent it.
    public let href: String

    init?(_ parts: _OperationParts) {
        let token = parts.argument("autoStartToken") ?? ""
        let href = parts.argument("href") ?? ""
        guard !token.isEmpty || !href.isEmpty else { return nil }
        (autoStartToken, self.href, redirect) = (token, href, parts.argument("redirect") ?? "null")
        _parts = parts
    }

    /// The URL that starts BankID on this device, returning to `redirectTo` (`null`: BankID goes
    /// back to whatever started it). The server's `href` when it is a `bankid:` URL, with its
    /// `redirect` replaced; otherwise `bankid:///?autostarttoken=TOKEN&redirect=RETURN` as BankID's
    /// relying-party guidelines define it.
    public func urlToLaunch(redirectTo: String?) -> URL? {
        if let url = URL(string: href), url.scheme?.lowercased() == "bankid" {
            guard let redirectTo else { return url }
            return Self.url(url, returningTo: redirectTo)
        }
        guard !autoStartToken.isEmpty else { return nil }
        return URL(string: "bankid:///?autostarttoken=\(FormURLEncoding.escape(autoStartToken))&redirect=\(Self.redirectValue(redirectTo))")
    }

    /// `url` (a `bankid:` URL) returning to `redirectTo` instead of where it returned:
    /// its `redirect` replaced (`null`, or an empty one: BankID goes back to nothing, as on a
    /// computer with no app to return to).
    public static func url(_ url: URL, returningTo redirectTo: String?) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var query = (components.percentEncodedQuery ?? "").split(separator: "&").filter { !$0.lowercased().hasPrefix("redirect=") }
        query.append("redirect=\(redirectValue(redirectTo))"[...])
        components.percentEncodedQuery = query.joined(separator: "&")
        return components.url
    }

    /// `redirect`'s value: `redirectTo` encoded exactly once (given encoded or not), or `null`.
    private static func redirectValue(_ redirectTo: String?) -> String {
        guard let redirectTo, !redirectTo.isEmpty, redirectTo != "null" else { return "null" }
        return FormURLEncoding.escape(redirectTo.removingPercentEncoding ?? redirectTo)
    }

    /// The URL that starts BankID with the server's own `redirect` (see ``urlToLaunch(redirectTo:)``).
    public var autoStartURL: URL? {
        if let url = URL(string: href), url.scheme?.lowercased() == "bankid" { return url }
        return urlToLaunch(redirectTo: redirect)
    }
}

/// `encap-auto-activation`: activate an Encap device with ``activationCode``.
public struct EncapAutoActivationClientOperationActionModel: ClientOperationActionModelRepresentation, _PartsHolder, Hashable {
    /// Not API: what every operation has, read once (see `_PartsHolder`).
    public let _parts: _OperationParts
    /// The activation code.
    public let activationCode: String
    /// The activation URL.
    public let href: String

    init?(_ parts: _OperationParts) {
        guard let code = parts.argument("activationCode") else { return nil }
        (activationCode, href) = (code, parts.argument("href") ?? "")
        _parts = parts
    }

    /// The activation URL, when ``href`` is one.
    public var urlToLaunch: URL? { href.isEmpty ? nil : URL(string: href) }
}

/// The error actions of a WebAuthn operation that continue the flow in a browser instead, where
/// no authenticator is at hand (Curity's passkeys browser fallback): a form whose `href` asks
/// for `_force_external_browser_flow` first.
private func webAuthnFallbackActions(_ errorActions: [any Action]) -> [any Action] {
    let forced = errorActions.filter { $0.form?.href.contains("_force_external_browser_flow") == true }
    return forced + errorActions.filter { $0.form?.href.contains("_force_external_browser_flow") != true }
}

/// `webauthn-registration`: create a passkey or a security key's credential with the server's
/// options (``platformOptions`` for this device, ``crossPlatformOptions`` for another).
public struct WebAuthnRegistrationClientOperationActionModel: ClientOperationActionModelRepresentation, _PartsHolder, Hashable {
    /// What every set of creation options has.
    public protocol CredentialRequestOptions: Sendable {
        /// The relying party's ID (`rp.id`), usually the server's domain.
        var relyingPartyId: String? { get }
        /// The challenge to sign, decoded from base64url.
        var challengeData: Data? { get }
        /// The user's handle (`user.id`), decoded from base64url.
        var userIdData: Data? { get }
        /// The user's account name (`user.name`).
        var userName: String? { get }
        /// The user's name for display (`user.displayName`).
        var displayName: String? { get }
        /// `required`, `preferred` or `discouraged`: whether the authenticator must verify the user.
        var userVerification: String? { get }
        /// The attestation the server wants (`none`, `indirect`, `direct`, `enterprise`).
        var attestation: String? { get }
    }

    /// The options for this device's authenticator (a passkey).
    public struct PlatformCredentialRequestOptions: CredentialRequestOptions, _PartsHolder, Hashable {
        /// Not API: the server's creation options these are read from (see `_PartsHolder`).
        public let _parts: WebAuthnCreationOptions

        init(_ options: WebAuthnCreationOptions) { _parts = options }
    }

    /// The options for a security key or another device.
    public struct CrossPlatformCredentialRequestOptions: CredentialRequestOptions, _PartsHolder, Hashable {
        /// Not API: the server's creation options these are read from (see `_PartsHolder`).
        public let _parts: WebAuthnCreationOptions

        init(_ options: WebAuthnCreationOptions) { _parts = options }

        /// The algorithms the server accepts.
        public var publicKeyCredParams: [CredentialParams]? {
            _parts.algorithms.map { CredentialParams(algorithmId: $0, type: "public-key") }
        }
        /// Credentials not to register again.
        public var excludedCredentials: [ExcludedCredential]? {
            _parts.excludedCredentials.map { ExcludedCredential(credentialID: $0.id, type: $0.type) }
        }
        /// `required`, `preferred` or `discouraged`.
        public var residentKey: String? { _parts.residentKey }
    }

    /// An algorithm the server accepts (a COSE identifier: -7 is ES256).
    public struct CredentialParams: Sendable, Hashable {
        /// The COSE algorithm identifier (-7 is ES256, -257 RS256).
        public let algorithmId: Int
        /// The credential type: `public-key`.
        public let type: String
    }

    /// A credential the user already has.
    public struct ExcludedCredential: Sendable, Hashable {
        /// The credential's ID.
        public let credentialID: Data
        /// The credential type: `public-key`.
        public let type: String
    }

    /// Not API: what every operation has, read once (see `_PartsHolder`).
    public let _parts: _OperationParts
    /// The options for this device's authenticator: the passkey options, else the options for any kind.
    public var platformOptions: PlatformCredentialRequestOptions?
    /// The options for a security key or another device: their own, else the options for any kind.
    public var crossPlatformOptions: CrossPlatformCredentialRequestOptions?
    /// The options the server sent, by kind of authenticator (one set for passkeys, or one
    /// each for this device and another); options that do not decode are left out.
    public let creationOptions: [WebAuthnAuthenticatorKind: WebAuthnCreationOptions]

    init(_ parts: _OperationParts) {
        _parts = parts
        var found: [WebAuthnAuthenticatorKind: WebAuthnCreationOptions] = [:]
        for kind in WebAuthnAuthenticatorKind.allCases {
            if let value = parts.arguments[kind.creationKey], let options = WebAuthnCreationOptions(value) { found[kind] = options }
        }
        creationOptions = found
        platformOptions = (found[.platform] ?? found[.any]).map(PlatformCredentialRequestOptions.init)
        crossPlatformOptions = (found[.crossPlatform] ?? found[.any]).map(CrossPlatformCredentialRequestOptions.init)
    }

    /// The error actions that continue in a browser, the forced browser flow first.
    public var fallbackActions: [any Action] { webAuthnFallbackActions(errorActions) }
}

/// `webauthn-authentication`: sign the server's challenge with a passkey or a security key.
public struct WebAuthnAuthenticationClientOperationActionModel: ClientOperationActionModelRepresentation, _PartsHolder, Hashable {
    /// The request options.
    public struct CredentialRequestOptions: Sendable, Hashable {
        /// The relying party's ID (`rp.id`), usually the server's domain.
        public let relyingPartyId: String?
        /// The challenge to sign, decoded from base64url.
        public let challengeData: Data?
        /// The credentials of this device the server knows for the user.
        public let platformAllowCredentials: [AllowedCredential]?
        /// The credentials of security keys and other devices the server knows for the user.
        public let crossPlatformAllowCredentials: [AllowedCredential]?
        /// `required`, `preferred` or `discouraged`: whether the authenticator must verify the user.
        public let userVerificationPreference: String?
    }

    /// A credential that may answer.
    public struct AllowedCredential: Sendable, Hashable {
        /// The credential's ID.
        public let credentialID: Data
        /// The credential type: `public-key`.
        public let type: String
    }

    /// Not API: what every operation has, read once (see `_PartsHolder`).
    public let _parts: _OperationParts
    /// The request options, with the credentials the server knows split by kind of authenticator.
    public let credentialOptions: CredentialRequestOptions
    /// The request options as WebAuthn defines them, when they decode.
    public let requestOptions: WebAuthnRequestOptions?
    /// The credentials of this device and of other devices the server knows for the user
    /// (`platformCredentials` / `crossPlatformCredentials`), when sent.
    public let knownCredentials: [WebAuthnAuthenticatorKind: [WebAuthnCredentialDescriptor]]

    init(_ parts: _OperationParts) {
        _parts = parts
        let options = parts.arguments["credentialRequestOptions"].flatMap(WebAuthnRequestOptions.init)
        requestOptions = options
        var known: [WebAuthnAuthenticatorKind: [WebAuthnCredentialDescriptor]] = [:]
        if let value = parts.arguments["platformCredentials"] { known[.platform] = WebAuthnCredentialDescriptor.list(value) }
        if let value = parts.arguments["crossPlatformCredentials"] { known[.crossPlatform] = WebAuthnCredentialDescriptor.list(value) }
        knownCredentials = known
        func allowed(_ list: [WebAuthnCredentialDescriptor]?) -> [AllowedCredential]? {
            list.map { $0.map { AllowedCredential(credentialID: $0.id, type: $0.type) } }
        }
        credentialOptions = CredentialRequestOptions(
            relyingPartyId: options?.relyingPartyID, challengeData: options?.challenge,
            platformAllowCredentials: allowed(known[.platform] ?? options?.allowedCredentials),
            crossPlatformAllowCredentials: allowed(known[.crossPlatform] ?? options?.allowedCredentials),
            userVerificationPreference: options?.userVerification)
    }

    /// The error actions that continue in a browser, the forced browser flow first.
    public var fallbackActions: [any Action] { webAuthnFallbackActions(errorActions) }
}

/// Any other client operation, for the app to handle if it knows it
/// (``HaapiModel/ActionModelFactory/genericClientOperation(arguments:name:continueActions:errorActions:)``).
public struct GenericClientOperationActionModel: ClientOperationActionModelRepresentation, _PartsHolder, Hashable {
    /// Not API: what every operation has, read once (see `_PartsHolder`).
    public let _parts: _OperationParts

    init(_ parts: _OperationParts) { _parts = parts }
}

/// The seven members both kinds of creation options have, read once from the server's options.
extension WebAuthnRegistrationClientOperationActionModel.CredentialRequestOptions
where Self: _PartsHolder, _Parts == WebAuthnCreationOptions {
    /// The relying party's ID (`rp.id`), usually the server's domain.
    public var relyingPartyId: String? { _parts.relyingPartyID }
    /// The challenge to sign, decoded from base64url.
    public var challengeData: Data? { _parts.challenge }
    /// The user's handle (`user.id`), decoded from base64url.
    public var userIdData: Data? { _parts.userID }
    /// The user's account name (`user.name`).
    public var userName: String? { _parts.userName }
    /// The user's name for display (`user.displayName`).
    public var displayName: String? { _parts.userDisplayName }
    /// `required`, `preferred` or `discouraged`: whether the authenticator must verify the user.
    public var userVerification: String? { _parts.userVerification }
    /// The attestation the server wants (`none`, `indirect`, `direct`, `enterprise`).
    public var attestation: String? { _parts.attestation }
}
