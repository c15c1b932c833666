import Foundation
import Hummingbird
import OAuthCore

/// Draws gallery pages: the server lists what it can send, the renderer (an app's UI kit, in
/// `haapi preview --server`) draws it, so the server needs no UI of its own.
package protocol PreviewRenderer: Sendable {
    /// The gallery's index (`name` `nil`) or the page of the document `name`, for `documents` in
    /// `language`; `nil` when there is no such page.
    func page(_ name: String?, documents: [StepGallery.Document], language: String) async throws -> Markup?
}

/// Every step and problem the server sends, with sample values, in each language it speaks:
/// the gallery at `/preview` (`?lang=sv` for Swedish).
public enum StepGallery {
    /// One document of the gallery.
    public struct Document: Sendable {
        /// Its name in the gallery (`login`, `bankid-other-device`, ...).
        public let name: String
        /// The HAAPI response body.
        public let body: JSONValue
    }

    /// The languages the server speaks.
    public static var languages: [String] { ServerLanguage.available }

    /// The documents, in `language`.
    public static func documents(language: String) -> [Document] {
        let token = "00000000-0000-4000-8000-000000000000"
        let options: JSONValue = [
            "challenge": "AAAA", "rp": ["id": "localhost", "name": "haapi"], "user": ["id": "AAAA", "name": "demo", "displayName": "demo"],
            "pubKeyCredParams": [["type": "public-key", "alg": -7]],
        ]
        let steps: [(String, JSONValue)] = [
            ("select-authenticator", Steps.selector(Steps.authenticators.keys.sorted())),
            ("login", Steps.usernamePassword()),
            ("registration", Steps.registration()),
            ("password-reset", Steps.passwordReset()),
            ("one-time-code", Steps.otp()),
            ("polling", Steps.polling(done: false, recipient: "+46 70 000 00 00", wait: (total: 120, left: 95))),
            ("external-browser", Steps.externalBrowser(href: "https://browser.example/login")),
            ("duo-devices", Steps.duoDevices([(id: "phone", title: "iPhone"), (id: "tablet", title: "iPad")])),
            ("bankid-choice", Steps.bankIDChoice()),
            ("bankid-this-device", Steps.bankIDSameDevice(autoStartToken: token)),
            (
                "bankid-other-device",
                Steps.bankIDPolling(done: false, autoStartToken: token, qrData: "bankid.\(token).0.0000", wait: (total: 120, left: 83))
            ),
            ("passkey", Steps.webAuthn(registration: false, options: options)),
            ("consent", Steps.consent(scopes: ["profile", "email", "offline_access"], clientName: "haapi-public")),
            (
                "invalid-input",
                Problems.document(
                    "invalid-input", title: "Form Errors",
                    extra: [
                        "invalidFields": [["name": "userName", "reason": "missing", "detail": "You have to enter your username"]]
                    ])
            ),
            ("incorrect-credentials", Problems.document("incorrect-credentials", title: "Incorrect credentials")),
            ("too-many-attempts", Problems.document("too-many-attempts", title: Credentials.lockedMessage)),
            (
                "authentication-failed",
                Problems.document(
                    "authentication-failed", title: "The BankID order was not signed in time",
                    extra: [
                        "messages": [Wire.message("The BankID order was not signed in time", ["error"])]
                    ])
            ),
        ]
        return steps.map { Document(name: $0.0, body: ServerTexts.localized($0.1, to: language)) }
    }

    /// `GET /preview` (the index) and `GET /preview/{name}`, in `?lang=` or the request's language.
    static func add(to router: Router<DevServerRequestContext>, renderer: any PreviewRenderer) {
        @Sendable func page(_ name: String?, _ request: Request) async throws -> Response {
            let language =
                ServerLanguage.requested(uiLocales: request.uri.queryParameters["lang"].map(String.init)) ?? ServerLanguage.current
            guard let html = try await renderer.page(name, documents: documents(language: language), language: language) else {
                return Response(
                    status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: "no such page\n")))
            }
            // The page is drawn from this server's own documents; it runs no script of anyone's.
            return Reply.html(html, showingImages: true)
        }
        router.get("/preview") { request, _ in try await page(nil, request) }
        router.get("/preview/:name") { request, context in try await page(context.parameters.get("name"), request) }
    }
}
