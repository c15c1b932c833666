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
    static func missingFields(_ request: FlowRequest, passwordDetail: String = "You have to enter your password") -> [Problems.InvalidField] {
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
            return refuse(request, Problems.tooManyAttempts(), "Too many failed attempts: the account is locked", page: loginPage)
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

    /// `POST`: creates the user, then shows the login form again.
    static func register(_ request: FlowRequest, state: ServerState) async throws -> Response {
        let page = { (text: String) in HTMLPages.registration(sessionID: request.sessionID, error: text) }
        let missing = missingFields(request, passwordDetail: "Choose a password")
        guard missing.isEmpty, let username = request.value("userName"), let password = request.parameters["password"] else {
            return refuse(request, Problems.invalidInput(missing), "Enter a username and a password", page: page)
        }
        if try await state.user(username) != nil {
            return refuse(request, Problems.invalidInput([.invalid("userName", "This username is taken")]), "This username is taken", page: page)
        }
        let user = UserRecord(
            username: username, password: password, name: request.value("name") ?? username, email: request.value("email") ?? "",
            phone: request.value("phone") ?? "")
        try await state.store.put(user, kind: "user", id: username)
        return show(request, notice: "Account created: you can log in now")
    }

    /// `GET` of the forgot-password link: the reset form.
    static func resetForm(_ request: FlowRequest) -> Response {
        request.isHaapi ? Wire.reply(Steps.passwordReset()) : HTMLPages.passwordReset(sessionID: request.sessionID)
    }

    /// `POST`: sets the new password (and lifts a lockout), then shows the login form again.
    static func resetPassword(_ request: FlowRequest, state: ServerState) async throws -> Response {
        let page = { (text: String) in HTMLPages.passwordReset(sessionID: request.sessionID, error: text) }
        let missing = missingFields(request, passwordDetail: "Choose a new password")
        guard missing.isEmpty, let username = request.value("userName"), let password = request.parameters["password"] else {
            return refuse(request, Problems.invalidInput(missing), "Enter your username and a new password", page: page)
        }
        guard var user = try await state.user(username) else {
            return refuse(request, Problems.invalidInput([.invalid("userName", "There is no such user")]), "There is no such user", page: page)
        }
        user.password = password
        try await state.store.put(user, kind: "user", id: username)
        try await Credentials.reset(username, state: state)
        return show(request, notice: "Your password was changed: you can log in now")
    }
}
