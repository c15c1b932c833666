import Foundation
import Hummingbird
import Logging
import OAuthCore

/// A one-time code "sent" to the user: written to the server log, to the request log as
/// `otp: CODE for USERNAME` (so whoever drives a login against `haapi server --log-requests`
/// can read it), and to a test hook (store kind ``FlowSession/otpTestHookKind``, id = the session id).
enum OTPAuthenticator {
    static let name = "otp"
    static let logger = Logger(label: "haapi-server.otp")

    static func show(_ request: FlowRequest) -> Response { Wire.reply(Steps.otp()) }

    /// `POST send`: makes a code for the user; answered with a continue-same-step.
    static func send(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        switch try await sendCode(&request, state: state, channel: "otp") {
        case .refused(let problem): return problem
        case .sent(let user):
            return Wire.reply(Steps.continueSameStep("A code was sent to \(user.phone)", viewName: "authenticator/otp/authenticate/code-sent"))
        }
    }

    /// What ``sendCode(_:state:channel:)`` did.
    enum Sending {
        case sent(UserRecord)
        case refused(Response)
    }

    /// A new six-digit code for the user the form names, kept in the flow and "sent": to the
    /// server log, to the request log as `CHANNEL: CODE for USERNAME`, and to the test hook.
    static func sendCode(_ request: inout FlowRequest, state: ServerState, channel: String) async throws -> Sending {
        guard let username = request.value("userName") else {
            return .refused(Problems.invalidInput([.missing("userName", "You have to enter your username")]))
        }
        guard let user = try await state.user(username) else {
            return .refused(Problems.invalidInput([.invalid("userName", "There is no such user")]))
        }
        let code = String(format: "%06d", Int.random(in: 0...999_999))
        request.flow.otpUsername = username
        request.flow.otpCode = code
        try await state.saveFlow(request.flow, id: request.sessionID)
        try await state.store.put(code, kind: FlowSession.otpTestHookKind, id: request.sessionID, expiresAt: Date().addingTimeInterval(FlowSession.lifetime))
        logger.notice("\(channel) code for \(username) (\(user.phone)): \(code)")
        state.configuration.requestLog?("\(channel): \(code) for \(username)")
        return .sent(user)
    }

    /// `POST verify`: checks the code (failures count toward the lockout).
    static func verify(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let entered = request.value("otp") else {
            return Problems.invalidInput([.missing("otp", "You have to enter the code")])
        }
        guard let username = request.flow.otpUsername, let code = request.flow.otpCode else {
            return Problems.genericUserError("No code was sent: ask for one first")
        }
        guard try await Credentials.reserveAttempt(username, state: state) else { return Problems.tooManyAttempts() }
        guard Credentials.constantTimeEqual(entered, code) else { return Problems.incorrectCredentials() }
        try await Credentials.reset(username, state: state)
        request.flow.otpCode = nil
        try await state.store.delete(kind: FlowSession.otpTestHookKind, id: request.sessionID)
        return try await FlowCompletion.authenticated(&request, username: username, state: state)
    }
}
