import Foundation
import OAuthCore

/// A credential the server names (to exclude at registration, or to allow at authentication).
public struct WebAuthnCredentialDescriptor: Sendable, Hashable {
    /// The credential id, decoded from base64url.
    public let id: Data
    /// `public-key`.
    public let type: String
    /// How the authenticator may be reached (`internal`, `hybrid`, `usb`, ...), when given.
    public let transports: [String]

    init?(_ value: JSONValue) {
        guard let text = value["id"]?.stringValue, let id = Base64URL.decode(text) else { return nil }
        self.id = id
        type = value["type"]?.stringValue ?? "public-key"
        transports = value["transports"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// The descriptors of a JSON array; the members that are not descriptors are left out.
    public static func list(_ value: JSONValue?) -> [WebAuthnCredentialDescriptor] {
        value?.arrayValue?.compactMap(WebAuthnCredentialDescriptor.init) ?? []
    }
}

/// The options of a passkey registration (WebAuthn's `PublicKeyCredentialCreationOptions`), decoded.
public struct WebAuthnCreationOptions: Sendable, Hashable {
    /// The challenge to sign, decoded from base64url.
    public let challenge: Data
    /// The relying party's id (a domain), when given (otherwise the server's origin).
    public let relyingPartyID: String?
    /// The relying party's name.
    public let relyingPartyName: String?
    /// The user handle, decoded from base64url.
    public let userID: Data
    /// The user's name.
    public let userName: String
    /// The user's display name.
    public let userDisplayName: String?
    /// The COSE algorithms the server accepts, in its order of preference (-7 is ES256).
    public let algorithms: [Int]
    /// Credentials the user already has, not to be registered again.
    public let excludedCredentials: [WebAuthnCredentialDescriptor]
    /// `platform` or `cross-platform`, when the server asks for one kind.
    public let authenticatorAttachment: String?
    /// `required`, `preferred` or `discouraged`.
    public let residentKey: String?
    /// `required`, `preferred` or `discouraged`.
    public let userVerification: String?
    /// The attestation the server wants (`none`, `direct`, ...).
    public let attestation: String?
    /// How long the server waits, in milliseconds.
    public let timeout: Int?

    /// The options in `value` (the object holding `publicKey`, or `publicKey` itself); `nil`
    /// when the challenge, the user or its id is missing or not base64url.
    public init?(_ value: JSONValue) {
        let options = value["publicKey"] ?? value
        guard let challenge = options["challenge"]?.stringValue.flatMap(Base64URL.decode),
            let user = options["user"], let userID = user["id"]?.stringValue.flatMap(Base64URL.decode),
            let userName = user["name"]?.stringValue
        else { return nil }
        self.challenge = challenge
        relyingPartyID = options["rp"]?["id"]?.stringValue
        relyingPartyName = options["rp"]?["name"]?.stringValue
        self.userID = userID
        self.userName = userName
        userDisplayName = user["displayName"]?.stringValue
        algorithms = options["pubKeyCredParams"]?.arrayValue?.compactMap { $0["alg"]?.intValue } ?? []
        excludedCredentials = WebAuthnCredentialDescriptor.list(options["excludeCredentials"])
        let selection = options["authenticatorSelection"]
        authenticatorAttachment = selection?["authenticatorAttachment"]?.stringValue
        residentKey =
            selection?["residentKey"]?.stringValue
            ?? (selection?["requireResidentKey"]?.boolValue == true ? "required" : nil)
        userVerification = selection?["userVerification"]?.stringValue
        attestation = options["attestation"]?.stringValue
        timeout = options["timeout"]?.intValue.map { OutsideNumber.count($0, atMost: OutsideNumber.longestSeconds * 1000) }
    }
}

/// The options of a passkey authentication (WebAuthn's `PublicKeyCredentialRequestOptions`), decoded.
public struct WebAuthnRequestOptions: Sendable, Hashable {
    /// The challenge to sign, decoded from base64url.
    public let challenge: Data
    /// The relying party's id, when given.
    public let relyingPartyID: String?
    /// The credentials that may answer (empty: any discoverable credential of the relying party).
    public let allowedCredentials: [WebAuthnCredentialDescriptor]
    /// `required`, `preferred` or `discouraged`.
    public let userVerification: String?
    /// How long the server waits, in milliseconds.
    public let timeout: Int?

    /// The options in `value` (the object holding `publicKey`, or `publicKey` itself); `nil`
    /// when the challenge is missing or not base64url.
    public init?(_ value: JSONValue) {
        let options = value["publicKey"] ?? value
        guard let challenge = options["challenge"]?.stringValue.flatMap(Base64URL.decode) else { return nil }
        self.challenge = challenge
        relyingPartyID = options["rpId"]?.stringValue
        allowedCredentials = WebAuthnCredentialDescriptor.list(options["allowCredentials"])
        userVerification = options["userVerification"]?.stringValue
        timeout = options["timeout"]?.intValue.map { OutsideNumber.count($0, atMost: OutsideNumber.longestSeconds * 1000) }
    }
}

/// Which authenticators an option set is for. Curity sends one set for passkeys, or one per
/// kind of authenticator ("any device": this device's, or a security key or phone).
public enum WebAuthnAuthenticatorKind: String, Sendable, Hashable, CaseIterable {
    /// Any authenticator (`credentialCreationOptions` / `credentialRequestOptions`; field `credential`).
    case any
    /// This device's own (`platform…`; field `platformCredential`).
    case platform
    /// A security key or another device (`crossPlatform…`; field `crossPlatformCredential`).
    case crossPlatform

    /// The arguments' key of the creation options for this kind.
    public var creationKey: String {
        switch self {
        case .any: return "credentialCreationOptions"
        case .platform: return "platformCredentialCreationOptions"
        case .crossPlatform: return "crossPlatformCredentialCreationOptions"
        }
    }

    /// The continue form's field that carries the credential made by this kind.
    public var credentialField: String {
        switch self {
        case .any: return "credential"
        case .platform: return "platformCredential"
        case .crossPlatform: return "crossPlatformCredential"
        }
    }
}

/// What an authenticator made, for the server: WebAuthn's `PublicKeyCredential` in its JSON
/// form (base64url members), as the continue action's credential field carries it.
public struct WebAuthnCredential: Sendable, Hashable {
    /// The credential id.
    public let id: Data
    /// The client data the authenticator signed over (JSON, as the platform produced it).
    public let clientDataJSON: Data
    /// Registration: the attestation object.
    public let attestationObject: Data?
    /// Authentication: the authenticator data.
    public let authenticatorData: Data?
    /// Authentication: the signature.
    public let signature: Data?
    /// Authentication: the user handle, when the authenticator returns one.
    public let userHandle: Data?
    /// `platform` or `cross-platform`, when known.
    public let authenticatorAttachment: String?

    /// A registration's credential.
    public static func registration(id: Data, clientDataJSON: Data, attestationObject: Data, attachment: String? = nil) -> Self {
        Self(
            id: id, clientDataJSON: clientDataJSON, attestationObject: attestationObject, authenticatorData: nil, signature: nil,
            userHandle: nil, authenticatorAttachment: attachment)
    }

    /// An authentication's credential.
    public static func assertion(
        id: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?, attachment: String? = nil
    ) -> Self {
        Self(
            id: id, clientDataJSON: clientDataJSON, attestationObject: nil, authenticatorData: authenticatorData, signature: signature,
            userHandle: userHandle, authenticatorAttachment: attachment)
    }

    /// The JSON the server reads (WebAuthn Level 3's `PublicKeyCredential.toJSON()` shape).
    public var json: String { String(decoding: JSONValue.object(members()).serialized(), as: UTF8.self) }

    /// The members of ``json``, the credential's `type` being `type`.
    func members(type: String = "public-key") -> [String: JSONValue] {
        var response: [String: JSONValue] = ["clientDataJSON": .string(Base64URL.encode(clientDataJSON))]
        if let attestationObject { response["attestationObject"] = .string(Base64URL.encode(attestationObject)) }
        if let authenticatorData { response["authenticatorData"] = .string(Base64URL.encode(authenticatorData)) }
        if let signature { response["signature"] = .string(Base64URL.encode(signature)) }
        if let userHandle { response["userHandle"] = .string(Base64URL.encode(userHandle)) }
        var members: [String: JSONValue] = [
            "id": .string(Base64URL.encode(id)), "rawId": .string(Base64URL.encode(id)), "type": .string(type),
            "response": .object(response), "clientExtensionResults": .object([:]),
        ]
        if let authenticatorAttachment { members["authenticatorAttachment"] = .string(authenticatorAttachment) }
        return members
    }
}
