import Foundation
import Hummingbird
import OAuthCore

/// The username/password authenticator, with account creation and password reset.
enum UsernamePasswordAuthenticator {
    static let name = "username-password"

    /// The login step (HAAPI) or page (browser).
    static func show(_ request: FlowRequest, error: String? = nil, notice: String? = nil) -> Response {
        if request.isHaapi {
            return Wire.reply(Steps.usernamePassword(messages: notice.map { [Wire.message($0)] } ?? []))
        }
        return HTMLPages.login(
            action: HaapiPaths.usernamePassword, hiddenFields: [("session", request.sessionID)], error: error, notice: notice,
            sessionID: request.sessionID, status: error == nil ? .ok : .badRequest)
    }

    /// Missing `userName` / `password`, as invalid-input fields.
    static func missingFields(_ request: FlowRequest, passwordDetail: String = "You have to enter your password") -> [Problems.InvalidField]
    {
        var fields: [Problems.InvalidField] = []
        if request.value("userName") == nil { fields.append(.missing("userName", "You have to enter your username")) }
        if (request.parameters["password"] ?? "").isEmpty { fields.append(.missing("password", passwordDetail)) }
        return fields
    }

    /// A refusal as a problem (HAAPI) or the page again with the error (browser).
    static func refuse(_ request: FlowRequest, _ problem: Response, _ text: String, page: (String) -> Response) -> Response {
        request.isHaapi ? problem : page(text)
    }

    /// `POST`: checks the password (lockout after repeated failures).
    static func login(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        let current = request
        let loginPage = { (text: String) in show(current, error: text) }
        let missing = missingFields(request)
        guard missing.isEmpty, let username = request.value("userName"), let password = request.parameters["password"] else {
            return refuse(request, Problems.invalidInput(missing), "Enter your username and password", page: loginPage)
        }
        switch try await Credentials.check(username: username, password: password, state: state) {
        case .locked:
            return refuse(request, Problems.tooManyAttempts(), Credentials.lockedMessage, page: loginPage)
        case .incorrect:
            return refuse(request, Problems.incorrectCredentials(), "Incorrect username or password", page: loginPage)
        case .success(let user):
            return try await FlowCompletion.authenticated(&request, username: user.username, state: state)
        }
    }

    /// `GET` of the register-create link: the registration form.
    static func registrationForm(_ request: FlowRequest) -> Response {
        request.isHaapi ? Wire.reply(Steps.registration()) : HTMLPages.registration(sessionID: request.sessionID)
    }

    /// `POST`: sends a code to the phone given, which confirms the account. The answer is the
    /// same whether the name is free or taken (nothing tells which names exist); for a taken
    /// name the phone's owner is told so instead of getting a code.
    static func register(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        let page = { [sessionID = request.sessionID] (text: String) in HTMLPages.registration(sessionID: sessionID, error: text) }
        var missing = missingFields(request, passwordDetail: "Choose a password")
        if request.value("phone") == nil { missing.append(.missing("phone", "A code is sent to this number to confirm the account")) }
        guard missing.isEmpty, let username = request.value("userName"), let password = request.parameters["password"],
            let phone = request.value("phone")
        else {
            return refuse(request, Problems.invalidInput(missing), "Enter a username, a password and a phone number", page: page)
        }
        // Hashed either way, so the answer takes as long for a taken name.
        let account = UserRecord(
            username: username, password: password, name: request.value("name") ?? username, email: request.value("email") ?? "",
            phone: phone)
        let taken = try await state.user(username) != nil
        if taken {
            OTPAuthenticator.logger.notice("account creation: told \(phone) that the name \(username) is taken")
            state.configuration.log("register: taken for \(username)")
        }
        let sent = ServerTexts.sentence(
            "A message was sent to %@: enter the code it gives to create the account", [OTPAuthenticator.masked(phone)])
        return try await sendCode(
            &request, channel: "register", for: username, to: taken ? nil : phone, state: state,
            pending: { .accountCreation(account: taken ? nil : account, $0) }, notice: sent,
            viewName: "authenticator/html-form/register/code-sent",
            confirmPage: HTMLPages.registrationConfirm)
    }

    /// Sends a new code to `phone` (none is sent without one, though the code is still waited
    /// for), keeps its check in the flow as `pending`, and answers with `notice` and the form
    /// that takes the code (`confirmPage`; over HAAPI, a `continue-same-step` of `viewName`).
    private static func sendCode(
        _ request: inout FlowRequest, channel: String, for username: String, to phone: String?, state: ServerState,
        pending: (Pending.CodeCheck) -> Pending, notice: String, viewName: String,
        confirmPage: (_ sessionID: String, _ notice: String?, _ error: String?) -> Response
    ) async throws -> Response {
        let code = OTPAuthenticator.newCode()
        request.flow.wait(for: pending(Pending.CodeCheck(code: code)))
        try await state.saveFlow(request.flow, id: request.sessionID)
        if let phone {
            try await OTPAuthenticator.deliver(code, channel: channel, for: username, to: phone, request: request, state: state)
        }
        return request.isHaapi
            ? Wire.reply(Steps.continueSameStep(notice, viewName: viewName)) : confirmPage(request.sessionID, notice, nil)
    }

    /// `POST confirm`: the code sent to the phone creates the account (a taken name has no
    /// code, so it fails as a wrong code does), then the login form is shown again.
    static func confirmRegistration(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        let page = { [sessionID = request.sessionID] (text: String) in HTMLPages.registrationConfirm(sessionID: sessionID, error: text) }
        guard case .accountCreation(let account, let check) = request.flow.pending, let expected = check.code else {
            return refuse(
                request, Problems.genericUserError("No code was sent: create the account first"), "Create the account first", page: page)
        }
        guard let code = request.value("code") else {
            return refuse(request, Problems.invalidInput([.missing("code", "You have to enter the code")]), "Enter the code", page: page)
        }
        func refused(_ request: inout FlowRequest) async throws -> Response {
            try await refuseCode(&request, check: check, state: state, page: page) { .accountCreation(account: account, $0) }
        }
        guard let account, Credentials.constantTimeEqual(code, expected) else { return try await refused(&request) }
        // Before the account exists, an unknown name costs what this one will.
        state.raiseDecoyRounds(toThoseOf: account.passwordHash)
        // Of two creations of one name at once, one wins.
        guard try await state.store.insertIfAbsent(account, kind: "user", id: account.username) else { return try await refused(&request) }
        return try await codeAccepted(&request, notice: "Account created: you can log in now", state: state)
    }

    /// `GET` of the forgot-password link: the reset form.
    static func resetForm(_ request: FlowRequest) -> Response {
        request.isHaapi ? Wire.reply(Steps.passwordReset()) : HTMLPages.passwordReset(sessionID: request.sessionID)
    }

    /// The one answer to a reset request, whoever was named (no way to learn which names exist).
    static let resetSent = "If the account exists, a code was sent to its owner's phone"
    /// Wrong codes allowed for one code: then a new one must be asked for.
    static let resetAttempts = 5

    /// A code that is not the one sent (to reset a password or create an account): counted in
    /// the `check`'s failures, which `pending` keeps in the flow; after ``resetAttempts`` its code is spent.
    static func refuseCode(
        _ request: inout FlowRequest, check: Pending.CodeCheck, state: ServerState, page: (String) -> Response,
        pending: (Pending.CodeCheck) -> Pending
    ) async throws -> Response {
        var check = check
        check.failures += 1
        if check.failures >= resetAttempts { check.code = nil }
        request.flow.wait(for: pending(check))
        try await state.saveFlow(request.flow, id: request.sessionID)
        return refuse(request, Problems.incorrectCredentials(), "The code is not the one sent", page: page)
    }

    /// The code sent (to reset a password or create an account) was right and has done its work:
    /// the wait ends, and the login form is shown again with `notice`.
    static func codeAccepted(_ request: inout FlowRequest, notice: String, state: ServerState) async throws -> Response {
        request.flow.endWait()
        try await state.saveFlow(request.flow, id: request.sessionID)
        try await state.store.delete(kind: FlowSession.otpTestHookKind, id: request.sessionID)
        return show(request, notice: notice)
    }

    /// `POST`: sends a code to the account's owner (the same simulated channel as the OTP
    /// authenticator: the server log, the request log as `reset: CODE for USERNAME`, the test
    /// hook). Nothing changes yet; known and unknown names get the same answer.
    static func resetPassword(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        let page = { [sessionID = request.sessionID] (text: String) in HTMLPages.passwordReset(sessionID: sessionID, error: text) }
        guard let username = request.value("userName") else {
            return refuse(
                request, Problems.invalidInput([.missing("userName", "You have to enter your username")]), "Enter your username", page: page
            )
        }
        return try await sendCode(
            &request, channel: "reset", for: username, to: try await state.user(username)?.phone, state: state,
            pending: { .passwordReset(username: username, $0) }, notice: resetSent,
            viewName: "authenticator/html-form/forgot-password/code-sent", confirmPage: HTMLPages.passwordResetConfirm)
    }

    /// `POST confirm`: the code proves control of the account; then the new password is set
    /// (and a lockout lifted), and the login form is shown again.
    static func confirmReset(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        let page = { [sessionID = request.sessionID] (text: String) in HTMLPages.passwordResetConfirm(sessionID: sessionID, error: text) }
        guard case .passwordReset(let username, let check) = request.flow.pending, let expected = check.code else {
            return refuse(request, Problems.genericUserError("No code was sent: ask for one first"), "Ask for a code first", page: page)
        }
        var missing: [Problems.InvalidField] = []
        if request.value("code") == nil { missing.append(.missing("code", "You have to enter the code")) }
        if (request.parameters["password"] ?? "").isEmpty { missing.append(.missing("password", "Choose a new password")) }
        guard missing.isEmpty, let code = request.value("code"), let password = request.parameters["password"] else {
            return refuse(request, Problems.invalidInput(missing), "Enter the code and a new password", page: page)
        }
        guard Credentials.constantTimeEqual(code, expected), var user = try await state.user(username) else {
            return try await refuseCode(&request, check: check, state: state, page: page) { .passwordReset(username: username, $0) }
        }
        user.setPassword(password)
        state.raiseDecoyRounds(toThoseOf: user.passwordHash)
        try await state.store.put(user, kind: "user", id: username)
        try await Credentials.reset(username, state: state)
        return try await codeAccepted(&request, notice: "Your password was changed: you can log in now", state: state)
    }
}
