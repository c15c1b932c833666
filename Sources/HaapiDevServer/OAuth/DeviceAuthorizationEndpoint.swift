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
        /// When the device asked (shown on the consent page); `nil` in records of older servers.
        var requestedAt: Date?
    }

    static func add(to router: Router<DevServerRequestContext>, state: ServerState) {
        router.post(RouterPath(path)) { request, _ in await authorize(request, state: state) }
        router.get(RouterPath(pagePath)) { request, _ in
            HTMLPages.device(userCode: request.uri.queryParameters.get("user_code").map { String($0) } ?? "")
        }
        router.post(RouterPath(pagePath)) { request, context in
            await HaapiRoutes.guarded(request) { try await decide(request, source: context.source, state: state) }
        }
    }

    /// `POST /oauth/device_authorization` (RFC 8628 §3.1–3.2).
    static func authorize(_ request: Request, state: ServerState) async -> Response {
        do {
            let parameters = try await OAuthSupport.form(request)
            let client = try await ClientAuthenticator.authenticate(
                request: request, parameters: parameters, state: state, path: path, allowsPublicAttestationClient: false
            ).client
            // A device login is a browser login on another device: attested HAAPI clients keep to HAAPI.
            guard client.mayUseBrowserFlow else {
                throw OAuthFailure.unauthorizedClient("the client \(client.clientId) may not use the device authorization grant")
            }
            let scope = OAuthSupport.scopes(parameters["scope"])
            if let unknown = scope.first(where: { !client.scope.contains($0) }) {
                throw OAuthFailure.invalidScope("the client may not ask for the scope \"\(unknown)\"")
            }
            // Device logins are started without a user: each costs rows until it expires, so a client's are capped.
            guard
                try await state.store.count(kind: kind, where: "$.clientId", equals: client.clientId)
                    < state.configuration.maxDeviceCodesPerClient
            else {
                throw OAuthFailure(
                    "temporarily_unavailable",
                    "too many device logins of the client \(client.clientId) are under way: finish or abandon some, then try again",
                    status: .tooManyRequests)
            }
            let deviceCode = SeedData.randomToken()
            let userCode = String((0..<8).map { _ in alphabet.randomElement()! })
            let lifetime = state.configuration.deviceCodeLifetime
            let expiresAt = Date().addingTimeInterval(TimeInterval(lifetime))
            let record = Record(
                clientId: client.clientId, scope: scope, userCode: userCode, expiresAt: expiresAt,
                interval: state.configuration.deviceCodeInterval,
                requestedAt: Date())
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

    /// Tries of the page are counted in fixed one-minute windows, per source address and per
    /// device code (``DevServerConfiguration/deviceCodeTriesPerMinute`` and
    /// ``DevServerConfiguration/deviceCodeTriesPerCode``): user codes are short enough to guess
    /// (RFC 8628 §5.1). Each try is counted before any code is looked up, so parallel guesses get
    /// no more; the window is fixed, so nobody can keep another's counter alive; and a flood from
    /// one address closes the page for that address only.
    static let triesKind = "device-code-tries"
    /// Consents waiting for the user's Approve or Deny (id = the single-use token in the form).
    static let consentKind = "device-consent"
    /// How long the user may take to read the consent page.
    static let consentLifetime: TimeInterval = 600

    /// A signed-in user's pending answer for one device login.
    struct Consent: Codable, Sendable {
        /// The device login's id (its device code's hash).
        var deviceCodeID: String
        var userCode: String
        var username: String
    }

    /// `POST /device`. Two steps, as RFC 8628 §5.4–5.5 asks: the user code and the user's
    /// credentials (`user_code`, `userName`, `password`) give the consent page, which shows the
    /// client and the scopes; its form (`consent` token, `decision` = `approve` or `deny`, the
    /// checked `consent_SCOPE` boxes) answers. So nothing is approved or denied without both the
    /// credentials and the user's confirmation of what is asked.
    static func decide(_ request: Request, source: String, state: ServerState) async throws -> Response {
        let parameters = try await FlowRequest.allParameters(request)
        if let token = parameters["consent"] { return try await confirm(token, parameters, state: state) }
        let typed = parameters["user_code"] ?? ""
        let userCode = normalized(typed)
        let window = Date().addingTimeInterval(state.configuration.deviceCodeTryWindow.timeInterval)
        let bySource = try await state.store.increment(kind: triesKind, id: "source " + source, expiresAt: window, window: .fixed)
        guard bySource <= state.configuration.deviceCodeTriesPerMinute else { return tooManyTries(typed) }
        guard let hash = try await state.store.get(String.self, kind: userCodeKind, id: userCode),
            let record = try await state.store.get(Record.self, kind: kind, id: hash),
            record.approvedUsername == nil, !record.denied, Date() < record.expiresAt
        else {
            return HTMLPages.device(
                userCode: typed, error: "This code is unknown, already used or expired: check it, or start again on the device.")
        }
        let byCode = try await state.store.increment(kind: triesKind, id: "code " + hash, expiresAt: window, window: .fixed)
        guard byCode <= state.configuration.deviceCodeTriesPerCode else { return tooManyTries(typed) }
        let username = parameters["userName"]?.trimmingCharacters(in: .whitespaces) ?? ""
        switch try await Credentials.check(username: username, password: parameters["password"] ?? "", state: state) {
        case .locked:
            return HTMLPages.device(userCode: typed, error: Credentials.lockedMessage)
        case .incorrect:
            return HTMLPages.device(userCode: typed, error: "Incorrect username or password")
        case .success(let user):
            let token = SeedData.randomToken(24)
            try await state.store.put(
                Consent(deviceCodeID: hash, userCode: userCode, username: user.username), kind: consentKind, id: token,
                expiresAt: min(record.expiresAt, Date().addingTimeInterval(consentLifetime)))
            return HTMLPages.deviceConsent(
                token: token, userCode: userCode, clientId: record.clientId, scopes: record.scope, requestedAt: record.requestedAt)
        }
    }

    /// The 429 page of a source or a code past its tries.
    static func tooManyTries(_ typed: String) -> Response {
        var page = HTMLPages.device(
            userCode: typed, error: "Too many tries in the last minute: wait a minute, then enter your code again.",
            status: .tooManyRequests)
        page.headers[.retryAfter] = "60"
        return page
    }

    /// The consent page's answer: the token is spent, and the device login is approved (with the
    /// scopes left checked) or denied in one atomic update, unless it was answered meanwhile.
    static func confirm(_ token: String, _ parameters: [String: String], state: ServerState) async throws -> Response {
        guard let decision = parameters["decision"], ["approve", "deny"].contains(decision) else {
            return HTMLPages.error("Choose Approve or Deny.", status: .badRequest)
        }
        guard let consent = try await state.store.take(Consent.self, kind: consentKind, id: token) else {
            return HTMLPages.device(userCode: "", error: "This page expired or was already answered: enter the code again.")
        }
        let approve = decision == "approve"
        let now = Date()
        let answered = try await state.store.update(Record.self, kind: kind, id: consent.deviceCodeID) { record in
            guard record.approvedUsername == nil, !record.denied, now < record.expiresAt else { return false }
            if approve {
                record.scope = record.scope.filter { FlowCompletion.consentFree.contains($0) || parameters["consent_\($0)"] != nil }
                record.approvedUsername = consent.username
                record.authTime = now
            } else {
                record.denied = true
            }
            return true
        }
        try await state.store.delete(kind: userCodeKind, id: consent.userCode)
        guard answered != nil else {
            return HTMLPages.device(
                userCode: "", error: "This code is unknown, already used or expired: check it, or start again on the device.")
        }
        return HTMLPages.page(
            approve ? "Approved" : "Denied",
            "<p>\(markup: HTMLPages.t(approve ? "The device is signed in: you can go back to it." : "The device was refused."))</p>")
    }

    /// The device code grant at the token endpoint (RFC 8628 §3.4–3.5): pending, slow_down,
    /// access_denied or expired_token, until the user approved; then the record is taken once.
    static func grant(_ parameters: [String: String], client: ClientRecord, state: ServerState) async throws -> Record {
        guard let code = parameters["device_code"], !code.isEmpty else { throw OAuthFailure.invalidRequest("device_code is missing") }
        let id = OAuthSupport.tokenID(code)
        guard let record = try await state.store.get(Record.self, kind: kind, id: id), record.clientId == client.clientId else {
            throw OAuthFailure.invalidGrant("the device code is unknown")
        }
        let now = Date()
        guard now < record.expiresAt else { throw OAuthFailure("expired_token", "the device code expired") }
        if record.denied {
            try await state.store.delete(kind: kind, id: id)
            throw OAuthFailure("access_denied", "the user refused the device login")
        }
        if record.approvedUsername == nil {
            // Only an unanswered record takes the poll's time: an answer given since the read is kept.
            let polled = try await state.store.update(Record.self, kind: kind, id: id) { record in
                guard record.approvedUsername == nil, !record.denied else { return false }
                if record.lastPoll.map({ now.timeIntervalSince($0) < Double(record.interval) }) ?? false { record.interval += 5 }
                record.lastPoll = now
                return true
            }
            guard let polled else {
                // Answered (or gone) between the read and the update: that answer decides.
                return try await grant(parameters, client: client, state: state)
            }
            throw polled.after.interval > polled.before.interval
                ? OAuthFailure("slow_down", "polled sooner than the interval: wait \(polled.after.interval) s between polls")
                : OAuthFailure("authorization_pending", "the user has not approved yet")
        }
        // Taken once: of two polls at the same time, one gets the tokens.
        guard let approved = try await state.store.take(Record.self, kind: kind, id: id) else {
            throw OAuthFailure.invalidGrant("the device code was already used")
        }
        return approved
    }
}
