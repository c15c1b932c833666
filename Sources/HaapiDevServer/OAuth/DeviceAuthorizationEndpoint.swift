import Foundation
import Hummingbird
import OAuthCore

/// The device authorization grant (RFC 8628): `POST /oauth/device_authorization` gives a device
/// code and a user code; the user enters the code on the `/device` page, signs in and approves
/// (or denies); meanwhile the device polls the token endpoint with the device code.
enum DeviceAuthorizationEndpoint {
    static let path = "/oauth/device_authorization"
    static let pagePath = "/device"
    /// The store kind of device codes (id = the device code's hash) and of user codes (id = the
    /// user code, value = that hash).
    static let kind = "device-code"
    static let userCodeKind = "device-user-code"
    /// The user code's alphabet: consonants only, no look-alikes (RFC 8628 §6.1).
    static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")

    /// One device login.
    struct Record: Codable, Sendable {
        var clientId: String
        var scope: [String]
        var userCode: String
        var expiresAt: Date
        /// Seconds the device must wait between polls (grows with each `slow_down`).
        var interval: Int
        var lastPoll: Date?
        /// The user who approved; `nil` while nobody has.
        var approvedUsername: String?
        var authTime = Date()
        var denied = false
    }

    static func add(to router: Router<BasicRequestContext>, state: ServerState) {
        router.post(RouterPath(path)) { request, _ in await authorize(request, state: state) }
        router.get(RouterPath(pagePath)) { request, _ in
            HTMLPages.device(userCode: request.uri.queryParameters.get("user_code").map { String($0) } ?? "")
        }
        router.post(RouterPath(pagePath)) { request, _ in
            await HaapiRoutes.guarded(request) { try await decide(request, state: state) }
        }
    }

    /// `POST /oauth/device_authorization` (RFC 8628 §3.1–3.2).
    static func authorize(_ request: Request, state: ServerState) async -> Response {
        do {
            let parameters = try await OAuthSupport.form(request)
            let client = try await ClientAuthenticator.authenticate(
                request: request, parameters: parameters, state: state, path: path, allowsPublicAttestationClient: false).client
            // A device login is a browser login on another device: attested HAAPI clients keep to HAAPI.
            guard client.mayUseBrowserFlow else {
                throw OAuthFailure.unauthorizedClient("the client \(client.clientId) may not use the device authorization grant")
            }
            let scope = OAuthSupport.scopes(parameters["scope"])
            if let unknown = scope.first(where: { !client.scope.contains($0) }) {
                throw OAuthFailure.invalidScope("the client may not ask for the scope \"\(unknown)\"")
            }
            let deviceCode = SeedData.randomToken()
            let userCode = String((0..<8).map { _ in alphabet.randomElement()! })
            let lifetime = state.configuration.deviceCodeLifetime
            let expiresAt = Date().addingTimeInterval(TimeInterval(lifetime))
            let record = Record(
                clientId: client.clientId, scope: scope, userCode: userCode, expiresAt: expiresAt, interval: state.configuration.deviceCodeInterval)
            try await save(record, id: OAuthSupport.tokenID(deviceCode), state: state)
            try await state.store.put(OAuthSupport.tokenID(deviceCode), kind: userCodeKind, id: userCode, expiresAt: expiresAt)
            let shown = formatted(userCode)
            let page = state.url(pagePath).absoluteString
            return Reply.json([
                "device_code": .string(deviceCode), "user_code": .string(shown), "verification_uri": .string(page),
                "verification_uri_complete": .string(Wire.appendingQuery(page, [("user_code", shown)])),
                "expires_in": .integer(lifetime), "interval": .integer(record.interval),
            ])
        } catch let failure as OAuthFailure {
            return failure.response(adding: [:])
        } catch {
            HaapiRoutes.logger.error("device authorization failed: \(error)")
            return Reply.oauthError("server_error", "the device authorization request failed", status: .internalServerError)
        }
    }

    /// Stores a device login, kept past its expiry for an hour so that a late poll hears
    /// expired_token rather than invalid_grant.
    static func save(_ record: Record, id: String, state: ServerState) async throws {
        try await state.store.put(record, kind: kind, id: id, expiresAt: record.expiresAt.addingTimeInterval(3600))
    }

    /// `XXXX-XXXX`, as the user reads it.
    static func formatted(_ code: String) -> String { String(code.prefix(4)) + "-" + String(code.dropFirst(4)) }

    /// A code as typed: letters only, upper case (dashes, spaces and case do not matter).
    static func normalized(_ typed: String) -> String { String(typed.uppercased().filter { alphabet.contains($0) }) }

    /// How many codes the page takes in a minute, from everyone: user codes are short enough to
    /// guess (RFC 8628 §5.1), so guessing is slowed to this rate. Each try is counted before any
    /// code is looked up, so parallel guesses get no more.
    static let triesPerMinute = 20
    static let triesKind = "device-code-tries"

    /// `POST /device`: the user code, the user's credentials and the decision.
    static func decide(_ request: Request, state: ServerState) async throws -> Response {
        let parameters = try await FlowRequest.allParameters(request)
        let typed = parameters["user_code"] ?? ""
        let userCode = normalized(typed)
        let tries = try await state.store.increment(kind: triesKind, id: "all", expiresAt: Date().addingTimeInterval(60))
        guard tries <= triesPerMinute else {
            var page = HTMLPages.device(userCode: typed, error: "Too many codes were tried in the last minute: wait a minute, then enter yours again.")
            page.status = .tooManyRequests
            page.headers[.retryAfter] = "60"
            return page
        }
        guard let hash = try await state.store.get(String.self, kind: userCodeKind, id: userCode),
            var record = try await state.store.get(Record.self, kind: kind, id: hash),
            record.approvedUsername == nil, !record.denied, Date() < record.expiresAt
        else {
            return HTMLPages.device(userCode: typed, error: "This code is unknown, already used or expired: check it, or start again on the device.")
        }
        if parameters["decision"] == "deny" {
            record.denied = true
        } else {
            let username = parameters["userName"]?.trimmingCharacters(in: .whitespaces) ?? ""
            switch try await Credentials.check(username: username, password: parameters["password"] ?? "", state: state) {
            case .locked:
                return HTMLPages.device(userCode: typed, error: Credentials.lockedMessage)
            case .incorrect:
                return HTMLPages.device(userCode: typed, error: "Incorrect username or password")
            case .success(let user):
                record.approvedUsername = user.username
                record.authTime = Date()
            }
        }
        try await save(record, id: hash, state: state)
        try await state.store.delete(kind: userCodeKind, id: userCode)
        return HTMLPages.page(
            record.denied ? "Denied" : "Approved",
            "<p>\(HTMLPages.escape(record.denied ? "The device was refused." : "The device is signed in: you can go back to it."))</p>")
    }

    /// The device code grant at the token endpoint (RFC 8628 §3.4–3.5): pending, slow_down,
    /// access_denied or expired_token, until the user approved; then the record is taken once.
    static func grant(_ parameters: [String: String], client: ClientRecord, state: ServerState) async throws -> Record {
        guard let code = parameters["device_code"], !code.isEmpty else { throw OAuthFailure.invalidRequest("device_code is missing") }
        let id = OAuthSupport.tokenID(code)
        guard var record = try await state.store.get(Record.self, kind: kind, id: id), record.clientId == client.clientId else {
            throw OAuthFailure.invalidGrant("the device code is unknown")
        }
        let now = Date()
        guard now < record.expiresAt else { throw OAuthFailure("expired_token", "the device code expired") }
        if record.denied {
            try await state.store.delete(kind: kind, id: id)
            throw OAuthFailure("access_denied", "the user refused the device login")
        }
        guard record.approvedUsername != nil else {
            let tooSoon = record.lastPoll.map { now.timeIntervalSince($0) < Double(record.interval) } ?? false
            if tooSoon { record.interval += 5 }
            record.lastPoll = now
            try await save(record, id: id, state: state)
            throw tooSoon
                ? OAuthFailure("slow_down", "polled sooner than the interval: wait \(record.interval) s between polls")
                : OAuthFailure("authorization_pending", "the user has not approved yet")
        }
        // Taken once: of two polls at the same time, one gets the tokens.
        guard let approved = try await state.store.take(Record.self, kind: kind, id: id) else {
            throw OAuthFailure.invalidGrant("the device code was already used")
        }
        return approved
    }
}
