import Foundation
import Hummingbird
import OAuthCore

/// An authenticator that waits for an approval elsewhere: pending for
/// ``DevServerConfiguration/pollsBeforeDone`` polls, then done.
enum PollingAuthenticator {
    static let name = "polling"

    static func show(_ request: FlowRequest) -> Response { Wire.reply(Steps.pollingStart()) }

    /// `POST start`: asks the user's phone; the first pending step.
    static func start(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let username = request.value("userName") else {
            return Problems.invalidInput([.missing("userName", "You have to enter your username")])
        }
        guard let user = try await state.user(username) else {
            return Problems.invalidInput([.invalid("userName", "There is no such user")])
        }
        request.flow.pollingUsername = username
        request.flow.polls = 0
        try await state.saveFlow(request.flow, id: request.sessionID)
        return Wire.reply(Steps.polling(done: false, recipient: user.phone))
    }

    /// `GET poll`: pending, then done (with the redirect form that continues).
    static func poll(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let username = request.flow.pollingUsername, let user = try await state.user(username) else {
            return Problems.genericUserError("Nothing is being waited for: start again")
        }
        request.flow.polls += 1
        try await state.saveFlow(request.flow, id: request.sessionID)
        return Wire.reply(Steps.polling(done: request.flow.polls > state.configuration.pollsBeforeDone, recipient: user.phone))
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
        return try await FlowCompletion.authenticated(&request, username: username, state: state)
    }
}
