import Crypto
import Foundation
import Hummingbird
import OAuthCore

/// A passkey registered with the server (store kind ``WebAuthnAuthenticator/credentialKind``,
/// id = the credential id, base64url).
struct WebAuthnCredentialRecord: Codable, Sendable {
    var username: String
    /// The P-256 public key, X9.63, base64url.
    var publicKey: String
    var signCount: UInt32
}

/// Passkeys (WebAuthn), shaped as Curity sends them: the user's name, then an assertion of one
/// of their passkeys, or, for a user with none, their password and then a registration.
/// Attestation `none` and ES256 keys are accepted (see ``WebAuthnVerifier``); the relying party
/// is this server's host, the origin its issuer. The error action of each operation is the
/// browser fallback (the external-browser authenticator).
enum WebAuthnAuthenticator {
    static let name = "webauthn"
    static let credentialKind = "webauthn-credential"

    static func show(_ request: FlowRequest) -> Response {
        Wire.reply(
            Steps.username(
                "Log in with a passkey", href: HaapiPaths.webAuthnStart, viewName: "authenticator/webauthn/get", actionTitle: "Continue"))
    }

    static func verifier(_ state: ServerState) -> WebAuthnVerifier {
        let issuer = state.issuer
        let host = issuer.host ?? "localhost"
        var origin = "\(issuer.scheme ?? "http")://\(host)"
        if let port = issuer.port { origin += ":\(port)" }
        return WebAuthnVerifier(relyingPartyID: host, origins: [origin, "https://\(host)"])
    }

    static func credentials(of username: String, state: ServerState) async throws -> [(id: String, value: WebAuthnCredentialRecord)] {
        try await state.store.all(WebAuthnCredentialRecord.self, kind: credentialKind).filter { $0.value.username == username }
    }

    /// `POST start`: an assertion of one of the user's passkeys, or the password before a first registration.
    static func start(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let username = request.value("userName") else {
            return Problems.invalidInput([.missing("userName", "You have to enter your username")])
        }
        // A name nobody has is answered as a user without passkeys (the password step, which fails):
        // the answer does not tell which names exist.
        let registered = try await credentials(of: username, state: state)
        guard !registered.isEmpty else {
            request.flow.wait(for: .webAuthn(username: username, challenge: nil, confirmed: false))
            try await state.saveFlow(request.flow, id: request.sessionID)
            return Wire.reply(Steps.webAuthnConfirm(username: username))
        }
        let challenge = SeedData.randomToken(32)
        request.flow.wait(for: .webAuthn(username: username, challenge: challenge, confirmed: false))
        try await state.saveFlow(request.flow, id: request.sessionID)
        let options: JSONValue = [
            "challenge": .string(challenge), "rpId": .string(verifier(state).relyingPartyID), "timeout": 120_000,
            "userVerification": "preferred",
            "allowCredentials": .array(registered.map { ["type": "public-key", "id": .string($0.id)] }),
        ]
        return Wire.reply(Steps.webAuthn(registration: false, options: options))
    }

    /// `POST confirm`: the password (failures count toward the lockout), then the registration options.
    static func confirm(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard case .webAuthn(let username, _, _) = request.flow.pending, let password = request.value("password") else {
            return Problems.invalidInput([.missing("password", "You have to enter your password")])
        }
        switch try await Credentials.check(username: username, password: password, state: state) {
        case .locked: return Problems.tooManyAttempts()
        case .incorrect: return Problems.incorrectCredentials()
        case .success(let user):
            let challenge = SeedData.randomToken(32)
            request.flow.wait(for: .webAuthn(username: username, challenge: challenge, confirmed: true))
            try await state.saveFlow(request.flow, id: request.sessionID)
            let relyingParty = verifier(state).relyingPartyID
            let options: JSONValue = [
                "rp": ["id": .string(relyingParty), "name": "haapi server"],
                "user": [
                    "id": .string(Base64URL.encode(Data(SHA256.hash(data: Data(user.username.utf8))).prefix(16))),
                    "name": .string(user.username),
                    "displayName": .string(user.name),
                ],
                "challenge": .string(challenge), "pubKeyCredParams": [["type": "public-key", "alg": -7]], "timeout": 120_000,
                "excludeCredentials": [], "attestation": "none",
                "authenticatorSelection": ["residentKey": "preferred", "requireResidentKey": false, "userVerification": "preferred"],
            ]
            return Wire.reply(Steps.webAuthn(registration: true, options: options))
        }
    }

    /// `POST register`: checks the new credential and keeps it; the user is authenticated.
    static func register(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard case .webAuthn(let username, _, confirmed: true) = request.flow.pending, let challenge = takeChallenge(&request)
        else { return Problems.genericUserError("No passkey registration is under way: start again") }
        try await state.saveFlow(request.flow, id: request.sessionID)
        guard let credential = request.value("credential") else {
            return Problems.invalidInput([.missing("credential", "The passkey's credential is missing")])
        }
        let registered: WebAuthnVerifier.Registered
        do { registered = try verifier(state).register(credential, challenge: challenge) } catch let refusal as WebAuthnRefusal {
            return Problems.authenticationFailed(ServerTexts.sentence("The passkey was not registered: %@", [refusal.description]))
        }
        let id = Base64URL.encode(registered.credentialID)
        guard try await state.store.get(WebAuthnCredentialRecord.self, kind: credentialKind, id: id) == nil else {
            return Problems.authenticationFailed("The passkey was not registered: it is registered already")
        }
        let record = WebAuthnCredentialRecord(
            username: username, publicKey: Base64URL.encode(registered.publicKey.x963Representation), signCount: registered.signCount)
        try await state.store.put(record, kind: credentialKind, id: id)
        return try await FlowCompletion.authenticated(&request, username: username, state: state)
    }

    /// `POST authenticate`: checks the assertion against the user's passkey.
    static func authenticate(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard case .webAuthn(let username, _, _) = request.flow.pending, let challenge = takeChallenge(&request) else {
            return Problems.genericUserError("No passkey login is under way: start again")
        }
        try await state.saveFlow(request.flow, id: request.sessionID)
        guard let credential = request.value("credential"),
            let id = (try? JSONValue(parsing: Data(credential.utf8)))?["id"]?.stringValue
        else { return Problems.invalidInput([.missing("credential", "The passkey's credential is missing")]) }
        guard var record = try await state.store.get(WebAuthnCredentialRecord.self, kind: credentialKind, id: id),
            record.username == username,
            let key = Base64URL.decode(record.publicKey).flatMap({ try? P256.Signing.PublicKey(x963Representation: $0) })
        else { return Problems.authenticationFailed("The passkey was not accepted: it is not one of this user's") }
        do {
            record.signCount = try verifier(state).assert(
                credential, challenge: challenge, publicKey: key, storedSignCount: record.signCount)
        } catch let refusal as WebAuthnRefusal {
            return Problems.authenticationFailed(ServerTexts.sentence("The passkey was not accepted: %@", [refusal.description]))
        }
        try await state.store.put(record, kind: credentialKind, id: id)
        return try await FlowCompletion.authenticated(&request, username: username, state: state)
    }

    /// The flow's challenge, used up: each is good for one answer.
    private static func takeChallenge(_ request: inout FlowRequest) -> Data? {
        guard case .webAuthn(let username, let challenge?, let confirmed) = request.flow.pending else { return nil }
        request.flow.wait(for: .webAuthn(username: username, challenge: nil, confirmed: confirmed))
        return Base64URL.decode(challenge)
    }
}
