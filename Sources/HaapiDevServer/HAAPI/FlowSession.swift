import Foundation

/// One authorization flow in progress: what the authorization request asked for and how far
/// the user got. Kept in the ``RecordStore`` (kind ``FlowSession/kind``, id = the session id),
/// so a flow started before a restart can finish after it.
struct FlowSession: Codable, Sendable, Hashable {
    /// The client of the authorization request.
    var clientId: String
    /// Its `redirect_uri`.
    var redirectUri: String
    /// The requested scopes.
    var scope: [String]
    /// `state`.
    var state: String?
    /// `nonce`.
    var nonce: String?
    /// `acr_values`.
    var acrValues: String?
    /// The PKCE challenge.
    var codeChallenge: String?
    /// The PKCE method.
    var codeChallengeMethod: String?
    /// The `dpop_jkt` parameter of the authorization request.
    var requestedDPoPJkt: String?
    /// Whether the flow runs over HAAPI (`false`: a browser flow with HTML pages).
    var isHaapi: Bool
    /// The thumbprint of the HAAPI session's DPoP key (the key the HAAPI access token is bound to).
    var sessionJkt: String?
    /// The authenticator chosen (or the only one offered).
    var authenticator: String?
    /// The user, once authenticated.
    var username: String?
    /// When the user authenticated.
    var authTime: Date?
    /// OTP: who the code was sent to, and the code.
    var otpUsername: String?
    var otpCode: String?
    /// Password reset: who asked, the code sent (a code nobody received for an unknown name, so
    /// the answers are the same), and the wrong codes entered for it.
    var resetUsername: String?
    var resetCode: String?
    var resetFailures: Int = 0
    /// Account creation: the account waiting for the code sent to its phone (`nil` for a name
    /// already taken, which no code confirms), the code, and the wrong codes entered for it.
    var registration: UserRecord?
    var registrationCode: String?
    var registrationFailures: Int = 0
    /// Polling, Duo push, BankID: the approval request waited for (its id in the store, also
    /// for a name nobody has, whose request nobody can answer), and when the wait ends.
    var approvalID: String?
    var approvalExpires: Date?
    /// Polling: who is shown as asked (a masked number, also for a name nobody has).
    var pollingRecipient: String?
    /// External browser: the nonce of the page the browser opens, and the nonce it comes back with.
    var launchNonce: String?
    var resumeNonce: String?
    var externalUsername: String?
    /// BankID: the order's autostart token, and its QR start token and secret (for the QR data).
    var bankIDAutoStartToken: String?
    var bankIDQRStartToken: String?
    var bankIDQRStartSecret: String?
    var bankIDOrderStart: Date?
    var bankIDOtherDevice: Bool?
    /// WebAuthn: who, the challenge sent (base64url, single use), and whether the password was
    /// confirmed for a first registration.
    var webAuthnUsername: String?
    var webAuthnChallenge: String?
    var webAuthnConfirmed: Bool?

    /// The store kind of flow sessions.
    static let kind = "haapi-flow"
    /// The store kind mapping an external-browser launch nonce to its flow session.
    static let launchKind = "haapi-external-launch"
    /// The store kind where the OTP code is written for tests (id = session id).
    static let otpTestHookKind = "otp-test-hook"
    /// How long an idle flow lives.
    static let lifetime: TimeInterval = 30 * 60
}

extension ServerState {
    func loadFlow(_ id: String) async throws -> FlowSession? {
        try await store.get(FlowSession.self, kind: FlowSession.kind, id: id)
    }

    func saveFlow(_ flow: FlowSession, id: String) async throws {
        try await store.put(flow, kind: FlowSession.kind, id: id, expiresAt: Date().addingTimeInterval(FlowSession.lifetime))
    }

    func endFlow(_ id: String) async throws {
        try await store.delete(kind: FlowSession.kind, id: id)
    }

    func client(_ id: String) async throws -> ClientRecord? {
        try await store.get(ClientRecord.self, kind: "client", id: id)
    }

    func user(_ name: String) async throws -> UserRecord? {
        try await store.get(UserRecord.self, kind: "user", id: name)
    }
}
