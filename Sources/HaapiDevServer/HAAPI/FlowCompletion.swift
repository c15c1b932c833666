import Crypto
import Foundation
import Hummingbird
import OAuthCore

/// The end of authentication: consent, the authorization code, the OAuth outcome.
enum FlowCompletion {
    /// Scopes that need no consent.
    static let consentFree: Set<String> = ["openid", SeedData.haapiScope]

    /// What the consent step says each scope gives the client (a scope not here is shown by name).
    static let scopeDescriptions: [String: String] = [
        "profile": "Your name, username and locale",
        "email": "Your email address and whether it is verified",
        "phone": "Your phone number",
        "address": "Your postal address",
        "offline_access": "Access while you are away (a refresh token)",
    ]

    /// The user is authenticated: ask for consent if needed, otherwise issue the code.
    static func authenticated(_ request: inout FlowRequest, username: String, state: ServerState) async throws -> Response {
        request.flow.authenticated(username)
        let needing = request.flow.scope.filter { !consentFree.contains($0) }
        if !needing.isEmpty {
            let given = try await state.store.get([String].self, kind: "consent", id: consentID(username, request.flow.clientId)) ?? []
            if !Set(needing).isSubset(of: Set(given)) {
                try await state.saveFlow(request.flow, id: request.sessionID)
                let client = try await state.store.get(ClientRecord.self, kind: "client", id: request.flow.clientId)
                let name = client?.name ?? request.flow.clientId
                return request.isHaapi
                    ? Wire.reply(Steps.consent(scopes: needing, clientName: name))
                    : HTMLPages.consent(sessionID: request.sessionID, clientName: name, scopes: needing)
            }
        }
        return try await issueCode(request, scope: request.flow.scope, state: state)
    }

    /// The consent form: the checked scopes are granted (and remembered for this user and client).
    static func consent(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let username = request.flow.username else {
            return request.isHaapi
                ? Problems.genericUserError("Consent comes after authentication")
                : HTMLPages.error("Consent comes after authentication", status: .badRequest)
        }
        let needing = request.flow.scope.filter { !consentFree.contains($0) }
        // An unchecked box is left out of the form; an empty value counts as unchecked too.
        let accepted = needing.filter { request.value("consent_\($0)")?.isEmpty == false }
        try await state.store.put(accepted, kind: "consent", id: consentID(username, request.flow.clientId))
        let granted = request.flow.scope.filter { consentFree.contains($0) || accepted.contains($0) }
        let declinedOffline = request.flow.scope.contains("offline_access") && !granted.contains("offline_access")
        return try await issueCode(request, scope: granted, refreshTokenDeclined: declinedOffline, state: state)
    }

    static func consentID(_ username: String, _ clientId: String) -> String { "\(username)|\(clientId)" }

    /// Stores the code (``AuthorizationCodeRecord``), ends the flow, and answers the authorization response.
    static func issueCode(_ request: FlowRequest, scope: [String], refreshTokenDeclined: Bool = false, state: ServerState) async throws
        -> Response
    {
        let flow = request.flow
        guard let username = flow.username else { throw FlowError("no authenticated user") }
        let code = SeedData.randomToken(24)
        let bound = request.client.issueTokenBoundAuthorizationCode && flow.isHaapi ? flow.sessionJkt : nil
        let record = AuthorizationCodeRecord(
            clientId: flow.clientId, redirectUri: flow.redirectUri, scope: scope, username: username, nonce: flow.nonce,
            codeChallenge: flow.codeChallenge, codeChallengeMethod: flow.codeChallengeMethod, dpopJkt: bound ?? flow.requestedDPoPJkt,
            authTime: flow.authTime ?? Date(), refreshTokenDeclined: refreshTokenDeclined ? true : nil)
        try await state.store.put(
            record, kind: AuthorizationCodeRecord.kind, id: code, expiresAt: Date().addingTimeInterval(AuthorizationCodeRecord.lifetime))
        try await state.endFlow(request.sessionID)
        let iss = state.issuer.absoluteString
        let redirect = Wire.appendingQuery(flow.redirectUri, [("code", code), ("state", flow.state), ("iss", iss)])
        return flow.isHaapi
            ? Wire.reply(Steps.authorizationResponse(code: code, state: flow.state, iss: iss, redirect: redirect))
            : Reply.redirect(redirect)
    }

    /// An OAuth error outcome: the problem error-authorization-response (HAAPI) or a redirect with the error (browser).
    static func oauthError(
        _ error: String, _ description: String, redirectUri: String, stateParameter: String?, isHaapi: Bool, state: ServerState
    ) -> Response {
        let iss = state.issuer.absoluteString
        let redirect = Wire.appendingQuery(
            redirectUri, [("error", error), ("error_description", description), ("state", stateParameter), ("iss", iss)])
        return isHaapi
            ? Problems.errorAuthorizationResponse(error: error, description: description, iss: iss, redirect: redirect)
            : Reply.redirect(redirect)
    }

    /// The user cancels: the flow ends with `access_denied`.
    static func cancel(_ request: FlowRequest, state: ServerState) async throws -> Response {
        try await state.endFlow(request.sessionID)
        return oauthError(
            "access_denied", "The user cancelled the authentication", redirectUri: request.flow.redirectUri,
            stateParameter: request.flow.state, isHaapi: request.isHaapi, state: state)
    }
}

/// Password checks with lockout after ``DevServerConfiguration/lockoutAfterFailures`` failures.
///
/// Each attempt is counted before anything is compared, in one SQLite statement: parallel
/// attempts cannot all pass the lockout check first, so a lockout period allows at most the
/// limit's number of comparisons. A success clears the count. A locked account unlocks when
/// ``lockoutDuration`` has passed since the last attempt, or at once by a password reset (which
/// proves control of the account).
enum Credentials {
    enum Outcome { case success(UserRecord), incorrect, locked }

    static let failuresKind = "login-failures"
    static let lockoutDuration: TimeInterval = 15 * 60
    /// What a locked account's owner reads.
    static let lockedMessage = "Too many failed attempts: the account is locked for 15 minutes, or until its password is reset"

    /// Counts an attempt for `username`; `false` when the account is locked (nothing may be compared).
    static func reserveAttempt(_ username: String, state: ServerState) async throws -> Bool {
        let attempts = try await state.store.increment(
            kind: failuresKind, id: username, expiresAt: Date().addingTimeInterval(lockoutDuration))
        return attempts <= state.configuration.lockoutAfterFailures
    }

    static func reset(_ username: String, state: ServerState) async throws {
        try await state.store.delete(kind: failuresKind, id: username)
    }

    /// Checks a password: a locked account is refused even with the right password.
    static func check(username: String, password: String, state: ServerState) async throws -> Outcome {
        guard try await reserveAttempt(username, state: state) else { return .locked }
        // Unknown users cost a hash too: the answer's time does not tell which names exist.
        let user = try await state.user(username)
        let hashing = state.configuration.passwordHashing
        guard PasswordHash.verify(password, against: user?.passwordHash ?? decoy(state), hashing: hashing), let user else {
            return .incorrect
        }
        try await reset(username, state: state)
        return .success(user)
    }

    /// The hash an unknown user's password is checked against: as costly as a known user's
    /// (``ServerState/decoyRounds``), so the answer's time does not tell which names exist.
    static func decoy(_ state: ServerState) -> String { PasswordHash.decoy(rounds: state.decoyRounds) }

    /// Compares two secrets (a client secret, a one-time code) in time that tells neither where
    /// they differ nor how long the expected one is: their SHA-256 digests are compared.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        constantTimeEqual(Array(SHA256.hash(data: Data(a.utf8))), Array(SHA256.hash(data: Data(b.utf8))))
    }

    /// Compares two byte strings in time that depends only on their lengths.
    static func constantTimeEqual(_ x: [UInt8], _ y: [UInt8]) -> Bool {
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
