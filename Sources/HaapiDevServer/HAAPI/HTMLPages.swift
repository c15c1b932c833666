import Foundation
import HaapiPreview
import HTTPTypes
import Hummingbird
import OAuthCore

/// The HTML pages of the browser flows (the same flows as HAAPI, for a browser: the browser
/// login and the external-browser operation). Plain forms, no script; worded in the request's
/// language (``ServerLanguage``), as the HAAPI steps are.
enum HTMLPages {
    /// `text` in the request's language, escaped.
    static func t(_ text: String) -> String { escape(ServerTexts.translate(text)) }

    /// The sentence `english` (with `%@` or `%1$@` markers) in the request's language, escaped,
    /// with `arguments` (HTML the caller escaped) in its places: translated, escaped, then filled
    /// in one pass, as ``ServerTexts/sentence(_:_:)`` fills a HAAPI text.
    static func sentence(_ english: String, _ arguments: [String]) -> String {
        Placeholders.fill(escape(ServerTexts.translate(english)), arguments)
    }

    /// `text` escaped for HTML (the preview's one escaper).
    static func escape(_ text: String) -> String { ScreenPage.escape(text) }

    static func page(_ title: String, _ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Reply.html(
            """
            <!DOCTYPE html>
            <html lang="\(ServerLanguage.current)"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><title>\(t(title))</title>
            <style>
            \(KitLook.styleSheet)
            </style>
            </head><body><main class="screen page"><h1>\(t(title))</h1>
            \(body)
            </main></body></html>
            """, status: status)
    }

    static func hidden(_ fields: [(String, String)]) -> String {
        fields.map { "<input type=\"hidden\" name=\"\(escape($0.0))\" value=\"\(escape($0.1))\">" }.joined(separator: "\n")
    }

    static func notices(error: String?, notice: String?) -> String {
        (error.map { "<p class=\"error\">\(t($0))</p>\n" } ?? "") + (notice.map { "<p class=\"info\">\(t($0))</p>\n" } ?? "")
    }

    /// The username/password login form, posting to `action` with `hiddenFields`.
    static func login(
        action: String, hiddenFields: [(String, String)], error: String? = nil, notice: String? = nil, sessionID: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        var links = ""
        if let sessionID {
            let query = "?session=" + FormURLEncoding.escape(sessionID)
            links = """
                <p><a rel="forgot-password" href="\(escape(HaapiPaths.forgotPassword + query))">\(t("Forgot your password?"))</a>
                <a rel="register-create" href="\(escape(HaapiPaths.register + query))">\(t("Create account"))</a></p>
                """
        }
        return page(
            "Log in",
            notices(error: error, notice: notice) + """
                <form method="post" action="\(escape(action))">
                \(hidden(hiddenFields))
                <label>\(t("Username")) <input name="userName" autocomplete="username"></label>
                <label>\(t("Password")) <input type="password" name="password" autocomplete="current-password"></label>
                <button type="submit">\(t("Log in"))</button>
                </form>
                \(links)
                """, status: status)
    }

    static func registration(sessionID: String, error: String? = nil) -> Response {
        formPage(
            "Create account", action: HaapiPaths.register, sessionID: sessionID, error: error,
            fields: [
                #"<label>\#(t("Username")) <input name="userName"></label>"#,
                #"<label>\#(t("Password")) <input type="password" name="password"></label>"#,
                #"<label>\#(t("Full name")) <input name="name"></label>"#,
                #"<label>\#(t("E-mail")) <input type="email" name="email"></label>"#,
                #"<label>\#(t("Phone")) <input type="tel" name="phone"></label>"#,
            ], button: "Create account")
    }

    /// The second page of an account creation: the code sent to the phone given.
    static func registrationConfirm(sessionID: String, notice: String? = nil, error: String? = nil) -> Response {
        formPage("Create account", action: HaapiPaths.registerConfirm, sessionID: sessionID, notice: notice, error: error, fields: [codeField], button: "Confirm")
    }

    static func passwordReset(sessionID: String, error: String? = nil) -> Response {
        formPage(
            "Reset password", action: HaapiPaths.forgotPassword, sessionID: sessionID, error: error,
            fields: [#"<label>\#(t("Username")) <input name="userName"></label>"#], button: "Send a code")
    }

    /// The second page of a reset: the code the owner received, and the new password.
    static func passwordResetConfirm(sessionID: String, notice: String? = nil, error: String? = nil) -> Response {
        formPage(
            "Reset password", action: HaapiPaths.forgotPasswordConfirm, sessionID: sessionID, notice: notice, error: error,
            fields: [codeField, #"<label>\#(t("New password")) <input type="password" name="password"></label>"#], button: "Set new password")
    }

    /// The field for the code a message gave.
    private static var codeField: String { #"<label>\#(t("Code")) <input name="code" autocomplete="one-time-code"></label>"# }

    /// A page of one form of the flow `sessionID` posting `fields` to `action`; 400 when it shows an `error`.
    private static func formPage(
        _ title: String, action: String, sessionID: String, notice: String? = nil, error: String?, fields: [String], button: String
    ) -> Response {
        page(
            title,
            notices(error: error, notice: notice) + """
                <form method="post" action="\(escape(action))">
                \(hidden([("session", sessionID)]))
                \(fields.joined(separator: "\n"))
                <button type="submit">\(t(button))</button>
                </form>
                """, status: error == nil ? .ok : .badRequest)
    }

    /// One checked box per scope (`consent_SCOPE`), with what the scope gives: the scopes a
    /// consent form asks for (the user may uncheck some).
    static func scopeBoxes(_ scopes: [String]) -> String {
        scopes.map {
            "<label><input type=\"checkbox\" name=\"consent_\(escape($0))\" value=\"\(escape($0))\" checked> \(escape($0))"
                + (FlowCompletion.scopeDescriptions[$0].map { ": " + t($0) } ?? "") + "</label>"
        }.joined(separator: "\n")
    }

    static func consent(sessionID: String, clientName: String, scopes: [String]) -> Response {
        page(
            "Consent",
            """
            <p>\(sentence("%@ asks for access to your account.", [escape(clientName)]))</p>
            <form method="post" action="\(escape(HaapiPaths.consent))">
            \(hidden([("session", sessionID)]))
            \(scopeBoxes(scopes))
            <button type="submit">\(t("Accept"))</button>
            </form>
            <form method="post" action="\(escape(HaapiPaths.cancel))">
            \(hidden([("session", sessionID)]))
            <button type="submit">\(t("Deny"))</button>
            </form>
            """)
    }

    /// What an approval request asks, who asks and from where, with Approve and Deny (two
    /// submit buttons of one form).
    static func approval(id: String, record: Approvals.Record) -> Response {
        let context = [
            record.requestedAt.map { sentence("at %@", [escape($0.ISO8601Format())]) },
            record.source.map { sentence("from the address %@", [escape($0)]) },
        ].compactMap { $0 }
        let who = sentence(
            "%1$@ is logging in as %2$@ (%3$@)",
            [escape(record.clientId), "<strong>\(escape(record.username))</strong>", t(record.purpose)])
        return page(
            "Approve the login?",
            """
            <p>\(who)\(context.isEmpty ? "" : ", " + sentence("asked %@", [context.joined(separator: " ")])).</p>
            <p class="error">\(t("If you are not signing in yourself right now, choose Deny: someone else may have your password."))</p>
            <form method="post" action="\(escape(HaapiPaths.approve))">
            \(hidden([("request", id)]))
            <button type="submit" name="decision" value="approve">\(t("Approve"))</button>
            <button type="submit" name="decision" value="deny">\(t("Deny"))</button>
            </form>
            """)
    }

    /// The device login page (RFC 8628 §3.3): the code shown on the device and the user's
    /// credentials; what the device asks for comes next, on ``deviceConsent(token:userCode:clientId:scopes:requestedAt:)``.
    static func device(userCode: String, error: String? = nil, status: HTTPResponse.Status? = nil) -> Response {
        page(
            "Sign in a device",
            notices(error: error, notice: nil) + """
                <p>\(t("Enter the code your device shows, then sign in: the next page shows what the device asks for."))</p>
                <form method="post" action="\(escape(DeviceAuthorizationEndpoint.pagePath))">
                <label>\(t("Code")) <input name="user_code" value="\(escape(userCode))" autocomplete="off"></label>
                <label>\(t("Username")) <input name="userName" autocomplete="username"></label>
                <label>\(t("Password")) <input type="password" name="password" autocomplete="current-password"></label>
                <button type="submit">\(t("Continue"))</button>
                </form>
                """, status: status ?? (error == nil ? .ok : .badRequest))
    }

    /// The device login's consent (RFC 8628 §5.4–5.5): which client asks, for which scopes, since
    /// when, and a warning against approving a code someone else sent; Approve or Deny. The
    /// single-use `token` stands for the code and the signed-in user.
    static func deviceConsent(token: String, userCode: String, clientId: String, scopes: [String], requestedAt: Date?) -> Response {
        let free = scopes.filter { FlowCompletion.consentFree.contains($0) }
        let asked = scopes.filter { !FlowCompletion.consentFree.contains($0) }
        let when = requestedAt.map {
            "<p>" + sentence("Requested at %1$@ (%2$@ minutes ago).", [escape($0.ISO8601Format()), String(max(0, OutsideNumber.wholeSeconds(Date().timeIntervalSince($0)) / 60))]) + "</p>\n"
        } ?? ""
        return page(
            "Approve the device?",
            """
            <p>\(sentence(
                "A device showing the code %1$@ wants to use your account as the client %2$@.",
                ["<strong>\(escape(DeviceAuthorizationEndpoint.formatted(userCode)))</strong>", "<strong>\(escape(clientId))</strong>"]))</p>
            \(when)<p class="error">\(t("Approve only if you started this yourself, on a device in front of you. If someone sent you this code, choose Deny."))</p>
            <form method="post" action="\(escape(DeviceAuthorizationEndpoint.pagePath))">
            \(hidden([("consent", token)]))
            \(free.isEmpty ? "" : "<p>" + sentence("Always given: %@", [free.map(escape).joined(separator: ", ")]) + "</p>")
            \(scopeBoxes(asked))
            <button type="submit" name="decision" value="approve">\(t("Approve"))</button>
            <button type="submit" name="decision" value="deny">\(t("Deny"))</button>
            </form>
            """)
    }

    /// The page refusing fields past their bounds (``InputBounds``), one line each.
    static func tooLong(_ fields: [InputBounds.TooLong]) -> Response {
        let lines = fields.map { field in
            let bound = String(field.bound)
            let line = field.name.map { sentence("The field %1$@ is too long: at most %2$@ bytes", [escape($0), bound]) }
                ?? sentence("A field's name is too long: at most %@ bytes", [bound])
            return "<p class=\"error\">\(line)</p>"
        }
        return page("Error", lines.joined(separator: "\n"), status: .badRequest)
    }

    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        page("Error", "<p class=\"error\">\(t(message))</p>", status: status)
    }
}
