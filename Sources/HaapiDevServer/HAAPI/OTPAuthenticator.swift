import Crypto
import Foundation
import Hummingbird
import Logging
import OAuthCore

/// A one-time code "sent" to the user: written to the server log, to the request log as
/// `otp: CODE for USERNAME` (so whoever drives a login against `haapi server --log-requests`
/// can read it), and to a test hook (store kind ``FlowSession/otpTestHookKind``, id = the session id).
enum OTPAuthenticator {
    static let name = "otp"
    static let logger = ServerLog(label: "haapi-server.otp")

    static func show(_ request: FlowRequest) -> Response { Wire.reply(Steps.otp()) }

    /// `POST send`: makes a code for the user; answered with a continue-same-step.
    static func send(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        switch try await sendCode(&request, state: state, channel: "otp") {
        case .refused(let problem): return problem
        case .sent(_, let recipient, _):
            return Wire.reply(
                Steps.continueSameStep(
                    ServerTexts.sentence("A code was sent to %@", [recipient]), viewName: "authenticator/otp/authenticate/code-sent"))
        }
    }

    /// What ``sendCode(_:state:channel:)`` did.
    enum Sending {
        /// Sent (or, for a name nobody has, answered the same way without sending) for `username`:
        /// to `recipient`, a masked phone number; `user` when there is one.
        case sent(username: String, recipient: String, user: UserRecord?)
        case refused(Response)
    }

    /// A new six-digit code for the user the form names, kept in the flow and "sent": to the
    /// server log, to the request log as `CHANNEL: CODE for USERNAME`, and to the test hook.
    /// A name nobody has gets the same answer (a masked number, a code nobody receives): the
    /// answer does not tell which names exist.
    /// - Parameter pending: what the flow then waits for, from the name and the code (by default
    ///   the OTP authenticator's code).
    static func sendCode(
        _ request: inout FlowRequest, state: ServerState, channel: String,
        pending: (String, String) -> Pending = { .oneTimeCode(username: $0, code: $1) }
    ) async throws -> Sending {
        guard let username = request.value("userName") else {
            return .refused(Problems.invalidInput([.missing("userName", "You have to enter your username")]))
        }
        let user = try await state.user(username)
        let code = newCode()
        request.flow.wait(for: pending(username, code))
        try await state.saveFlow(request.flow, id: request.sessionID)
        if let user { try await deliver(code, channel: channel, for: username, to: user.phone, request: request, state: state) }
        return .sent(username: username, recipient: maskedPhone(of: username, user), user: user)
    }

    /// A new six-digit one-time code.
    static func newCode() -> String { String(format: "%06d", Int.random(in: 0...999_999)) }

    /// "Sends" `code` to `phone` (the simulated channel every one-time code of this server takes):
    /// the server log, the request log as `CHANNEL: CODE for USERNAME`, and the test hook of the
    /// request's flow (store kind ``FlowSession/otpTestHookKind``).
    static func deliver(
        _ code: String, channel: String, for username: String, to phone: String, request: FlowRequest, state: ServerState
    ) async throws {
        try await state.store.put(
            code, kind: FlowSession.otpTestHookKind, id: request.sessionID, expiresAt: Date().addingTimeInterval(FlowSession.lifetime))
        if let userMessages = state.configuration.userMessages {
            userMessages(.oneTimeCode(channel: channel, username: username, recipient: masked(phone), code: code))
        } else {
            logger.notice("\(channel) code for \(username) (\(phone)): \(code)")
        }
        state.configuration.log("\(channel): \(code) for \(username)")
    }

    /// A phone number as the server shows it: its last three digits (for a name nobody has,
    /// three digits the name always gets, so the answer looks the same).
    static func maskedPhone(of username: String, _ user: UserRecord?) -> String {
        masked(
            user?.phone
                ?? String(format: "%03d", Int(SHA256.hash(data: Data(username.utf8)).prefix(2).reduce(0) { $0 << 8 | Int($1) }) % 1000))
    }

    /// A phone number as the server shows it: its last three digits.
    static func masked(_ phone: String) -> String { "+XX XXX XXX " + String(phone.filter(\.isNumber).suffix(3)) }

    /// `POST verify`: checks the code (failures count toward the lockout).
    static func verify(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let entered = request.value("otp") else {
            return Problems.invalidInput([.missing("otp", "You have to enter the code")])
        }
        guard case .oneTimeCode(let username, let code?) = request.flow.pending else {
            return Problems.genericUserError("No code was sent: ask for one first")
        }
        guard try await Credentials.reserveAttempt(username, state: state) else { return Problems.tooManyAttempts() }
        guard Credentials.constantTimeEqual(entered, code) else { return Problems.incorrectCredentials() }
        try await Credentials.reset(username, state: state)
        try await state.store.delete(kind: FlowSession.otpTestHookKind, id: request.sessionID)
        return try await FlowCompletion.authenticated(&request, username: username, state: state)
    }
}
