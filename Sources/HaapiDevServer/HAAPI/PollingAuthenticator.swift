import Foundation
import Hummingbird
import OAuthCore

/// An authenticator that waits for the user's approval on another device: the user names
/// themselves, the server "sends" an approval link (``Approvals``), and the login goes on once
/// it is approved.
enum PollingAuthenticator {
    static let name = "polling"

    static func show(_ request: FlowRequest) -> Response { Wire.reply(Steps.pollingStart()) }

    /// `POST start`: asks the user's phone; the first pending step. A name nobody has gets the
    /// same steps, and its wait ends in `authentication-failed`: nobody approves.
    static func start(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let username = request.value("userName") else {
            return Problems.invalidInput([.missing("userName", "You have to enter your username")])
        }
        let user = try await state.user(username)
        let approval = try await Approvals.ask(request, user: user, purpose: "a login approved on your phone", state: state)
        let recipient = OTPAuthenticator.maskedPhone(of: username, user)
        request.flow.wait(for: .polling(Pending.Wait(recipient: recipient, approval: approval)))
        try await state.saveFlow(request.flow, id: request.sessionID)
        return Wire.reply(Steps.polling(done: false, recipient: recipient, wait: Approvals.wait(approval, state: state)))
    }

    /// `GET poll`: pending, then done once approved (with the redirect form that continues), or
    /// `authentication-failed` when denied or out of time.
    static func poll(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let recipient = request.flow.pending.recipient, let approval = request.flow.pending.approval else {
            return Problems.genericUserError("Nothing is being waited for: start again")
        }
        switch try await Approvals.progress(&request, state: state, unapproved: "The request was not approved") {
        case .waiting(let done):
            return Wire.reply(Steps.polling(done: done, recipient: recipient, wait: Approvals.wait(approval, state: state)))
        case .failed(let problem): return problem
        }
    }

    /// `POST poll` (`moveOn`): once approved, the user is authenticated.
    static func moveOn(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard request.flow.pending.approval != nil else {
            return Problems.genericUserError("Nothing is being waited for: start again")
        }
        guard let username = try await Approvals.take(&request, state: state) else {
            return Problems.genericUserError("The approval is still pending")
        }
        return try await FlowCompletion.authenticated(&request, username: username, state: state)
    }
}
