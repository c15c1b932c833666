import Crypto
import Foundation
import Hummingbird
import OAuthCore

/// A Duo-like second factor, shaped as Curity's Duo authenticator sends it: the user's devices
/// in a selector, each a selector of factors (push, which waits for an approval link like the
/// polling authenticator; passcode, which asks for the code the device shows). The passcode is
/// "shown on the device" as the OTP authenticator sends its code: in the server log, the
/// request log (`duo: CODE for USERNAME`) and the test hook.
enum DuoAuthenticator {
    static let name = "duo"

    static func show(_ request: FlowRequest) -> Response {
        Wire.reply(
            Steps.username(
                "Log in with Duo", href: HaapiPaths.duoDevices, viewName: "authenticator/duo/authenticate/get", actionTitle: "Continue"))
    }

    /// The user's devices: a phone and a tablet, with ids as stable as the name (a name nobody
    /// has gets devices too, so the answer does not tell which names exist), each with its title
    /// (in the request's language) and what a push to it asks the user to approve (in English,
    /// as an approval's purpose is kept: its page is read in its reader's language).
    static func devices(of username: String, _ user: UserRecord?) -> [(id: String, title: String, purpose: String)] {
        [
            ("phone", ServerTexts.sentence("Phone (%@)", [OTPAuthenticator.maskedPhone(of: username, user)]), "a Duo push to your phone"),
            ("tablet", "Tablet", "a Duo push to your tablet"),
        ].map { kind, title, purpose in
            let id = "D" + SHA256.hash(data: Data("\(username)|\(kind)".utf8)).prefix(9).map { String(format: "%02X", $0) }.joined()
            return (id, title, purpose)
        }
    }

    /// `POST devices`: the device selection, and a new passcode on the user's devices.
    static func devices(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        switch try await OTPAuthenticator.sendCode(
            &request, state: state, channel: "duo", pending: { .duo(username: $0, passcode: $1, push: nil) })
        {
        case .refused(let problem): return problem
        case .sent(let username, _, let user): return Wire.reply(Steps.duoDevices(devices(of: username, user).map { ($0.id, $0.title) }))
        }
    }

    /// `POST select-device`: push waits for the approval; passcode checks the code (failures
    /// count toward the lockout).
    static func selectDevice(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard case .duo(let username, let passcode, _) = request.flow.pending else {
            return Problems.genericUserError("No device was selected: start again")
        }
        let user = try await state.user(username)
        guard let device = devices(of: username, user).first(where: { $0.id == request.value("device") }) else {
            return Problems.invalidInput([.invalid("device", "This device is not one of yours")])
        }
        switch request.value("factor") {
        case "push":
            let approval = try await Approvals.ask(request, user: user, purpose: device.purpose, state: state)
            request.flow.wait(
                for: .duo(username: username, passcode: passcode, push: Pending.Wait(recipient: device.title, approval: approval)))
            try await state.saveFlow(request.flow, id: request.sessionID)
            return Wire.reply(Steps.polling(done: false, recipient: device.title, wait: Approvals.wait(approval, state: state)))
        case "passcode":
            guard let entered = request.value("passcode") else {
                return Problems.invalidInput([.missing("passcode", "You have to enter the passcode")])
            }
            guard try await Credentials.reserveAttempt(username, state: state) else { return Problems.tooManyAttempts() }
            guard user != nil, let passcode, Credentials.constantTimeEqual(entered, passcode) else {
                return Problems.incorrectCredentials()
            }
            try await Credentials.reset(username, state: state)
            try await state.store.delete(kind: FlowSession.otpTestHookKind, id: request.sessionID)
            return try await FlowCompletion.authenticated(&request, username: username, state: state)
        default:
            return Problems.invalidInput([.invalid("factor", "Choose push or passcode")])
        }
    }
}
