import Foundation
import Hummingbird
import OAuthCore

/// An authenticator that waits for an approval elsewhere: pending for
/// ``DevServerConfiguration/pollsBeforeDone`` polls, then done.
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
        request.flow.pollingUsername = user?.username
        request.flow.pollingRecipient = OTPAuthenticator.maskedPhone(of: username, user)
        request.flow.polls = 0
        try await state.saveFlow(request.flow, id: request.sessionID)
        return Wire.reply(Steps.polling(done: false, recipient: request.flow.pollingRecipient ?? ""))
    }

    /// `GET poll`: pending, then done (with the redirect form that continues), or
    /// `authentication-failed` when nobody could approve.
    static func poll(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let recipient = request.flow.pollingRecipient else {
            return Problems.genericUserError("Nothing is being waited for: start again")
        }
        request.flow.polls += 1
        let done = request.flow.polls > state.configuration.pollsBeforeDone
        if done && request.flow.pollingUsername == nil {
            request.flow.pollingRecipient = nil
            try await state.saveFlow(request.flow, id: request.sessionID)
            return Problems.authenticationFailed("The request was not approved")
        }
        try await state.saveFlow(request.flow, id: request.sessionID)
        return Wire.reply(Steps.polling(done: done, recipient: recipient))
    }

    /// `POST poll` (`moveOn`): once done, the user is authenticated.
    static func moveOn(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let username = request.flow.pollingUsername else {
            return Problems.genericUserError("Nothing is being waited for: start again")
        }
        guard request.flow.polls > state.configuration.pollsBeforeDone else {
            return Problems.genericUserError("The approval is still pending")
        }
        request.flow.pollingUsername = nil
        request.flow.pollingRecipient = nil
        return try await FlowCompletion.authenticated(&request, username: username, state: state)
    }
}
