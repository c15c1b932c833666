import Foundation
import HTTPTypes
import Hummingbird
import OAuthCore

/// The HTML pages of the browser flows (the same flows as HAAPI, for a browser: the browser
/// login and the external-browser operation). Plain forms, no script; worded in the request's
/// language (``ServerLanguage``), as the HAAPI steps are.
enum HTMLPages {
    /// The style of a server whose configuration gives none.
    static let plainStyle: Markup = "body { font-family: system-ui, sans-serif; max-width: 28em; margin: 2em auto; padding: 0 16px; }"

    /// The style sheet of the pages of the request being answered: the configuration's
    /// ``DevServerConfiguration/pageStyle`` (set by ``LanguageMiddleware``, with the language).
    @TaskLocal static var style: Markup = plainStyle

    /// `text` in the request's language, escaped.
    static func t(_ text: String) -> Markup { "\(text: ServerTexts.translate(text))" }

    /// The sentence `english` (with `%@` or `%1$@` markers) in the request's language, escaped,
    /// with `arguments` in its places: translated, escaped, then filled in one pass, as
    /// ``ServerTexts/sentence(_:_:)`` fills a HAAPI text.
    static func sentence(_ english: String, _ arguments: [Markup]) -> Markup {
        Markup.filling(t(english), arguments)
    }

    static func page(_ title: String, _ body: Markup, status: HTTPResponse.Status = .ok) -> Response {
        Reply.html(
            """
            <!DOCTYPE html>
            <html lang="\(text: ServerLanguage.current)"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><title>\(markup: t(title))</title>
            <style>
            \(markup: style)
            </style>
            </head><body><main class="screen page"><h1>\(markup: t(title))</h1>
            \(markup: body)
            </main></body></html>
            """, status: status)
    }

    static func hidden(_ fields: [(String, String)]) -> Markup {
        Markup.joined(
            fields.map { name, value -> Markup in "<input type=\"hidden\" name=\"\(text: name)\" value=\"\(text: value)\">" },
            separator: "\n")
    }

    static func notices(error: String?, notice: String?) -> Markup {
        let error: Markup = error.map { "<p class=\"error\">\(markup: t($0))</p>\n" } ?? .empty
        let notice: Markup = notice.map { "<p class=\"info\">\(markup: t($0))</p>\n" } ?? .empty
        return error + notice
    }

    /// The username/password login form, posting to `action` with `hiddenFields`.
    static func login(
        action: String, hiddenFields: [(String, String)], error: String? = nil, notice: String? = nil, sessionID: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        var links = Markup.empty
        if let sessionID {
            let forgot = PageLink.path(HaapiPaths.forgotPassword, query: [("session", sessionID)])
            let register = PageLink.path(HaapiPaths.register, query: [("session", sessionID)])
            links = """
                <p><a rel="forgot-password" href="\(link: forgot)">\(markup: t("Forgot your password?"))</a>
                <a rel="register-create" href="\(link: register)">\(markup: t("Create account"))</a></p>
                """
        }
        return page(
            "Log in",
            notices(error: error, notice: notice) + """
                <form method="post" action="\(link: .path(action))">
                \(markup: hidden(hiddenFields))
                <label>\(markup: t("Username")) <input name="userName" autocomplete="username"></label>
                <label>\(markup: t("Password")) <input type="password" name="password" autocomplete="current-password"></label>
                <button type="submit">\(markup: t("Log in"))</button>
                </form>
                \(markup: links)
                """, status: status)
    }

    static func registration(sessionID: String, error: String? = nil) -> Response {
        formPage(
            "Create account", action: HaapiPaths.register, sessionID: sessionID, error: error,
            fields: [
                #"<label>\#(markup: t("Username")) <input name="userName"></label>"#,
                #"<label>\#(markup: t("Password")) <input type="password" name="password"></label>"#,
                #"<label>\#(markup: t("Full name")) <input name="name"></label>"#,
                #"<label>\#(markup: t("E-mail")) <input type="email" name="email"></label>"#,
                #"<label>\#(markup: t("Phone")) <input type="tel" name="phone"></label>"#,
            ], button: "Create account")
    }

    /// The second page of an account creation: the code sent to the phone given.
    static func registrationConfirm(sessionID: String, notice: String? = nil, error: String? = nil) -> Response {
        formPage(
            "Create account", action: HaapiPaths.registerConfirm, sessionID: sessionID, notice: notice, error: error, fields: [codeField],
            button: "Confirm")
    }

    static func passwordReset(sessionID: String, error: String? = nil) -> Response {
        formPage(
            "Reset password", action: HaapiPaths.forgotPassword, sessionID: sessionID, error: error,
            fields: [#"<label>\#(markup: t("Username")) <input name="userName"></label>"#], button: "Send a code")
    }

    /// The second page of a reset: the code the owner received, and the new password.
    static func passwordResetConfirm(sessionID: String, notice: String? = nil, error: String? = nil) -> Response {
        formPage(
            "Reset password", action: HaapiPaths.forgotPasswordConfirm, sessionID: sessionID, notice: notice, error: error,
            fields: [codeField, #"<label>\#(markup: t("New password")) <input type="password" name="password"></label>"#],
            button: "Set new password")
    }

    /// The field for the code a message gave.
    private static var codeField: Markup { #"<label>\#(markup: t("Code")) <input name="code" autocomplete="one-time-code"></label>"# }

    /// A page of one form of the flow `sessionID` posting `fields` to `action`; 400 when it shows an `error`.
    private static func formPage(
        _ title: String, action: String, sessionID: String, notice: String? = nil, error: String?, fields: [Markup], button: String
    ) -> Response {
        page(
            title,
            notices(error: error, notice: notice) + """
                <form method="post" action="\(link: .path(action))">
                \(markup: hidden([("session", sessionID)]))
                \(markup: Markup.joined(fields, separator: "\n"))
                <button type="submit">\(markup: t(button))</button>
                </form>
                """, status: error == nil ? .ok : .badRequest)
    }

    /// One checked box per scope (`consent_SCOPE`), with what the scope gives: the scopes a
    /// consent form asks for (the user may uncheck some).
    static func scopeBoxes(_ scopes: [String]) -> Markup {
        Markup.joined(
            scopes.map { scope -> Markup in
                let description: Markup = FlowCompletion.scopeDescriptions[scope].map { ": \(markup: t($0))" } ?? .empty
                return
                    "<label><input type=\"checkbox\" name=\"consent_\(text: scope)\" value=\"\(text: scope)\" checked> \(text: scope)\(markup: description)</label>"
            }, separator: "\n")
    }

    static func consent(sessionID: String, clientName: String, scopes: [String]) -> Response {
        page(
            "Consent",
            """
            <p>\(markup: sentence("%@ asks for access to your account.", ["\(text: clientName)"]))</p>
            <form method="post" action="\(link: .path(HaapiPaths.consent))">
            \(markup: hidden([("session", sessionID)]))
            \(markup: scopeBoxes(scopes))
            <button type="submit">\(markup: t("Accept"))</button>
            </form>
            <form method="post" action="\(link: .path(HaapiPaths.cancel))">
            \(markup: hidden([("session", sessionID)]))
            <button type="submit">\(markup: t("Deny"))</button>
            </form>
            """)
    }

    /// What an approval request asks, who asks and from where, with Approve and Deny (two
    /// submit buttons of one form).
    static func approval(id: String, record: Approvals.Record) -> Response {
        let context = [
            record.requestedAt.map { sentence("at %@", ["\(text: $0.ISO8601Format())"]) },
            record.source.map { sentence("from the address %@", ["\(text: $0)"]) },
        ].compactMap { $0 }
        let who = sentence(
            "%1$@ is logging in as %2$@ (%3$@)",
            ["\(text: record.clientId)", "<strong>\(text: record.username)</strong>", t(record.purpose)])
        let asked: Markup = context.isEmpty ? .empty : ", " + sentence("asked %@", [Markup.joined(context, separator: " ")])
        return page(
            "Approve the login?",
            """
            <p>\(markup: who)\(markup: asked).</p>
            <p class="error">\(markup: t("If you are not signing in yourself right now, choose Deny: someone else may have your password."))</p>
            <form method="post" action="\(link: .path(HaapiPaths.approve))">
            \(markup: hidden([("request", id)]))
            <button type="submit" name="decision" value="approve">\(markup: t("Approve"))</button>
            <button type="submit" name="decision" value="deny">\(markup: t("Deny"))</button>
            </form>
            """)
    }

    /// The device login page (RFC 8628 §3.3): the code shown on the device and the user's
    /// credentials; what the device asks for comes next, on ``deviceConsent(token:userCode:clientId:scopes:requestedAt:)``.
    static func device(userCode: String, error: String? = nil, status: HTTPResponse.Status? = nil) -> Response {
        page(
            "Sign in a device",
            notices(error: error, notice: nil) + """
                <p>\(markup: t("Enter the code your device shows, then sign in: the next page shows what the device asks for."))</p>
                <form method="post" action="\(link: .path(DeviceAuthorizationEndpoint.pagePath))">
                <label>\(markup: t("Code")) <input name="user_code" value="\(text: userCode)" autocomplete="off"></label>
                <label>\(markup: t("Username")) <input name="userName" autocomplete="username"></label>
                <label>\(markup: t("Password")) <input type="password" name="password" autocomplete="current-password"></label>
                <button type="submit">\(markup: t("Continue"))</button>
                </form>
                """, status: status ?? (error == nil ? .ok : .badRequest))
    }

    /// The device login's consent (RFC 8628 §5.4–5.5): which client asks, for which scopes, since
    /// when, and a warning against approving a code someone else sent; Approve or Deny. The
    /// single-use `token` stands for the code and the signed-in user.
    static func deviceConsent(token: String, userCode: String, clientId: String, scopes: [String], requestedAt: Date?) -> Response {
        let free = scopes.filter { FlowCompletion.consentFree.contains($0) }
        let asked = scopes.filter { !FlowCompletion.consentFree.contains($0) }
        let when: Markup =
            requestedAt.map {
                let minutes = max(0, OutsideNumber.wholeSeconds(Date().timeIntervalSince($0)) / 60)
                return
                    "<p>\(markup: sentence("Requested at %1$@ (%2$@ minutes ago).", ["\(text: $0.ISO8601Format())", "\(text: minutes)"]))</p>\n"
            } ?? .empty
        let given: Markup =
            free.isEmpty
            ? .empty : "<p>\(markup: sentence("Always given: %@", [Markup.joined(free.map { "\(text: $0)" }, separator: ", ")]))</p>"
        return page(
            "Approve the device?",
            """
            <p>\(markup: sentence(
                "A device showing the code %1$@ wants to use your account as the client %2$@.",
                ["<strong>\(text: DeviceAuthorizationEndpoint.formatted(userCode))</strong>", "<strong>\(text: clientId)</strong>"]))</p>
            \(markup: when)<p class="error">\(markup: t("Approve only if you started this yourself, on a device in front of you. If someone sent you this code, choose Deny."))</p>
            <form method="post" action="\(link: .path(DeviceAuthorizationEndpoint.pagePath))">
            \(markup: hidden([("consent", token)]))
            \(markup: given)
            \(markup: scopeBoxes(asked))
            <button type="submit" name="decision" value="approve">\(markup: t("Approve"))</button>
            <button type="submit" name="decision" value="deny">\(markup: t("Deny"))</button>
            </form>
            """)
    }

    /// The page refusing fields past their bounds (``InputBounds``), one line each.
    static func tooLong(_ fields: [InputBounds.TooLong]) -> Response {
        let lines = fields.map { field -> Markup in
            let bound: Markup = "\(text: field.bound)"
            let line =
                field.name.map { sentence("The field %1$@ is too long: at most %2$@ bytes", ["\(text: $0)", bound]) }
                ?? sentence("A field's name is too long: at most %@ bytes", [bound])
            return "<p class=\"error\">\(markup: line)</p>"
        }
        return page("Error", Markup.joined(lines, separator: "\n"), status: .badRequest)
    }

    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        page("Error", "<p class=\"error\">\(markup: t(message))</p>", status: status)
    }
}
