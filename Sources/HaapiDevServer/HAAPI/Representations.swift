import Foundation
import HTTPTypes
import Hummingbird
import OAuthCore

/// Where the authentication service's resources live.
enum HaapiPaths {
    static let authorize = "/oauth/authorize"
    static let authenticate = "/authn/authenticate"
    static let usernamePassword = "/authn/authenticate/username-password"
    static let forgotPassword = "/authn/authenticate/username-password/forgot-password"
    static let forgotPasswordConfirm = "/authn/authenticate/username-password/forgot-password/confirm"
    static let register = "/authn/register/create/username-password"
    static let registerConfirm = "/authn/register/create/username-password/confirm"
    static let otp = "/authn/authenticate/otp"
    static let otpSend = "/authn/authenticate/otp/send"
    static let otpVerify = "/authn/authenticate/otp/verify"
    static let polling = "/authn/authenticate/polling"
    static let pollingStart = "/authn/authenticate/polling/start"
    static let pollingPoll = "/authn/authenticate/polling/poll"
    static let externalBrowser = "/authn/authenticate/external-browser"
    static let externalLaunch = "/authn/authenticate/external-browser/launch"
    /// The page where a user approves a waiting authenticator's request (the link it "sends").
    static let approve = "/authn/approve"
    static let externalResume = "/authn/authenticate/external-browser/resume"
    static let duoDevices = "/authn/authenticate/duo/devices"
    static let duoSelectDevice = "/authn/authenticate/duo/select-device"
    static let bankIDStart = "/authn/authenticate/bankid/start"
    static let bankIDPoll = "/authn/authenticate/bankid/poll"
    static let webAuthnStart = "/authn/authenticate/webauthn/start"
    static let webAuthnConfirm = "/authn/authenticate/webauthn/confirm"
    static let webAuthnRegister = "/authn/authenticate/webauthn/register"
    static let webAuthnAuthenticate = "/authn/authenticate/webauthn/authenticate"
    static let consent = "/authn/consent"
    static let cancel = "/authn/cancel"

    /// The page of an authenticator (GET shows its first step).
    static func authenticator(_ name: String) -> String { "\(authenticate)/\(name)" }
}

/// Pieces of HAAPI representations, shaped like Curity's (see the captured responses).
enum Wire {
    static let formType = "application/x-www-form-urlencoded"

    /// A form action: `template`, `kind`, `title`, `model` (`href`, `method`, `type`, `actionTitle`, `fields`, `continueActions`).
    static func form(
        kind: String, title: String? = nil, href: String, method: String = "POST", type: Bool = true, actionTitle: String? = nil,
        fields: [JSONValue] = [], continueActions: [JSONValue] = [], properties: [String: JSONValue] = [:]
    ) -> JSONValue {
        var model: [String: JSONValue] = ["href": .string(href), "method": .string(method)]
        if type { model["type"] = .string(formType) }
        if let actionTitle { model["actionTitle"] = .string(actionTitle) }
        if !fields.isEmpty { model["fields"] = .array(fields) }
        if !continueActions.isEmpty { model["continueActions"] = .array(continueActions) }
        var action: [String: JSONValue] = ["template": "form", "kind": .string(kind), "model": .object(model)]
        if let title { action["title"] = .string(title) }
        if !properties.isEmpty { action["properties"] = .object(properties) }
        return .object(action)
    }

    /// A form field.
    static func field(
        _ name: String, type: String, label: String? = nil, value: String? = nil, placeholder: String? = nil, kind: String? = nil,
        checked: Bool? = nil
    ) -> JSONValue {
        var field: [String: JSONValue] = ["name": .string(name), "type": .string(type)]
        if let label { field["label"] = .string(label) }
        if let value { field["value"] = .string(value) }
        if let placeholder { field["placeholder"] = .string(placeholder) }
        if let kind { field["kind"] = .string(kind) }
        if let checked { field["checked"] = .bool(checked) }
        return .object(field)
    }

    static func message(_ text: String, _ classes: [String] = ["info"]) -> JSONValue {
        ["text": .string(text), "classList": .array(classes.map { .string($0) })]
    }

    static func link(_ href: String, rel: String, title: String? = nil) -> JSONValue {
        var link: [String: JSONValue] = ["href": .string(href), "rel": .string(rel)]
        if let title { link["title"] = .string(title) }
        return .object(link)
    }

    /// A step document.
    static func step(
        _ type: String, viewName: String, templateArea: String? = nil, actions: [JSONValue] = [], messages: [JSONValue] = [],
        links: [JSONValue] = [], properties: [String: JSONValue]? = nil
    ) -> JSONValue {
        var metadata: [String: JSONValue] = ["viewName": .string(viewName)]
        if let templateArea { metadata["templateArea"] = .string(templateArea) }
        var document: [String: JSONValue] = ["type": .string(type), "metadata": .object(metadata)]
        if !actions.isEmpty { document["actions"] = .array(actions) }
        if !messages.isEmpty { document["messages"] = .array(messages) }
        if !links.isEmpty { document["links"] = .array(links) }
        if let properties { document["properties"] = .object(properties) }
        return .object(document)
    }

    /// A step response (`application/vnd.auth+json`, exactly).
    static func reply(_ document: JSONValue, headers: HTTPFields = [:]) -> Response {
        Reply.json(document, type: Reply.authMediaType, headers: headers)
    }

    /// `url` with `parameters` added to its query.
    static func appendingQuery(_ url: String, _ parameters: [(String, String?)]) -> String {
        let present = parameters.compactMap { name, value in value.map { (name, $0) } }
        guard !present.isEmpty else { return url }
        return url + (url.contains("?") ? "&" : "?") + FormURLEncoding.encode(present)
    }
}

/// The steps the server sends.
enum Steps {
    /// A redirection step: one form of kind `redirect`.
    static func redirection(to href: String) -> JSONValue {
        Wire.step(
            "redirection-step", viewName: "/templates/redirect",
            actions: [Wire.form(kind: "redirect", href: href, method: "GET", type: false)])
    }

    /// The username/password step, with links to create an account and to reset a password.
    static func usernamePassword(messages: [JSONValue] = []) -> JSONValue {
        Wire.step(
            "authentication-step", viewName: "authenticator/html-form/authenticate/get", templateArea: "html1",
            actions: [
                Wire.form(
                    kind: "login", title: "Login", href: HaapiPaths.usernamePassword, actionTitle: "Login", fields: credentialFields())
            ],
            messages: messages,
            links: [
                Wire.link(HaapiPaths.forgotPassword, rel: "forgot-password", title: "Forgot your password?"),
                Wire.link(HaapiPaths.register, rel: "register-create", title: "Create account"),
            ])
    }

    /// The authenticator names, their `authenticatorType` and title.
    static let authenticators: [String: (type: String, title: String)] = [
        "username-password": ("html-form", "Username and password"),
        "otp": ("sms", "One-time code"),
        "polling": ("polling", "Approve on your phone"),
        "external-browser": ("external-browser", "Log in with the browser"),
        "legacy-launch": ("external-browser", "Log in with the browser (legacy launch step)"),
        "duo": ("duo", "Duo"),
        "bankid": ("bankid", "BankID"),
        "webauthn": ("webauthn", "Passkey"),
    ]

    /// The authenticator selector.
    static func selector(_ names: [String]) -> JSONValue {
        let options: [JSONValue] = names.map { name in
            let info = authenticators[name] ?? (name, name)
            return Wire.form(
                kind: "select-authenticator", title: info.title, href: HaapiPaths.authenticator(name), method: "GET", type: false,
                properties: ["authenticatorType": .string(info.type)])
        }
        return Wire.step(
            "authentication-step", viewName: "views/select-authenticator/index",
            actions: [
                [
                    "template": "selector", "kind": "authenticator-selector", "title": "Select Authentication Method",
                    "model": ["options": .array(options)],
                ]
            ])
    }

    /// The fields a user gives a name and a password in: a login's, and the first of a registration's.
    static func credentialFields() -> [JSONValue] {
        [Wire.field("userName", type: "username", label: "Username"), Wire.field("password", type: "password", label: "Password")]
    }

    /// Registration: a form that creates a user.
    static func registration() -> JSONValue {
        Wire.step(
            "registration-step", viewName: "authenticator/html-form/register/get",
            actions: [
                Wire.form(
                    kind: "user-register", title: "Create account", href: HaapiPaths.register, actionTitle: "Create account",
                    fields: credentialFields() + [
                        Wire.field("name", type: "text", label: "Full name"),
                        Wire.field("email", type: "text", label: "E-mail"),
                        Wire.field("phone", type: "text", label: "Phone number (a code is sent to it)"),
                    ],
                    continueActions: [
                        Wire.form(
                            kind: "user-register", title: "Enter the code sent to your phone", href: HaapiPaths.registerConfirm,
                            actionTitle: "Confirm", fields: [Wire.field("code", type: "text", label: "Code")])
                    ])
            ],
            messages: [Wire.message("Create an account", ["heading"])])
    }

    /// Password reset: a form that sends a code to the account's owner, whose continue action
    /// takes the code and the new password.
    static func passwordReset() -> JSONValue {
        let confirm = Wire.form(
            kind: "password-reset", title: "Enter the code and a new password", href: HaapiPaths.forgotPasswordConfirm,
            actionTitle: "Set new password",
            fields: [
                Wire.field("code", type: "text", label: "Code"),
                Wire.field("password", type: "password", label: "New password"),
            ])
        return Wire.step(
            "authentication-step", viewName: "authenticator/html-form/forgot-password/get",
            actions: [
                Wire.form(
                    kind: "password-reset", title: "Reset password", href: HaapiPaths.forgotPassword, actionTitle: "Send a code",
                    fields: [Wire.field("userName", type: "username", label: "Username")], continueActions: [confirm])
            ],
            messages: [Wire.message("Reset your password", ["heading"])])
    }

    /// OTP: a form that sends the code, whose continue action enters it.
    static func otp() -> JSONValue {
        let enterCode = Wire.form(
            kind: "login", title: "Enter the code", href: HaapiPaths.otpVerify, actionTitle: "Verify",
            fields: [Wire.field("otp", type: "text", label: "One-time code", placeholder: "123456")])
        return username(
            "Send a one-time code", href: HaapiPaths.otpSend, viewName: "authenticator/otp/authenticate/get", actionTitle: "Send code",
            continueActions: [enterCode])
    }

    /// The answer to a form with continue actions.
    static func continueSameStep(_ text: String, viewName: String) -> JSONValue {
        Wire.step("continue-same-step", viewName: viewName, messages: [Wire.message(text)])
    }

    /// The first polling step: who is asked.
    static func pollingStart() -> JSONValue {
        username(
            "Approve on your phone", href: HaapiPaths.pollingStart, viewName: "authenticator/polling/authenticate/get",
            actionTitle: "Send request")
    }

    /// A polling step, pending (poll and cancel actions, what to do, and with `wait` how long the
    /// request waits and has left, in seconds) or done (a redirect form, POST, hidden field).
    static func polling(done: Bool, recipient: String, interval: Int = 2000, wait: (total: Int, left: Int)? = nil) -> JSONValue {
        let actions: [JSONValue] =
            done
            ? [Wire.form(kind: "redirect", href: HaapiPaths.pollingPoll, fields: [Wire.field("moveOn", type: "hidden", value: "true")])]
            : [
                Wire.form(kind: "poll", href: HaapiPaths.pollingPoll, method: "GET", type: false),
                Wire.form(kind: "cancel", title: "Cancel", href: HaapiPaths.cancel, actionTitle: "Cancel"),
            ]
        var properties: [String: JSONValue] = [
            "status": .string(done ? "done" : "pending"), "recipientOfCommunication": .string(recipient),
            "interval": .string(String(interval)),
        ]
        if let wait, !done {
            properties["maxWaitTime"] = .string(String(wait.total))
            properties["maxWaitRemainingTime"] = .string(String(max(0, wait.left)))
        }
        return Wire.step(
            "polling-step", viewName: "authenticator/polling/authenticate/poller", actions: actions,
            messages: done ? [] : [Wire.message("Open the request sent to you and approve the login there.")], properties: properties)
    }

    /// The external-browser client operation.
    static func externalBrowser(href: String) -> JSONValue {
        let resume = Wire.form(
            kind: "continue", title: "Continue once you have logged in in the browser", href: HaapiPaths.externalResume,
            fields: [Wire.field("_resume_nonce", type: "context")])
        return Wire.step(
            "authentication-step", viewName: "authenticator/external-browser/launch",
            actions: [
                [
                    "template": "client-operation", "kind": "login", "title": "Log in with the browser",
                    "model": ["name": "external-browser-flow", "arguments": ["href": .string(href)], "continueActions": [resume]],
                ]
            ])
    }

    /// Curity's older shape of the same launch: template `launch`, kind `external-browser`, the
    /// continue action inside the model.
    static func legacyLaunch(href: String) -> JSONValue {
        let resume = Wire.form(
            kind: "continue", title: "If you are not redirected automatically, continue here", href: HaapiPaths.externalResume,
            fields: [Wire.field("_resume_nonce", type: "context")])
        let title = "The authentication process needs to use an external browser"
        return Wire.step(
            "authentication-step", viewName: "authenticator/external-browser/launch",
            actions: [
                [
                    "template": "launch", "kind": "external-browser", "title": .string(title),
                    "model": ["href": .string(href), "actionTitle": .string(title), "continueActions": [resume]],
                ]
            ])
    }

    /// A username form posting to `href` (the first step of the simulated second factors), with
    /// `continueActions` for what the answer asks next.
    static func username(_ title: String, href: String, viewName: String, actionTitle: String, continueActions: [JSONValue] = [])
        -> JSONValue
    {
        Wire.step(
            "authentication-step", viewName: viewName,
            actions: [
                Wire.form(
                    kind: "login", title: title, href: href, actionTitle: actionTitle,
                    fields: [Wire.field("userName", type: "username", label: "Username", placeholder: "username")],
                    continueActions: continueActions)
            ])
    }

    /// Duo's device selection, shaped as Curity sends it: a selector of devices, each a selector
    /// of factor forms (the factors' hidden fields name the device; passcode asks for the code).
    static func duoDevices(_ devices: [(id: String, title: String)]) -> JSONValue {
        func factor(_ device: String, _ factor: String, _ title: String, passcode: Bool = false) -> JSONValue {
            var fields = [Wire.field("device", type: "hidden", value: device), Wire.field("factor", type: "hidden", value: factor)]
            if passcode { fields.append(Wire.field("passcode", type: "text", label: "Passcode")) }
            return Wire.form(kind: "login", title: title, href: HaapiPaths.duoSelectDevice, fields: fields)
        }
        let options: [JSONValue] = devices.map { device in
            [
                "template": "selector", "kind": "device-option", "title": .string(device.title),
                "model": [
                    "options": [
                        factor(device.id, "push", "Send push notification"),
                        factor(device.id, "passcode", "Enter a passcode", passcode: true),
                    ]
                ],
            ]
        }
        return Wire.step(
            "authentication-step", viewName: "authenticator/duo/authenticate/select-device",
            actions: [
                ["template": "selector", "kind": "device-selector", "title": "Device selection", "model": ["options": .array(options)]]
            ])
    }

    /// BankID's choice of this device or another, as Curity sends it.
    static func bankIDChoice() -> JSONValue {
        func form(_ kind: String, _ title: String, sameDevice: Bool) -> JSONValue {
            Wire.form(
                kind: kind, title: title, href: HaapiPaths.bankIDStart, actionTitle: "Login",
                fields: [
                    Wire.field("personalnumber", type: "username", label: "Personal number", placeholder: "yyyymmddnnnn"),
                    Wire.field("usesamedevice", type: "hidden", value: sameDevice ? "true" : "false"),
                ])
        }
        return Wire.step(
            "authentication-step", viewName: "authenticator/bankid/enter-personalnumber/index",
            actions: [
                form("bankid-same-device", "Login with BankID installed on this device", sameDevice: true),
                form("bankid-other-device", "Login with BankID installed on a different device", sameDevice: false),
            ])
    }

    /// The `bankid` client operation: the app's autostart token, and for another device the
    /// QR data; continuing polls.
    static func bankIDOperation(autoStartToken: String, qrData: String?, continues: Bool) -> JSONValue {
        var arguments: [String: JSONValue] = [
            "href": .string("bankid:///?autostarttoken=\(autoStartToken)&redirect=null"), "autoStartToken": .string(autoStartToken),
        ]
        if let qrData { arguments["qrCodeData"] = .string(qrData) }
        var model: [String: JSONValue] = ["name": "bankid", "arguments": .object(arguments)]
        if continues {
            model["continueActions"] = [
                Wire.form(kind: "redirect", title: "Continue once BankID is done", href: HaapiPaths.bankIDPoll, method: "GET", type: false)
            ]
            model["errorActions"] = [
                Wire.form(
                    kind: "bankid-other-device", title: "Login with BankID installed on a different device", href: HaapiPaths.bankIDStart,
                    actionTitle: "Login",
                    fields: [
                        Wire.field("personalnumber", type: "username", label: "Personal number", placeholder: "yyyymmddnnnn"),
                        Wire.field("usesamedevice", type: "hidden", value: "false"),
                    ])
            ]
        }
        return ["template": "client-operation", "kind": "login", "title": "Login with BankID", "model": .object(model)]
    }

    /// BankID on this device: start the app, then continue (polling), or use another device, or cancel.
    static func bankIDSameDevice(autoStartToken: String) -> JSONValue {
        Wire.step(
            "authentication-step", viewName: "authenticator/bankid/launch/index",
            actions: [
                bankIDOperation(autoStartToken: autoStartToken, qrData: nil, continues: true),
                Wire.form(kind: "cancel", title: "Cancel this operation", href: HaapiPaths.cancel, actionTitle: "Cancel"),
            ])
    }

    /// BankID waiting for the user: pending (poll, cancel, the operation with the current QR
    /// data for another device) or done (the redirect form that continues).
    /// `wait` is the order's whole time and the time left, in seconds, for the QR code's countdown.
    static func bankIDPolling(
        done: Bool, autoStartToken: String, qrData: String?, interval: Int = 1000, wait: (total: Int, left: Int)? = nil
    ) -> JSONValue {
        let actions: [JSONValue] =
            done
            ? [Wire.form(kind: "redirect", href: HaapiPaths.pollingPoll, fields: [Wire.field("moveOn", type: "hidden", value: "true")])]
            : [
                Wire.form(kind: "poll", href: HaapiPaths.bankIDPoll, method: "GET", type: false),
                Wire.form(kind: "cancel", title: "Cancel", href: HaapiPaths.cancel, actionTitle: "Cancel"),
                bankIDOperation(autoStartToken: autoStartToken, qrData: qrData, continues: false),
            ]
        return Wire.step(
            "polling-step", viewName: "authenticator/bankid/wait/index", actions: actions,
            messages: done ? [] : [Wire.message(qrData == nil ? "Start your BankID app" : "Scan the QR code with your BankID app")],
            properties: ["status": .string(done ? "done" : "pending"), "interval": .string(String(interval))].merging(
                wait.map { ["maxWaitTime": .string(String($0.total)), "maxWaitRemainingTime": .string(String(max(0, $0.left)))] } ?? [:]
            ) { $1 })
    }

    /// A WebAuthn client operation (`webauthn-registration` with creation options, or
    /// `webauthn-authentication` with request options): the continue action takes the
    /// credential; the error action is the browser fallback Curity offers.
    static func webAuthn(registration: Bool, options: JSONValue) -> JSONValue {
        let resume = Wire.form(
            kind: "continue", title: registration ? "Register the passkey" : "Log in with the passkey",
            href: registration ? HaapiPaths.webAuthnRegister : HaapiPaths.webAuthnAuthenticate,
            fields: [Wire.field("credential", type: "context")])
        let fallback = Wire.form(
            kind: "redirect", title: "Use the browser instead",
            href: HaapiPaths.authenticator(ExternalBrowserAuthenticator.name) + "?_force_external_browser_flow=true", method: "GET",
            type: false)
        let name = registration ? "webauthn-registration" : "webauthn-authentication"
        let arguments: JSONValue =
            registration ? ["credentialCreationOptions": ["publicKey": options]] : ["credentialRequestOptions": ["publicKey": options]]
        return Wire.step(
            registration ? "registration-step" : "authentication-step",
            viewName: "authenticator/webauthn/\(registration ? "register" : "authenticate")/get",
            actions: [
                [
                    "template": "client-operation", "kind": registration ? "device-register" : "login",
                    "title": registration ? "Register a passkey" : "Log in with a passkey",
                    "model": ["name": .string(name), "arguments": arguments, "continueActions": [resume], "errorActions": [fallback]],
                ],
                Wire.form(kind: "cancel", title: "Cancel", href: HaapiPaths.cancel, actionTitle: "Cancel"),
            ])
    }

    /// Before a first passkey is registered, the account's password proves who registers it.
    static func webAuthnConfirm(username: String) -> JSONValue {
        Wire.step(
            "authentication-step", viewName: "authenticator/webauthn/confirm/get",
            actions: [
                Wire.form(
                    kind: "login", title: "Confirm your password to register a passkey", href: HaapiPaths.webAuthnConfirm,
                    actionTitle: "Continue",
                    fields: [Wire.field("password", type: "password", label: "Password")])
            ],
            messages: [Wire.message(ServerTexts.sentence("%@ has no passkey yet", [username]), ["heading"])])
    }

    /// The consent step: one checkbox per scope, and a cancel form.
    static func consent(scopes: [String], clientName: String) -> JSONValue {
        Wire.step(
            "user-consent-step", viewName: "views/consent/index",
            actions: [
                Wire.form(
                    kind: "user-consent", title: "Consent", href: HaapiPaths.consent, actionTitle: "Accept",
                    fields: scopes.map {
                        Wire.field(
                            "consent_\($0)", type: "checkbox", label: FlowCompletion.scopeDescriptions[$0] ?? $0, value: $0, checked: true)
                    }),
                Wire.form(kind: "cancel", title: "Cancel", href: HaapiPaths.cancel, actionTitle: "Deny"),
            ],
            messages: [Wire.message(ServerTexts.sentence("%@ asks for access to your account", [clientName]), ["heading"])])
    }

    /// The authorization response.
    static func authorizationResponse(code: String, state: String?, iss: String, redirect: String) -> JSONValue {
        var properties: [String: JSONValue] = ["code": .string(code), "iss": .string(iss)]
        if let state { properties["state"] = .string(state) }
        return Wire.step(
            "oauth-authorization-response", viewName: "templates/oauth/success-authorization-response",
            links: [Wire.link(redirect, rel: "authorization-response")], properties: properties)
    }
}

/// The problems the server sends (`application/problem+json`, exactly, with a 4xx status).
enum Problems {
    static let base = "https://curity.se/problems/"

    static func reply(_ type: String, title: String, status: HTTPResponse.Status = .badRequest, extra: [String: JSONValue] = [:])
        -> Response
    {
        Reply.json(document(type, title: title, extra: extra), status: status, type: Reply.problemMediaType)
    }

    /// The problem document of `type`.
    static func document(_ type: String, title: String, extra: [String: JSONValue] = [:]) -> JSONValue {
        var document: [String: JSONValue] = ["type": .string(base + type), "title": .string(title), "metadata": ["templateArea": "html1"]]
        for (key, value) in extra { document[key] = value }
        return .object(document)
    }

    /// One field of an invalid-input problem.
    struct InvalidField {
        let name: String
        let reason: String
        let detail: String
        static func missing(_ name: String, _ detail: String) -> Self { Self(name: name, reason: "missing", detail: detail) }
        static func invalid(_ name: String, _ detail: String) -> Self { Self(name: name, reason: "invalidValue", detail: detail) }
    }

    static func invalidInput(_ fields: [InvalidField]) -> Response {
        reply(
            "invalid-input", title: "Form Errors",
            extra: [
                "invalidFields": .array(
                    fields.map { ["name": .string($0.name), "reason": .string($0.reason), "detail": .string($0.detail)] })
            ])
    }

    /// Fields past their bounds (``InputBounds``): invalid input, each saying its bound (a field
    /// whose name is too long is not named back).
    static func tooLong(_ fields: [InputBounds.TooLong]) -> Response {
        invalidInput(
            fields.map { field in
                let bound = String(field.bound)
                guard let name = field.name else {
                    return .invalid("", ServerTexts.sentence("A field's name is too long: at most %@ bytes", [bound]))
                }
                return .invalid(name, ServerTexts.sentence("Too long: at most %@ bytes", [bound]))
            })
    }

    static func incorrectCredentials() -> Response { reply("incorrect-credentials", title: "Incorrect credentials") }

    static func tooManyAttempts() -> Response {
        reply("too-many-attempts", title: Credentials.lockedMessage)
    }

    static func genericUserError(_ title: String) -> Response { reply("generic-user-error", title: title) }

    static func authenticationFailed(_ title: String) -> Response {
        reply("authentication-failed", title: title, extra: ["messages": [Wire.message(title, ["error"])]])
    }

    static func mismatchBetweenSessionAndAccessToken() -> Response {
        reply("mismatch-between-session-and-access-token", title: "The session belongs to another HAAPI access token: start again")
    }

    static func unexpected() -> Response { reply("unexpected", title: "An unexpected error happened", status: .internalServerError) }

    /// An OAuth error outcome of the flow, with the `authorization-response` link to the redirect URI.
    static func errorAuthorizationResponse(error: String, description: String, iss: String, redirect: String) -> Response {
        reply(
            "error-authorization-response", title: "Authorization failed",
            extra: [
                "error": .string(error), "error_description": .string(description), "iss": .string(iss),
                "links": [Wire.link(redirect, rel: "authorization-response")],
            ])
    }
}
