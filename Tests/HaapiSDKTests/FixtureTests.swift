import Foundation
import HaapiTesting
import OAuthCore
import Testing

@testable import HaapiSDK

// The project's own fixtures (Tests/HaapiSDKTests/Fixtures), written from HAAPI-PROTOCOL.md with
// invented values, decoded into the typed models.

/// Loads the fixtures bundled with the test target.
enum Fixture {
    static func url(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"), "no fixture \(name).json")
    }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    /// The fixture as JSON, to compare raw models with.
    static func json(_ name: String) throws -> JSONValue { try JSONValue(parsing: data(name)) }

    /// Decodes a step fixture, by content and with the step media type (the same class both
    /// ways), and checks that nothing of it is lost.
    static func step<T: HaapiRepresentation>(
        _ name: String, as type: T.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> T {
        let bytes = try data(name)
        var decoded: [T] = []
        for contentType in [nil, HaapiModel.authMediaType] {
            guard case .representation(let step) = try HaapiModel.response(from: bytes, contentType: contentType) else {
                Issue.record("\(name) is not a step", sourceLocation: sourceLocation)
                throw FactError.notA("step")
            }
            decoded.append(try #require(step as? T, "\(name) decoded as \(Swift.type(of: step))", sourceLocation: sourceLocation))
        }
        let original = try JSONValue(parsing: bytes)
        #expect(try JSONValue(parsing: decoded[0].jsonData()) == original, sourceLocation: sourceLocation)
        var walker = RawWalker()
        walker.step(decoded[0], original)
        return decoded[0]
    }

    /// Decodes a problem fixture, by content and with the problem media type.
    static func problem<T: ProblemRepresentation>(
        _ name: String, as type: T.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> T {
        let bytes = try data(name)
        var decoded: [T] = []
        for contentType in [nil, HaapiModel.problemMediaType, "application/problem+json;charset=utf-8"] {
            guard case .problem(let problem) = try HaapiModel.response(from: bytes, contentType: contentType) else {
                Issue.record("\(name) is not a problem", sourceLocation: sourceLocation)
                throw FactError.notA("problem")
            }
            decoded.append(try #require(problem as? T, "\(name) decoded as \(Swift.type(of: problem))", sourceLocation: sourceLocation))
        }
        let original = try JSONValue(parsing: bytes)
        #expect(decoded[0].rawJSON == original, sourceLocation: sourceLocation)
        var walker = RawWalker()
        walker.problem(decoded[0], original)
        return decoded[0]
    }
}

@Suite("Own fixtures: steps")
struct FixtureStepTests {
    @Test func userConsentStep() throws {
        let step = try Fixture.step("user-consent-step", as: UserConsentStep.self)
        #expect(step.type == .userConsentStep)
        #expect(step.metadata?.viewName == "views/consent/scopes")
        #expect(step.metadata?.templateArea == "consent-area")
        #expect(
            step.messages.map(\.text) == [
                "Northwind Notes wants to use your account", "You can change this later in your account settings",
            ])
        #expect(step.messages.first?.hasClass("heading") == true)
        let consent = try #require(step.action(kind: .userConsent))
        #expect(consent.title == "Share your details")
        let form = try #require(consent.form)
        #expect(form.method == "POST")
        #expect(form.actionTitle == "Allow")
        let scopes = form.fields.compactMap { $0 as? CheckboxFormField }
        #expect(scopes.map(\.name) == ["scope_openid", "scope_notes", "scope_offline", "scope_marketing"])
        #expect(scopes.map(\.checked) == [true, true, false, false])
        #expect(scopes.map(\.readonly) == [true, false, false, false])
        #expect(scopes.map(\.value) == ["openid", "notes:read", "offline_access", nil])
        #expect(scopes.map(\.isRequired) == [true, true, true, false])
        #expect(scopes.map(\.defaultValue) == ["openid", "notes:read", nil, nil])
        // Checked boxes send their value, unchecked ones nothing, a readonly one stays as it is.
        #expect(
            pairs(form.parameters(with: [:]))
                == ["scope_openid=openid", "scope_notes=notes:read", "consent_ticket=ticket-8c1e77"])
        #expect(
            pairs(form.parameters(with: ["scope_openid": "nothing", "scope_offline": "offline_access", "scope_marketing": "on"]))
                == [
                    "scope_openid=openid", "scope_notes=notes:read", "scope_offline=offline_access", "scope_marketing=on",
                    "consent_ticket=ticket-8c1e77",
                ])
        #expect(step.action(kind: .cancel)?.form?.href == "/authn/consent/northwind-notes/deny")
    }

    @Test func consentorStep() throws {
        let step = try Fixture.step("consentor-step", as: UserConsentStep.self)
        #expect(step.type == .consentorStep)
        #expect(step.messages.first?.text == "Approve the transfer of 120.00 EUR to Blue Harbour Ltd")
        let approve = try #require(step.action(kind: .continue)?.form)
        #expect(approve.field("transferReference")?.value == "TRX-40211")
        #expect(approve.field("pin")?.type == .password)
        #expect(pairs(approve.parameters(with: ["pin": "0000"])) == ["transferReference=TRX-40211", "pin=0000"])
        #expect(step.action(kind: .cancel)?.title == "Reject")
    }

    @Test func externalBrowserFlow() throws {
        let step = try Fixture.step("external-browser-flow", as: ExternalBrowserClientOperationStep.self)
        #expect(step.actionModel.name == .externalBrowser)
        #expect(step.actionModel.href == "https://login.riverbank.example/authn/federate/partner-idp?_launch=Lq7vR2")
        #expect(step.clientOperationAction?.kind == "external-browser-launch")
        #expect(step.clientOperationAction?.title == "Continue in your browser")
        #expect(step.continueFormActionModel.href == "/authn/federate/partner-idp/resume")
        #expect(
            step.urlToLaunch(redirectTo: "app:/cb")?.absoluteString
                == "https://login.riverbank.example/authn/federate/partner-idp?_launch=Lq7vR2&redirect_uri=app%3A%2Fcb")
        #expect(try step.formattedParametersFromURL(URL(string: "app:/cb?_resume_nonce=rn-9")!) == ["_resume_nonce": "rn-9"])
        #expect(step.continueActions.count == 1)
        let resume = try #require(step.continueActions.first)
        #expect(resume.kind == .continue)
        let form = try #require(resume.form)
        #expect(form.method == "POST")
        #expect(form.href == "/authn/federate/partner-idp/resume")
        let nonce = try #require(form.field("_resume_nonce"))
        #expect(nonce.type == .context)
        #expect(!nonce.isUserInput)
        #expect(nonce.value == nil)
        #expect(form.parameters(with: [:]).isEmpty)
        #expect(pairs(form.parameters(with: ["_resume_nonce": "rn-77f"])) == ["_resume_nonce=rn-77f"])
        #expect(step.errorActions.map(\.kind) == [.cancel])
        #expect(step.errorActions.first?.form?.method == "GET")
    }

    @Test func webAuthnRegistration() throws {
        let step = try Fixture.step("webauthn-registration", as: WebAuthnRegistrationClientOperationStep.self)
        #expect(step.type == .registrationStep)
        #expect(step.actionModel.name == .webAuthnRegistration)
        let options = try #require(step.actionModel.argumentsJSON["credentialCreationOptions"])
        #expect(options["challenge"] == "p5xQ0m1k3Yt8bW2rZcA9")
        #expect(options["rp"]?["id"] == "riverbank.example")
        #expect(options["user"]?["displayName"] == "Mira Holm")
        #expect(options["pubKeyCredParams"] == [["type": "public-key", "alg": -7], ["type": "public-key", "alg": -257]])
        #expect(options["timeout"] == JSONValue.integer(90000))
        #expect(
            step.actionModel.argumentsJSON
                == (try Fixture.json("webauthn-registration"))["actions"]?.arrayValue?[0]["model"]?["arguments"]?.objectValue)
        let platform = try #require(step.actionModel.platformOptions)
        #expect(platform.relyingPartyId == "riverbank.example")
        #expect(platform.userName == "mira")
        #expect(platform.displayName == "Mira Holm")
        #expect(platform.attestation == "none")
        #expect(step.actionModel.crossPlatformOptions?.publicKeyCredParams?.map(\.algorithmId) == [-7, -257])
        #expect(step.continueAction.kind == .continue)
        let submit = try #require(step.continueActions.first?.form)
        #expect(submit.type == "application/json")
        #expect(submit.method == "POST")
        #expect(submit.field("credential")?.type == .context)
        #expect(step.errorActions.first?.kind == .cancel)
    }

    @Test func webAuthnAuthentication() throws {
        let step = try Fixture.step("webauthn-authentication", as: WebAuthnAuthenticationClientOperationStep.self)
        #expect(step.actionModel.name == .webAuthnAuthentication)
        let options = try #require(step.actionModel.argumentsJSON["credentialRequestOptions"])
        #expect(options["challenge"] == "Zk3Ww9cVqL0sN4aP7eDf")
        #expect(step.actionModel.credentialOptions.relyingPartyId == "riverbank.example")
        #expect(step.actionModel.credentialOptions.userVerificationPreference == "preferred")
        #expect(step.actionModel.credentialOptions.platformAllowCredentials?.map(\.credentialID) == [Data("cred-abc1".utf8)])
        #expect(options["rpId"] == "riverbank.example")
        #expect(options["allowCredentials"] == [["type": "public-key", "id": "Y3JlZC1hYmMx"]])
        #expect(options["userVerification"] == "preferred")
        #expect(options["timeout"] == JSONValue.integer(45000))
        #expect(step.continueActions.first?.form?.type == "application/json")
        #expect(step.continueActions.first?.form?.href == "/authn/authenticate/webauthn1")
        #expect(step.errorActions.isEmpty)
    }

    @Test func encapAutoActivation() throws {
        let step = try Fixture.step("encap-auto-activation", as: EncapClientOperationStep.self)
        #expect(step.actionModel.name == .encapAutoActivation)
        #expect(step.actionModel.href == "https://encap.riverbank.example/activation")
        #expect(step.actionModel.activationCode == "770213")
        #expect(step.urlToLaunch?.absoluteString == "https://encap.riverbank.example/activation")
        #expect(step.clientOperationAction?.kind == .deviceRegister)
        #expect(step.clientOperationAction?.title == nil)
        #expect(step.continueActions.first?.kind == .poll)
    }

    @Test func unknownClientOperation() throws {
        let step = try Fixture.step("unknown-client-operation", as: GenericClientOperationStep.self)
        #expect(step.actionModel.name.rawValue == "wrist-approval")
        #expect(step.actionModel.argumentsJSON == ["deviceHint": "watch-7", "attempt": 2])
        #expect(step.actionModel.arguments["attempt"] as? Int == 2)
        #expect(step.actionModel.argument("deviceHint") == "watch-7")
        #expect(step.continueActions.first?.form?.href == "/authn/authenticate/wrist1/done")
    }

    @Test func pollingPending() throws {
        let step = try Fixture.step("polling-pending", as: PollingStep.self)
        #expect(step.pollingProperties.status == .pending)
        #expect(step.pollingProperties.recipientOfCommunication == "+46 70 *** ** 58")
        #expect(step.pollingProperties.maxWaitTimeSeconds == 180)
        #expect(step.pollingProperties.maxWaitTime == "180")
        #expect(step.pollingProperties.maxWaitRemainingTimeSeconds == 143)
        #expect(step.pollingProperties.intervalMilliseconds == 2500)
        #expect(step.mainAction.kind == .poll)
        #expect(step.mainAction.model.method == "GET")
        #expect(step.cancelAction?.title == "Stop waiting")
        #expect(step.messages.first?.text == "We sent a request to your phone")
        let qr = try #require(step.link(rel: "qr-code"))
        #expect(qr.isImage)
        #expect(qr.type == "image/png")
        #expect(Array(try #require(qr.imageData).prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func pollingFailed() throws {
        let step = try Fixture.step("polling-failed", as: PollingStep.self)
        #expect(step.pollingProperties.status == .failed)
        #expect(step.pollingProperties.recipientOfCommunication == nil)
        #expect(step.pollingProperties.maxWaitTime == nil)
        #expect(step.messages.first?.classList == ["error"])
        // Not pending: the action that continues is neither poll nor cancel.
        let main = step.mainAction
        #expect(main.kind == .redirect)
        #expect(pairs(try #require(main.form).parameters(with: [:])) == ["outcome=declined"])
        #expect(step.cancelAction?.title == "Back")
    }

    @Test func oauthAuthorizationResponse() throws {
        let step = try Fixture.step("oauth-authorization-response", as: OAuthAuthorizationResponseStep.self)
        let properties = step.oauthAuthorizationResponseProperties
        #expect(properties.code == "c0de-7Hq2LmVx9")
        #expect(properties.state == "st-41aa")
        #expect(properties.iss == "https://login.riverbank.example/oauth/v2/anonymous")
        #expect(properties.scope == "openid notes:read")
        #expect(properties.expiresIn == 3600)
        #expect(properties.accessToken == nil)
        #expect(properties.idToken == nil)
        let link = try #require(step.authorizationResponseLink)
        #expect(link.href.hasPrefix("app.riverbank.notes:/callback?code=c0de-7Hq2LmVx9&state=st-41aa"))
        #expect(!link.isImage)
    }

    @Test func formFields() throws {
        let step = try Fixture.step("form-fields", as: InteractiveFormStep.self)
        #expect(step.type == .registrationStep)
        let action = try #require(step.actions.first)
        #expect(action.kind == .userRegister)
        let form = try #require(action.form)
        #expect(form.method == "POST", "methods are upper-cased")
        #expect(form.type == "application/x-www-form-urlencoded", "the default body type")
        #expect(form.fields.map(\.name) == ["age", "email", "nickname", "country", "terms", "newsletter", "signature", "flow"])

        let age = try #require(form.field("age") as? TextFormField)
        #expect(age.type == .text)
        #expect(age.kind == .number)
        #expect(age.minLength == 1)
        #expect(age.maxLength == 3, "a length sent as a string")
        #expect(age.isRequired)
        let email = try #require(form.field("email") as? TextFormField)
        #expect(email.kind == .email)
        #expect(email.placeholder == "you@example.org")
        #expect(email.minLength == nil)
        #expect(email.maxLength == 254)
        let nickname = try #require(form.field("nickname"))
        #expect(nickname.type == .text, "a field without type is text")
        #expect(!nickname.isRequired)
        #expect(nickname.value == "mira")

        let country = try #require(form.field("country") as? SelectFormField)
        #expect(country.type == .select)
        #expect(country.options.map(\.label) == ["Finland", "Sweden", "Norway"])
        #expect(country.options.map(\.value) == ["FI", "SE", "NO"])
        #expect(country.options.map(\.selected) == [false, true, false])
        #expect(country.defaultValue == "SE")

        let terms = try #require(form.field("terms") as? CheckboxFormField)
        #expect(terms.type == .checkbox)
        #expect(terms.checked && !terms.readonly)
        #expect(terms.defaultValue == "on", "a checked box without value sends on")
        let newsletter = try #require(form.field("newsletter") as? CheckboxFormField)
        #expect(!newsletter.checked)
        #expect(newsletter.defaultValue == nil)

        let signature = try #require(form.field("signature"))
        #expect(signature is GenericFormField)
        #expect(signature.type.rawValue == "drawing-pad")
        #expect(signature.isUserInput)
        #expect(signature.label == "Sign here")
        #expect(form.field("flow")?.type == .hidden)
    }

    @Test("Unknown keys everywhere are kept in rawJSON")
    func extraKeysKept() throws {
        let step = try Fixture.step("form-fields", as: InteractiveFormStep.self)
        #expect(step.rawJSON["x-trace"] == ["id": "trace-901", "hops": [1, 2]])
        #expect(step.metadata?.rawJSON["x-theme"] == "dark")
        #expect(step.messages.first?.rawJSON["x-priority"] == 3)
        #expect(step.links.first?.rawJSON["x-target"] == "_blank")
        let action = try #require(step.actions.first)
        #expect(action.rawJSON["x-analytics"] == "register-form")
        let form = try #require(action.form)
        #expect(form.rawJSON["x-captcha"] == false)
        #expect(form.field("age")?.rawJSON["x-unit"] == "years")
        #expect((form.field("country") as? SelectFormField)?.options[1].rawJSON["x-flag"] == "se")
        #expect(form.field("signature")?.rawJSON["x-stroke"] == 2)
        #expect(step.rawJsonDictionary.keys.sorted() == ["actions", "links", "messages", "metadata", "type", "x-trace"])
    }

    @Test("A step type this SDK does not know is a typed error naming it: no step model can say what it is")
    func unknownStepType() throws {
        #expect {
            try HaapiModel.response(from: Fixture.data("unknown-step-type"), contentType: HaapiModel.authMediaType)
        } throws: { error in
            let error = try #require(error as? HaapiModelError)
            return error.code == .unknownStepType && error.path == "type" && error.message.contains("device-attestation-step")
        }
    }

    @Test func unknownTemplate() throws {
        let step = try Fixture.step("unknown-template", as: GenericRepresentationStep.self)
        let action = try #require(step.actions.first)
        #expect(action.template.rawValue == "carousel")
        #expect(action.kind.rawValue == "picture-choice")
        #expect(action.title == "Pick your image")
        #expect(action.form == nil && action.selector == nil && action.clientOperation == nil)
        guard let model = (action as? GenericAction)?.model else {
            Issue.record("the unknown template's model is not kept")
            return
        }
        #expect(model["slides"]?.arrayValue?.count == 2)
        #expect(model["loop"] == true)
    }

    @Test func unknownKind() throws {
        let step = try Fixture.step("unknown-kind", as: InteractiveFormStep.self)
        let action = try #require(step.actions.first)
        #expect(action.kind.rawValue == "magic-link-request")
        #expect(action.kind.description == "magic-link-request")
        #expect(action.form?.method == "PATCH")
        #expect((action.form?.field("address") as? TextFormField)?.kind == .email)
    }
}

@Suite("Own fixtures: problems")
struct FixtureProblemTests {
    @Test func invalidInput() throws {
        let problem = try Fixture.problem("problem-invalid-input", as: InvalidInputProblem.self)
        #expect(problem.type == .invalidInputProblem)
        #expect(problem.type.isRetryableOnSameStep)
        #expect(problem.title == "Some fields need your attention")
        #expect(problem.code == "form_errors")
        #expect(problem.metadata?.templateArea == "register-area")
        #expect(problem.invalidFields.count == 2)
        let email = try #require(problem.invalidField(named: "email"))
        #expect(email.reason == "missing")
        #expect(email.detail == "Enter your e-mail address")
        let age = try #require(problem.invalidField(named: "age"))
        #expect(age.reason == "invalidValue")
        #expect(age.detail == "Age must be a number")
        #expect(problem.invalidField(named: "nickname") == nil)
        #expect(problem.messages.first?.classList == ["error"])
        #expect(problem.rawJSON["invalidFields"]?.arrayValue?[1]["x-hint"] == "digits")
    }

    struct PlainCase: Sendable, CustomTestStringConvertible {
        let name: String
        let type: ProblemType
        let title: String
        let retryable: Bool
        var testDescription: String { name }
    }

    @Test(
        "Problems without extra members decode as Problem, known and unknown types alike",
        arguments: [
            PlainCase(
                name: "problem-too-many-attempts", type: .tooManyAttemptsProblem, title: "Too many attempts, wait a minute", retryable: true
            ),
            PlainCase(name: "problem-authentication-failed", type: .authenticationFailedProblem, title: "Sign-in failed", retryable: true),
            PlainCase(
                name: "problem-generic-user-error", type: .genericUserProblem, title: "This account cannot sign in here", retryable: false),
            PlainCase(name: "problem-unexpected", type: .unexpectedProblem, title: "Something went wrong on our side", retryable: false),
            PlainCase(
                name: "problem-mismatch-between-session-and-access-token", type: .sessionAndAccessTokenMismatchProblem,
                title: "Your session belongs to another client", retryable: false),
            PlainCase(
                name: "problem-unknown-type", type: ProblemType(uri: "https://problems.riverbank.example/quota-exceeded"),
                title: "Daily sign-in quota reached", retryable: false),
        ])
    func plainProblems(_ test: PlainCase) throws {
        let problem = try Fixture.problem(test.name, as: Problem.self)
        #expect(problem.type == test.type)
        #expect(problem.title?.literal == test.title)
        #expect(problem.type.isRetryableOnSameStep == test.retryable)
    }

    @Test func problemDetails() throws {
        #expect(try Fixture.problem("problem-too-many-attempts", as: Problem.self).code == "locked_temporarily")
        #expect(try Fixture.problem("problem-unexpected", as: Problem.self).code == "ref-55120")
        let failed = try Fixture.problem("problem-authentication-failed", as: Problem.self)
        #expect(failed.messages.first?.classList == ["error", "is-error"])
        let mismatch = try Fixture.problem("problem-mismatch-between-session-and-access-token", as: Problem.self)
        #expect(mismatch.links.first?.rel == "restart")
        let unknown = try Fixture.problem("problem-unknown-type", as: Problem.self)
        #expect(unknown.rawJSON["retryAfter"] == 3600)
        #expect(unknown.messages.first?.hasClass("warning") == true)
    }

    @Test func errorAuthorizationResponse() throws {
        let problem = try Fixture.problem("problem-error-authorization-response", as: AuthorizationProblem.self)
        #expect(problem.type == .errorAuthorizationResponseProblem)
        #expect(!problem.type.isRetryableOnSameStep)
        #expect(problem.title == "The user declined")
        #expect(problem.error == "access_denied")
        #expect(problem.errorDescription == "The user did not consent")
        #expect(problem.iss == "https://login.riverbank.example/oauth/v2/anonymous")
        let link = try #require(problem.links.first { $0.rel == "authorization-response" })
        #expect(link.href.hasPrefix("app.riverbank.notes:/callback?error=access_denied"))
    }

    @Test("A problem document's media type wins over its content, and a step's too")
    func mediaTypeWins() throws {
        // A problem type under the step media type is read as a step: one of a type no step has.
        #expect {
            try HaapiModel.response(from: Fixture.data("problem-unexpected"), contentType: "application/vnd.auth+json")
        } throws: { ($0 as? HaapiModelError)?.code == .unknownStepType }
        // A step under the problem media type is read as a problem.
        let asProblem = try HaapiModel.response(from: Fixture.data("unknown-kind"), contentType: "Application/Problem+JSON")
        guard case .problem(let problem) = asProblem else {
            Issue.record("the media type did not win")
            return
        }
        #expect(problem.type.rawValue == "authentication-step")
    }
}

@Suite("Documents of the wrong shape")
struct ModelErrorTests {
    /// Expects decoding `json` to fail with `code` at `path`.
    func expectError(
        _ json: String, contentType: String? = nil, _ code: HaapiModelError.Code, at path: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let response = try HaapiModel.response(from: Data(json.utf8), contentType: contentType)
            Issue.record("expected \(code) at \(path), decoded \(response)", sourceLocation: sourceLocation)
        } catch let error as HaapiModelError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.path == path, "\(error)", sourceLocation: sourceLocation)
            #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
            #expect(error.errorDescription?.hasSuffix(" at \(path)") == true, sourceLocation: sourceLocation)
        } catch {
            Issue.record("untyped error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func notJSON() {
        expectError("<html><body>Bad gateway</body></html>", .notJSON, at: "$")
        expectError("", .notJSON, at: "$")
        expectError("{\"type\": \"authentication-step\",", .notJSON, at: "$")
        expectError("{\"type\": \"authentication-step\"} trailing", contentType: HaapiModel.authMediaType, .notJSON, at: "$")
    }

    @Test func wrongShapes() {
        expectError(#"[{"type":"authentication-step"}]"#, .wrongType, at: "$")
        expectError(#"{"actions":[]}"#, .missingMember, at: "type")
        expectError(#"{"type":7}"#, .wrongType, at: "type")
        expectError(#"{"type":"authentication-step","actions":{"template":"form"}}"#, .wrongType, at: "actions")
        expectError(
            #"{"type":"authentication-step","actions":[{"template":"form","kind":"login"}]}"#, .missingMember, at: "actions[0].model")
        expectError(
            #"{"type":"authentication-step","actions":[{"template":"selector","kind":"x","model":[]}]}"#, .wrongType, at: "actions[0].model"
        )
        expectError(
            #"{"type":"authentication-step","actions":[{"template":"form","model":{"href":"/a","fields":[{"name":"a"},{"type":"text"}]}}]}"#,
            .missingMember, at: "actions[0].model.fields[1].name")
        expectError(
            #"{"type":"authentication-step","actions":[{"template":"form","model":{"method":"POST"}}]}"#,
            .missingMember, at: "actions[0].model.href")
        expectError(
            #"{"type":"authentication-step","actions":[{"template":"form","model":{"href":"/a","fields":[{"name":"n","minLength":"short"}]}}]}"#,
            .wrongType, at: "actions[0].model.fields[0].minLength")
        expectError(
            #"{"type":"authentication-step","actions":[{"template":"form","model":{"href":"/a","fields":[{"name":"c","type":"checkbox","checked":"yes"}]}}]}"#,
            .wrongType, at: "actions[0].model.fields[0].checked")
        expectError(
            #"{"type":"authentication-step","actions":[{"template":"selector","model":{"options":[{"template":"form","model":{"href":"/a"}},{"template":"form","model":{"href":"/b","continueActions":[{"template":"form","model":{"href":"/c","fields":[{"label":"x"}]}}]}}]}}]}"#,
            .missingMember, at: "actions[0].model.options[1].model.continueActions[0].model.fields[0].name")
        expectError(
            #"{"type":"authentication-step","actions":[{"template":"client-operation","model":{"arguments":{}}}]}"#,
            .missingMember, at: "actions[0].model.name")
        expectError(#"{"type":"authentication-step","links":[{"href":"/ok"},{"href":42,"rel":"help"}]}"#, .wrongType, at: "links[1].href")
        expectError(#"{"type":"authentication-step","messages":[1,2]}"#, .wrongType, at: "messages[0]")
        expectError(
            #"{"type":"authentication-step","messages":[{"text":"a","classList":["info",3]}]}"#, .wrongType, at: "messages[0].classList[1]")
        expectError(#"{"type":"authentication-step","metadata":"html1"}"#, .wrongType, at: "metadata")
        expectError(#"{"type":"polling-step","properties":{"interval":"2500"}}"#, .missingMember, at: "properties.status")
        expectError(#"{"type":"polling-step"}"#, .missingMember, at: "properties.status")
        expectError(#"{"type":"polling-step","properties":{"status":"pending","interval":"soon"}}"#, .wrongType, at: "properties.interval")
        expectError(#"{"type":"polling-step","properties":[]}"#, .wrongType, at: "properties")
    }

    @Test func wrongProblemShapes() {
        expectError(#"{"type":"https://curity.se/problems/invalid-input","invalidFields":"email"}"#, .wrongType, at: "invalidFields")
        expectError(
            #"{"type":"https://curity.se/problems/invalid-input","invalidFields":[{"name":"a"},{"reason":"missing"}]}"#,
            .missingMember, at: "invalidFields[1].name")
        expectError(#"{"title":"no type"}"#, contentType: HaapiModel.problemMediaType, .missingMember, at: "type")
        expectError(#"{"type":"https://curity.se/problems/unexpected","messages":{}}"#, .wrongType, at: "messages")
    }
}

@Suite("FormActionModel.parameters(with:)")
struct FormParameterTests {
    func form() throws -> FormActionModel {
        try #require(try Fixture.step("form-fields", as: InteractiveFormStep.self).actions.first?.form)
    }

    @Test("Defaults: hidden values, the selected option, checked boxes, initial values; no value, no parameter")
    func defaults() throws {
        #expect(pairs(try form().parameters(with: [:])) == ["nickname=mira", "country=SE", "terms=on", "flow=profile-v2"])
    }

    @Test("The caller's values for visible fields; hidden fields unchanged; extra keys kept, sorted")
    func callerValues() throws {
        let parameters = try form().parameters(with: [
            "age": "41", "email": "mira@riverbank.example", "nickname": "mh", "country": "NO", "newsletter": "weekly",
            "signature": "svg:...", "flow": "forged", "zeta": "last", "alpha": "first",
        ])
        #expect(
            pairs(parameters) == [
                "age=41", "email=mira@riverbank.example", "nickname=mh", "country=NO", "terms=on", "newsletter=weekly",
                "signature=svg:...", "flow=profile-v2", "alpha=first", "zeta=last",
            ])
    }

    @Test("A hidden field without a value takes the caller's")
    func hiddenWithoutValue() throws {
        let step = try HaapiModel.representation(
            from: JSONValue(
                parsing: Data(
                    #"{"type":"authentication-step","actions":[{"template":"form","kind":"continue","model":{"href":"/x","method":"POST","fields":[{"name":"h","type":"hidden"},{"name":"t"}]}}]}"#
                        .utf8)))
        let form = try #require(step.allActions.first?.form)
        #expect(pairs(form.parameters(with: [:])).isEmpty)
        #expect(pairs(form.parameters(with: ["h": "1", "t": "2"])) == ["h=1", "t=2"])
    }
}

/// Parameters as `name=value` strings, to compare in order.
func pairs(_ parameters: [(String, String)]) -> [String] { parameters.map { "\($0.0)=\($0.1)" } }

/// `JSONValue(parsing:)` parses plain JSON itself and leaves everything else to JSONDecoder;
/// both must always agree (HAAPI models are built on it, and the benchmark depends on it).
@Suite("JSONValue(parsing:) agrees with JSONDecoder")
struct JSONParsingAgreementTests {
    static func decoder(_ data: Data) -> JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: data) }

    /// Equal, with numbers compared bit for bit.
    static func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x.bitPattern == y.bitPattern
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(identical)
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { identical(value, $0) } ?? false }
        case (.string(let x), .string(let y)): return Array(x.unicodeScalars) == Array(y.unicodeScalars)
        default: return a == b
        }
    }

    func expectAgreement(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = Self.decoder(data)
        let parsed = try? JSONValue(parsing: data)
        switch (expected, parsed) {
        case (nil, nil): break
        case (let expected?, let parsed?):
            #expect(Self.identical(expected, parsed), "\(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
        default:
            Issue.record(
                "JSONDecoder: \(String(describing: expected)), JSONValue: \(String(describing: parsed)) for \(String(decoding: data, as: UTF8.self))",
                sourceLocation: sourceLocation)
        }
    }

    @Test func edgeCases() {
        let cases = [
            "1", "1.0", "1e2", "1E-2", "-0", "-0.0", "0.5", "2.5e1", "1e-400", "1e400", "12.50", "123456789012345678",
            "1234567890123456789", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "01", "+1", ".5", "1.", "-", "NaN", "true", "false", "null", "nul", "\"a\"", " [1 , 2]\n", "\u{FEFF}[1]", "\u{0C}1",
            #"{"a":1,"a":2}"#, "[1,]", #"{"a":1,}"#, #""\u0000""#, #""\ud83d\ude00""#, #""\ud800""#, #""\udc00""#, "\"a\tb\"",
            #""\/\b\f\n\r\t\"\\""#, #""\u00e9 é e\u0301""#, "[1]x", "{}", "[]", "",
            "[" + String(repeating: "[", count: 300) + String(repeating: "]", count: 301),
        ]
        for text in cases { expectAgreement(Data(text.utf8)) }
        expectAgreement(Data([0x22, 0x61, 0xFF, 0x22]))
        expectAgreement(Data([0x7B, 0x22, 0x61, 0xC3, 0x22, 0x3A, 0x31, 0x7D]))
        expectAgreement("[\"é\"]".data(using: .utf16)!)
    }

    @Test func randomDocuments() {
        var rng = SplitMix(state: 7)
        let fragments = [
            "{", "}", "[", "]", "\"", ":", ",", " ", "\n", "\"a\"", "\"é\"", #""\u20ac""#, #""\ud83d\ude00""#, #""\ud83d""#, "1", "-0",
            "01",
            "1.5", "1.0", "1e2", "3e-5", "1e999", "98765432109876543210", "true", "null", "nul", #"{"k":[]}"#, #"{"a":1,"a":2}"#, "[1,]",
        ]
        for index in 0..<20_000 {
            var text = (0..<Int.random(in: 1...10, using: &rng)).map { _ in fragments.randomElement(using: &rng)! }.joined()
            if index % 2 == 0 { text = "{\"x\":[" + text + "]}" }
            expectAgreement(Data(text.utf8))
        }
    }
}
