import Foundation

/// One authorization flow in progress: what the authorization request asked for, how far the
/// user got, and what the authenticator under way waits for (``pending``). Kept in the
/// ``RecordStore`` (kind ``FlowSession/kind``, id = the session id), so a flow started before a
/// restart can finish after it.
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
    /// How far the user got (``Stage``); changed only by ``choose(_:)``, ``wait(for:)``,
    /// ``endWait()`` and ``authenticated(_:)``.
    private(set) var stage = Stage.authenticating(authenticator: nil, pending: .nothing)
    /// The language the authorization request's `ui_locales` asked for (one the server has),
    /// kept for the whole flow, as Curity keeps it in a cookie; else each request's own.
    var language: String? = nil

    /// How far the user got. Who authenticated and when come together, and an authenticator's
    /// wait exists only while authenticating: a flow cannot hold a user and a half-done
    /// authenticator at once.
    enum Stage: Codable, Sendable, Hashable {
        /// Authenticating with `authenticator` (`nil` before one is chosen), which waits for `pending`.
        case authenticating(authenticator: String?, pending: Pending)
        /// `username` authenticated at `time`: consent and the code remain.
        case authenticated(username: String, time: Date)
    }

    /// The authenticator chosen (or the only one offered), while authenticating.
    var authenticator: String? {
        if case .authenticating(let authenticator, _) = stage { authenticator } else { nil }
    }

    /// What the authenticator under way waits for (``Pending/nothing`` once authenticated).
    var pending: Pending {
        if case .authenticating(_, let pending) = stage { pending } else { .nothing }
    }

    /// The user, once authenticated.
    var username: String? {
        if case .authenticated(let username, _) = stage { username } else { nil }
    }

    /// When the user authenticated.
    var authTime: Date? {
        if case .authenticated(_, let time) = stage { time } else { nil }
    }

    /// The user chose `authenticator` (or it is the only one): what another one left is gone.
    mutating func choose(_ authenticator: String) {
        stage = .authenticating(authenticator: authenticator, pending: .nothing)
    }

    /// The authenticator under way now waits for `pending`. A flow already authenticated starts
    /// authenticating again (a new authentication replaces the old one).
    mutating func wait(for pending: Pending) {
        stage = .authenticating(authenticator: authenticator, pending: pending)
    }

    /// The authenticator's wait is over (its code used, its approval decided).
    mutating func endWait() { wait(for: .nothing) }

    /// `username` authenticated now.
    mutating func authenticated(_ username: String) {
        stage = .authenticated(username: username, time: Date())
    }

    /// The store kind of flow sessions.
    static let kind = "haapi-flow"
    /// The store kind mapping an external-browser launch nonce to its flow session.
    static let launchKind = "haapi-external-launch"
    /// The store kind where the OTP code is written for tests (id = session id).
    static let otpTestHookKind = "otp-test-hook"
    /// How long an idle flow lives.
    static let lifetime: TimeInterval = 30 * 60
}

/// What the authenticator under way waits for: one case per authenticator, holding only what it
/// needs, so that one authenticator's state never mixes with another's and starting one
/// replaces what another left.
enum Pending: Codable, Sendable, Hashable {
    /// Nothing: no authenticator has started, or its wait is over.
    case nothing
    /// OTP: who the code was sent to (also a name nobody has), and the code; `nil` once used.
    case oneTimeCode(username: String, code: String?)
    /// Duo: the user whose devices are listed, the passcode "shown on the device" (`nil` once
    /// used), and the push under way.
    case duo(username: String, passcode: String?, push: Wait?)
    /// Polling: the approval on the user's phone.
    case polling(Wait)
    /// BankID: the order the user signs.
    case bankID(BankIDOrder)
    /// Password reset: who asked (a code nobody receives for an unknown name, so the answers are
    /// the same), and the code sent.
    case passwordReset(username: String, CodeCheck)
    /// Account creation: the account waiting for the code sent to its phone (`nil` for a name
    /// already taken, which no code confirms), and the code.
    case accountCreation(account: UserRecord?, CodeCheck)
    /// External browser: before the browser comes back, the nonce of the page it opens; after,
    /// the nonce it came back with and who logged in there.
    case externalBrowser(ExternalBrowserVisit)
    /// WebAuthn: who, the challenge sent (base64url, single use), and whether the password was
    /// confirmed for a first registration.
    case webAuthn(username: String, challenge: String?, confirmed: Bool)

    /// An approval request waited for (its id in the store, also for a name nobody has, whose
    /// request nobody can answer), and when the wait ends.
    struct Approval: Codable, Sendable, Hashable {
        var id: String
        var expires: Date
    }

    /// A wait for an approval, and who is shown as asked (a masked number or a device, also for
    /// a name nobody has).
    struct Wait: Codable, Sendable, Hashable {
        var recipient: String
        var approval: Approval
    }

    /// A BankID order: its autostart token, its QR start token and secret (for the QR data),
    /// when it started, whether it is signed on another device, and its approval.
    struct BankIDOrder: Codable, Sendable, Hashable {
        var autoStartToken: String
        var qrStartToken: String
        var qrStartSecret: String
        var start: Date
        var otherDevice: Bool
        var approval: Approval
    }

    /// A code sent to confirm something, and the wrong codes entered for it; `code` is `nil`
    /// once spent (too many wrong ones).
    struct CodeCheck: Codable, Sendable, Hashable {
        var code: String?
        var failures = 0
    }

    /// Where an external-browser login stands.
    enum ExternalBrowserVisit: Codable, Sendable, Hashable {
        /// The browser was sent to the page of this launch nonce.
        case launched(nonce: String)
        /// The user logged in there; the app comes back with this resume nonce.
        case returned(resumeNonce: String, username: String)
    }

    /// The approval the authenticator under way waits for: polling, a Duo push, a BankID order.
    var approval: Approval? {
        switch self {
        case .polling(let wait), .duo(_, _, let wait?): wait.approval
        case .bankID(let order): order.approval
        default: nil
        }
    }

    /// Who a polling step shows as asked: polling's phone, or the device of a Duo push.
    var recipient: String? {
        switch self {
        case .polling(let wait), .duo(_, _, let wait?): wait.recipient
        default: nil
        }
    }
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
