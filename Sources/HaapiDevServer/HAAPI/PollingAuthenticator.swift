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
        switch try await count(&request, state: state, unapproved: "The request was not approved", ending: { $0.pollingRecipient = nil }) {
        case .waiting(let done): return Wire.reply(Steps.polling(done: done, recipient: recipient))
        case .failed(let problem): return problem
        }
    }

    /// Where a wait stands after one more poll.
    enum Progress {
        /// Still waiting (`done` false) or approved (`done` true; `moveOn` continues).
        case waiting(done: Bool)
        /// Over without an approval: the problem to answer with.
        case failed(Response)
    }

    /// Counts one poll of the flow's wait (this authenticator's, Duo push's, BankID's) and saves
    /// the flow: done after ``DevServerConfiguration/pollsBeforeDone`` polls, and then failed
    /// (`authentication-failed` saying `unapproved`, the wait ended by `ending`) when nobody
    /// could approve, a name nobody has.
    static func count(
        _ request: inout FlowRequest, state: ServerState, unapproved: String, ending: (inout FlowSession) -> Void
    ) async throws -> Progress {
        request.flow.polls += 1
        let done = request.flow.polls > state.configuration.pollsBeforeDone
        let failed = done && request.flow.pollingUsername == nil
        if failed { ending(&request.flow) }
        try await state.saveFlow(request.flow, id: request.sessionID)
        return failed ? .failed(Problems.authenticationFailed(unapproved)) : .waiting(done: done)
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
