import Foundation
import OAuthCore
import Testing

@testable import HaapiSDK

// Conformance against the responses Curity published from its Identity Server, kept in
// Tests/Fixtures/curity-captured (see its README and MANIFEST.tsv).

/// One line of `MANIFEST.tsv`.
struct ManifestRow: Sendable, CustomTestStringConvertible {
    let file: String
    let result: String
    let className: String
    let facts: String

    var testDescription: String { file }
}

/// Where the captured files are and what the manifest says about them.
enum Captured {
    /// `Tests/Fixtures/curity-captured`, found from this source file.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/HaapiSDKTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/curity-captured", isDirectory: true)

    /// The manifest's rows (empty when the manifest cannot be read, which the first test reports).
    static let rows: [ManifestRow] = {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else {
            return []
        }
        return text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 4 else { return nil }
            return ManifestRow(file: columns[0], result: columns[1], className: columns[2], facts: columns[3])
        }
    }()

    static func bytes(_ file: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(file))
    }
}

@Suite("Captured Curity responses (MANIFEST.tsv)")
struct ConformanceTests {
    @Test("The manifest lists every captured file, and every listed file exists")
    func manifestMatchesFolder() throws {
        #expect(Captured.rows.count >= 20, "MANIFEST.tsv did not parse")
        let listed = Set(Captured.rows.map(\.file))
        #expect(listed.count == Captured.rows.count, "a file is listed twice")
        let present = Set(
            try FileManager.default.contentsOfDirectory(atPath: Captured.directory.path).filter { $0.hasSuffix(".json") })
        #expect(listed == present)
    }

    @Test("Each file decodes to the manifest's class with its facts, by content and by media type", arguments: Captured.rows)
    func decodesAsManifestSays(row: ManifestRow) throws {
        let bytes = try Captured.bytes(row.file)
        let mediaType = row.result == "problem" ? HaapiModel.problemMediaType : HaapiModel.authMediaType
        for contentType in [nil, mediaType, mediaType + "; charset=UTF-8"] {
            let response = try HaapiModel.response(from: bytes, contentType: contentType)
            switch (row.result, response) {
            case ("representation", .representation), ("problem", .problem): break
            default: Issue.record("\(row.file) (content type \(contentType ?? "none")): expected a \(row.result), got \(response)")
            }
            #expect(
                row.className.components(separatedBy: " or ").contains { hasClass($0, response) },
                "\(row.file) (content type \(contentType ?? "none")): expected \(row.className), got \(describeResponse(response))")
            try checkFacts(row.file, response)
        }
    }

    @Test("Nothing is lost: the whole document and every typed node keep their original JSON", arguments: Captured.rows)
    func roundTrip(row: ManifestRow) throws {
        let bytes = try Captured.bytes(row.file)
        let original = try JSONValue(parsing: bytes)
        var walker = RawWalker()
        switch try HaapiModel.response(from: bytes) {
        case .representation(let step):
            #expect(try JSONValue(parsing: step.jsonData()) == original)
            walker.step(step, original)
        case .problem(let problem):
            #expect(try JSONValue(parsing: problem.jsonData()) == original)
            walker.problem(problem, original)
        }
        #expect(walker.compared > 1)
    }

    @Test("duo.json: the nested device selectors are reachable through the typed models")
    func duoNesting() throws {
        guard case .representation(let step) = try HaapiModel.response(from: Captured.bytes("duo.json")) else {
            Issue.record("not a step")
            return
        }
        #expect(step.allActions.count == 1)
        let deviceSelector = try #require(step.allActions.first)
        #expect(deviceSelector.template == .selector)
        #expect(deviceSelector.kind == "device-selector")
        #expect(deviceSelector.title == "Device selection")
        let devices = try #require(deviceSelector.selector).options
        #expect(devices.map(\.titleText) == ["Fake (+XXX XXX XXX 789)", "Galaxy (+XXX XXX XXX 815)"])
        for (device, id) in zip(devices, ["DP5N54VPVTYII32TIANH", "DPS31IX8I1NUQIY9EMC6"]) {
            #expect(device.kind == "device-option")
            let factors = try #require(device.selector).options
            #expect(factors.map(\.titleText) == ["auto", "push", "sms", "passcode"])
            for factor in factors {
                #expect(factor.kind == .login)
                let form = try #require(factor.form)
                #expect(form.method == "POST")
                #expect(form.href == "/dev/authn/authenticate/duo1/select-device")
                #expect(form.field("device")?.type == .hidden)
                #expect(form.field("device")?.value == id)
                #expect(form.field("factor")?.value == factor.titleText)
                #expect(form.parameters(with: [:]).map { "\($0.0)=\($0.1)" } == ["device=\(id)", "factor=\(factor.titleText!)"])
            }
            let passcode = try #require(factors[3].form)
            #expect(passcode.fields.map(\.type) == [FormFieldType.hidden, .hidden, .text])
            #expect(passcode.field("passcode")?.label == "Passcode")
            let sms = try #require(factors[2].form)
            #expect(sms.continueActions.count == 1)
            let afterSMS = try #require(sms.continueActions.first?.form)
            #expect(afterSMS.field("factor")?.value == "passcode")
            #expect(afterSMS.field("passcode")?.isUserInput == true)
        }
        #expect(step.link(rel: "register-create")?.href == "/dev/authn/anonymous/duo1/info")
    }
}

// MARK: - Classes

/// Whether `response` is of the manifest's class `name`.
func hasClass(_ name: String, _ response: HaapiDocument) -> Bool {
    switch response {
    case .representation(let step):
        switch name {
        case "InteractiveFormStep": return step is InteractiveFormStep
        case "AuthenticatorSelectorStep": return step is AuthenticatorSelectorStep
        case "RedirectionStep": return step is RedirectionStep
        case "PollingStep": return step is PollingStep
        case "ContinueSameStep": return step is ContinueSameStep
        case "OAuthAuthorizationResponseStep": return step is OAuthAuthorizationResponseStep
        case "GenericRepresentationStep": return step is GenericRepresentationStep
        case "UserConsentStep": return step is UserConsentStep
        case "ClientOperationStep(bankid)":
            return (step as? BankIdClientOperationStep)?.actionModel.name == .bankId
        default: return false
        }
    case .problem(let problem):
        switch name {
        case "InvalidInputProblem": return problem is InvalidInputProblem
        case "AuthorizationProblem": return problem is AuthorizationProblem
        case let name where name.hasPrefix("Problem(") && name.hasSuffix(")"):
            let type = name.dropFirst("Problem(".count).dropLast()
            return problem is Problem && problem.type.rawValue == "https://curity.se/problems/\(type)"
        default: return false
        }
    }
}

func describeResponse(_ response: HaapiDocument) -> String {
    switch response {
    case .representation(let step): return "\(type(of: step)) (\(step.type))"
    case .problem(let problem): return "\(type(of: problem)) (\(problem.type))"
    }
}

// MARK: - Facts

/// Checks every fact `MANIFEST.tsv` lists for `file`.
func checkFacts(_ file: String, _ response: HaapiDocument) throws {
    func step() throws -> any HaapiRepresentation {
        guard case .representation(let step) = response else { throw FactError.notA("step") }
        return step
    }
    func problem() throws -> any ProblemRepresentation {
        guard case .problem(let problem) = response else { throw FactError.notA("problem") }
        return problem
    }
    let expectedLinks: [(rel: String, href: String)] = [
        ("forgot-password", "/dev/authn/authenticate/htmlSql/forgot-password"),
        ("forgot-account-id", "/dev/authn/authenticate/htmlSql/forgot-account-id"),
        ("register-create", "/dev/authn/register/create/htmlSql"),
    ]

    switch file {
    case "authenticationStepFormRepresentation.json":
        // actions=1; form kind=login; a non-standard title key inside the model is ignored
        let step = try #require(try step() as? InteractiveFormStep)
        #expect(step.actions.count == 1)
        #expect(step.actions.count == 1)
        let action = try #require(step.actions.first)
        #expect(action.kind == .login)
        #expect(action.title == nil, "the model's title must not become the action's title")
        let form = try #require(action.form)
        #expect(form.rawJSON["title"] == "Login")
        #expect(form.actionTitle == "Login")
        #expect(form.href == "/dev/authn/authenticate/htmlSql")
        #expect(form.method == "POST")
        #expect(form.fields.map(\.name) == ["userName", "password"])
        #expect(step.links.map(\.rel) == expectedLinks.map(\.rel))

    case "authenticationStepSelectorRepresentation.json":
        // options=2; authenticatorType google, username
        let step = try #require(try step() as? AuthenticatorSelectorStep)
        #expect(step.title == "Select Authentication Method")
        #expect(step.selector.kind == .authenticatorSelector)
        #expect(step.authenticators.count == 2)
        #expect(step.authenticators.map(\.type) == ["google", "username"])
        #expect(step.authenticators.map(\.title) == ["google1", "username"])
        #expect(
            step.authenticators.map { $0.action.model.href } == ["/dev/authn/authenticate/google1", "/dev/authn/authenticate/username"])
        #expect(step.authenticators.allSatisfy { $0.action.model.method == "GET" })

    case "bankIdSameDeviceClientOperation.json":
        // autoStartToken; continueActions=1; errorActions=1 (kind bankid-other-device, 2 fields); cancel form present
        let step = try #require(try step() as? BankIdClientOperationStep)
        #expect(step.actionModel.name == .bankId)
        #expect(step.clientOperationAction?.kind == .login)
        #expect(step.clientOperationAction?.title == "Login with BankID")
        #expect(step.actionModel.autoStartToken == "04b7c1bd-6d7b-46c0-b8ed-00f5cf39688c")
        #expect(step.actionModel.href == "bankid:///?autostarttoken=04b7c1bd-6d7b-46c0-b8ed-00f5cf39688c&redirect=null")
        #expect(step.actionModel.redirect == "https%3A%2F%2Fdafe6dff0c1c.ngrok.io%2Fdev%2Fauthn%2Fauthenticate%2Fbankid1%2Flaunch")
        #expect(step.continueActions.count == 1)
        #expect(step.continueActions.first?.kind == .redirect)
        #expect(step.continueActions.first?.form?.href == "https://dafe6dff0c1c.ngrok.io/dev/authn/authenticate/bankid1/poller")
        #expect(step.continueActions.first?.form?.method == "GET")
        #expect(step.errorActions.count == 1)
        let otherDevice = try #require(step.errorActions.first)
        #expect(otherDevice.kind == "bankid-other-device")
        let otherForm = try #require(otherDevice.form)
        #expect(otherForm.fields.count == 2)
        #expect(otherForm.fields.map(\.name) == ["personalnumber", "usesamedevice"])
        #expect(otherForm.fields.map(\.type) == [FormFieldType.username, .hidden])
        #expect(otherForm.field("usesamedevice")?.value == "false")
        let cancel = try #require(step.action(kind: .cancel))
        #expect(cancel.form?.method == "POST")
        #expect(cancel.form?.href == "https://dafe6dff0c1c.ngrok.io/dev/authn/authenticate/bankid1/cancel")
        #expect(step.action(kind: .continue)?.form?.actionTitle == "Start the BankID security app")
        #expect(step.actions.count == 3)

    case "bankIdSelectSameOrOtherDevice.json":
        // forms=2; kinds bankid-same-device, bankid-other-device; placeholder yyyymmddnnnn
        let step = try #require(try step() as? InteractiveFormStep)
        #expect(step.actions.count == 2)
        #expect(step.actions.map(\.kind.rawValue) == ["bankid-same-device", "bankid-other-device"])
        #expect(step.actions[0].form?.field("usesamedevice")?.value == "true")
        let personalNumber = try #require(step.actions[1].form?.field("personalnumber"))
        #expect(personalNumber.placeholder == "yyyymmddnnnn")
        #expect(personalNumber.label == "Personal number")
        #expect(personalNumber.type == .username)
        #expect(step.actions[1].form?.field("usesamedevice")?.value == "false")

    case "continueSameStep.json":
        // messages=1; classList info
        let step = try #require(try step() as? ContinueSameStep)
        #expect(step.messages.count == 1)
        #expect(step.messages.first?.text == "SMS sent")
        #expect(step.messages.first?.classList == ["info"])
        #expect(step.messages.first?.hasClass("info") == true)
        #expect(step.actions.isEmpty)
        #expect(step.continueActions.isEmpty)

    case "duo.json":
        // selector kind device-selector nesting device-option selectors nesting login forms (more in duoNesting)
        let step = try step()
        let selector = try #require(step.allActions.first)
        #expect(selector.kind == "device-selector")
        let devices = try #require(selector.selector?.options)
        #expect(devices.count == 2)
        #expect(devices.allSatisfy { $0.kind == "device-option" && $0.template == .selector })
        let forms = devices.flatMap { $0.selector?.options ?? [] }
        #expect(forms.count == 8)
        #expect(forms.allSatisfy { $0.kind == .login && $0.form != nil })

    case "incorrectCredentialsProblem.json":
        // title=Incorrect credentials
        let problem = try #require(try problem() as? Problem)
        #expect(problem.type == .incorrectCredentialsProblem)
        #expect(problem.type.isRetryableOnSameStep)
        #expect(problem.title == "Incorrect credentials")
        #expect(problem.messages.isEmpty)
        #expect(problem.metadata?.templateArea == "html1")

    case "incorrectCredentialsProblemWithMessages.json":
        // messages=2
        let problem = try #require(try problem() as? Problem)
        #expect(problem.type == .incorrectCredentialsProblem)
        #expect(problem.title == "Incorrect credentials")
        #expect(problem.messages.count == 2)
        #expect(problem.messages.map(\.text) == ["Foo", "Bar"])
        #expect(problem.messages.allSatisfy { $0.classList == ["info"] })

    case "launchExternalBrowser.json":
        // legacy template "launch" (kind external-browser): unknown template, decodes without error
        let step = try #require(try step() as? GenericRepresentationStep)
        #expect(step.type == .authenticationStep)
        let action = try #require(step.actions.first)
        #expect(action.template.rawValue == "launch")
        #expect(action.kind.rawValue == "external-browser")
        #expect(action.title == "The authentication process needs to use an external browser")
        guard let model = (action as? GenericAction)?.model else {
            Issue.record("an unknown template must keep its model as raw JSON")
            return
        }
        #expect(model["href"]?.stringValue?.hasSuffix("_launch_nonce=hpGzxOf7BgXE3dbftd7NFXHatPyD9Z2m") == true)
        #expect(model["continueActions"]?.arrayValue?.count == 1)
        #expect(action.form == nil && action.selector == nil && action.clientOperation == nil)

    case "messagesWithTextAndImageLinks.json":
        // registration-step; form kind device-register; select field devicetype; link rel activation with a data:image/png QR code
        let step = try #require(try step() as? InteractiveFormStep)
        #expect(step.type == .registrationStep)
        #expect(step.messages.map(\.classList) == [["info", "heading"], ["info"], ["info", "activationCode"]])
        #expect(step.messages.first { $0.hasClass("activationCode") }?.text == "459120")
        let action = try #require(step.actions.first)
        #expect(action.kind == .deviceRegister)
        let form = try #require(action.form)
        #expect(form.actionTitle == "Pair device")
        #expect(form.field("activationCode")?.type == .hidden)
        #expect(form.field("activationCode")?.value == "459120")
        let deviceType = try #require(form.field("devicetype") as? SelectFormField)
        #expect(deviceType.type == .select)
        #expect(deviceType.label == "Device Type")
        #expect(deviceType.options.map(\.value) == ["phone", "tablet", "other"])
        #expect(deviceType.options.map(\.label) == ["Phone", "Tablet", "Other"])
        #expect(deviceType.options.allSatisfy { !$0.selected })
        let qr = try #require(step.link(rel: "activation"))
        #expect(qr.href.hasPrefix("data:image/png;base64,"))
        #expect(qr.isImage)
        let png = try #require(qr.imageData)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    case "oauthAuthorizationResponse.json":
        // code; state=foo; link rel authorization-response
        let step = try #require(try step() as? OAuthAuthorizationResponseStep)
        #expect(step.oauthAuthorizationResponseProperties.code == "OZxymZHVjkEhf9fajYz0jNPOaJaQpXTg")
        #expect(step.oauthAuthorizationResponseProperties.state == "foo")
        #expect(
            step.authorizationResponseLink?.href
                == "https://localhost:7777/client-callback?code=OZxymZHVjkEhf9fajYz0jNPOaJaQpXTg&state=foo")
        #expect(step.actions.isEmpty)

    case "oauthAuthorizationResponseRepresentation.json":
        // code; no state
        let step = try #require(try step() as? OAuthAuthorizationResponseStep)
        #expect(step.oauthAuthorizationResponseProperties.code == "fDsT5NDxwx80tx5zUTEL0HxCu6UUT5yB")
        #expect(step.oauthAuthorizationResponseProperties.state == nil)
        #expect(step.oauthAuthorizationResponseProperties.iss == nil)
        #expect(step.authorizationResponseLink?.href == "https://localhost:7777?code=fDsT5NDxwx80tx5zUTEL0HxCu6UUT5yB")

    case "pollingStep.json":
        // status=pending; poll action GET; cancel action present
        let step = try #require(try step() as? PollingStep)
        #expect(step.pollingProperties.status == .pending)
        #expect(step.pollingProperties.recipientOfCommunication == nil)
        #expect(step.pollingProperties.interval == nil)
        let poll = step.mainAction
        #expect(poll.kind == .poll)
        #expect(poll.form?.method == "GET")
        #expect(poll.form?.href == "https://d3dd92f30197.ngrok.io/dev/authn/authenticate/duo1/device-poller")
        let cancel = try #require(step.cancelAction)
        #expect(cancel.title == "Cancel")
        #expect(cancel.form?.href == "https://d3dd92f30197.ngrok.io/dev/authn/authenticate/duo1")

    case "pollingStepDone.json":
        // status=done; main action kind redirect, POST, hidden field moveOn=true
        let step = try #require(try step() as? PollingStep)
        #expect(step.pollingProperties.status == .done)
        let main = step.mainAction
        #expect(main.kind == .redirect)
        let form = try #require(main.form)
        #expect(form.method == "POST")
        #expect(form.fields.count == 1)
        #expect(form.field("moveOn")?.type == .hidden)
        #expect(form.field("moveOn")?.value == "true")
        #expect(form.parameters(with: ["moveOn": "false"]).map { "\($0.0)=\($0.1)" } == ["moveOn=true"])
        #expect(step.cancelAction == nil)

    case "redirect.json", "redirectionStepRepresentation.json":
        // one redirect form, GET
        let step = try #require(try step() as? RedirectionStep)
        #expect(step.actions.count == 1)
        #expect(step.redirectAction.kind == .redirect)
        #expect(step.form.method == "GET")
        #expect(step.form.fields.isEmpty)
        #expect(step.form.href.contains("/dev/authn/authenticate?serviceProviderId=oauth-dev&client_id=haapi-"))
        #expect(step.metadata?.viewName == "/templates/redirect")

    case "selectAuthentication.json":
        // options=40, each kind select-authenticator with properties.authenticatorType
        let step = try #require(try step() as? AuthenticatorSelectorStep)
        #expect(step.authenticators.count == 40)
        #expect(step.authenticators.allSatisfy { $0.action.kind == .selectAuthenticator })
        #expect(step.authenticators.allSatisfy { $0.type?.isEmpty == false })
        #expect(step.authenticators.allSatisfy { $0.action.properties?.authenticatorType == $0.type })
        #expect(step.authenticators.first?.type == "google")
        #expect(step.authenticators.contains { $0.type == "html-form" })

    case "selectAuthenticationWithLinks.json":
        // options=2; links forgot-password, forgot-account-id, register-create
        let step = try #require(try step() as? AuthenticatorSelectorStep)
        #expect(step.authenticators.count == 2)
        #expect(step.links.map(\.rel) == expectedLinks.map(\.rel))
        #expect(step.links.map(\.href) == expectedLinks.map(\.href))
        #expect(step.link(rel: "register-create")?.title == "Create account")
        #expect(step.links.allSatisfy { !$0.isImage })

    case "usernamePassword.json":
        // fields userName (username), password (password); links=3; metadata.templateArea=html1
        let step = try #require(try step() as? InteractiveFormStep)
        let form = try #require(step.actions.first?.form)
        #expect(step.actions.first?.title == "Login")
        #expect(form.fields.map(\.name) == ["userName", "password"])
        #expect(form.fields.map(\.type) == [FormFieldType.username, .password])
        #expect(form.fields.map(\.label) == ["Username", "Password"])
        #expect(form.fields.allSatisfy { $0.isRequired && $0.isUserInput && $0.value == nil })
        #expect(form.type == "application/x-www-form-urlencoded")
        #expect(step.links.count == 3)
        #expect(step.links.map(\.rel) == expectedLinks.map(\.rel))
        #expect(step.metadata?.templateArea == "html1")
        #expect(step.metadata?.viewName == "authenticator/html-form/authenticate/get")

    case "usernamePasswordFormErrors.json":
        // invalidFields=2 (password, userName), reason invalidValue; title=Form Errors
        let problem = try #require(try problem() as? InvalidInputProblem)
        #expect(problem.type == .invalidInputProblem)
        #expect(problem.title == "Form Errors")
        #expect(problem.invalidFields.count == 2)
        #expect(problem.invalidFields.map(\.name) == ["password", "userName"])
        #expect(problem.invalidFields.allSatisfy { $0.reason == "invalidValue" })
        #expect(problem.invalidField(named: "userName")?.detail == "You have to enter your username")

    default:
        Issue.record("MANIFEST.tsv lists \(file), which these tests have no facts for: add them")
    }
}

enum FactError: Error { case notA(String) }

// MARK: - Raw JSON walk

/// Walks a typed model next to the JSON it came from, expecting every node's `rawJSON` to be
/// the corresponding subtree and every list to have as many elements as the original.
struct RawWalker {
    /// How many nodes were compared.
    var compared = 0

    private mutating func same(
        _ typed: JSONValue?, _ original: JSONValue?, _ path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        compared += 1
        #expect(typed == original, "rawJSON differs from the original at \(path)", sourceLocation: sourceLocation)
    }

    /// Pairs typed elements with the original array's, expecting equal counts (absent = empty).
    private mutating func each<T>(
        _ typed: [T], _ original: JSONValue?, _ path: String, _ body: (inout RawWalker, T, JSONValue, String) -> Void
    ) {
        let elements = original?.arrayValue ?? []
        #expect(typed.count == elements.count, "\(path): \(typed.count) typed, \(elements.count) in the original")
        for (index, (element, json)) in zip(typed, elements).enumerated() {
            body(&self, element, json, "\(path)[\(index)]")
        }
    }

    mutating func step(_ step: any HaapiRepresentation, _ json: JSONValue) {
        same(step.rawJSON, json, "$")
        #expect(step.type.rawValue == json["type"]?.stringValue)
        metadata(step.metadata, json["metadata"], "metadata")
        messages(step.messages, json["messages"], "messages")
        links(step.links, json["links"], "links")
        each(step.allActions, json["actions"], "actions") { $0.action($1, $2, $3) }
        #expect(step.propertiesJSON == (json["properties"]?.objectValue ?? [:]))
    }

    mutating func problem(_ problem: any ProblemRepresentation, _ json: JSONValue) {
        same(problem.rawJSON, json, "$")
        #expect(problem.type.rawValue == json["type"]?.stringValue)
        #expect(problem.title?.literal == json["title"]?.stringValue)
        metadata(problem.metadata, json["metadata"], "metadata")
        messages(problem.messages, json["messages"], "messages")
        links(problem.links, json["links"], "links")
        if let invalid = problem as? InvalidInputProblem {
            each(invalid.invalidFields, json["invalidFields"], "invalidFields") { walker, field, json, path in
                walker.compared += 1
                #expect(field.name == json["name"]?.stringValue, "\(path)")
                #expect(field.reason == json["reason"]?.stringValue, "\(path)")
                #expect(field.detail.literal == json["detail"]?.stringValue ?? "", "\(path)")
            }
        }
    }

    mutating func metadata(_ metadata: Metadata?, _ json: JSONValue?, _ path: String) {
        guard let metadata else {
            #expect(json == nil || json == .null, "\(path) was dropped")
            return
        }
        same(metadata.rawJSON, json, path)
        #expect(metadata.viewName == json?["viewName"]?.stringValue)
        #expect(metadata.templateArea == json?["templateArea"]?.stringValue)
    }

    mutating func messages(_ messages: [UserMessage], _ json: JSONValue?, _ path: String) {
        each(messages, json, path) { walker, message, json, path in
            walker.same(message.rawJSON, json, path)
            #expect(message.text.literal == json["text"]?.stringValue, "\(path).text")
            #expect(message.classList == (json["classList"]?.arrayValue?.compactMap(\.stringValue) ?? []), "\(path).classList")
        }
    }

    mutating func links(_ links: [Link], _ json: JSONValue?, _ path: String) {
        each(links, json, path) { walker, link, json, path in
            walker.same(link.rawJSON, json, path)
            #expect(link.href == json["href"]?.stringValue, "\(path).href")
            #expect(link.rel == json["rel"]?.stringValue ?? "", "\(path).rel")
            #expect(link.title?.literal == json["title"]?.stringValue, "\(path).title")
            #expect(link.type == json["type"]?.stringValue, "\(path).type")
        }
    }

    mutating func action(_ action: any Action, _ json: JSONValue, _ path: String) {
        same(action.rawJSON, json, path)
        #expect(action.template.rawValue == json["template"]?.stringValue, "\(path).template")
        #expect(action.kind.rawValue == json["kind"]?.stringValue, "\(path).kind")
        #expect(action.title?.literal == json["title"]?.stringValue, "\(path).title")
        #expect(action.rawJSON["properties"] == json["properties"], "\(path).properties")
        let model = json["model"]
        let modelPath = "\(path).model"
        switch action {
        case let action as FormAction:
            let form = action.model
            #expect(action.template == .form, "\(path): a form model for template \(action.template)")
            same(form.rawJSON, model, modelPath)
            #expect(form.href == model?["href"]?.stringValue, "\(modelPath).href")
            #expect(form.method == (model?["method"]?.stringValue ?? "GET").uppercased(), "\(modelPath).method")
            #expect(form.type == model?["type"]?.stringValue ?? "application/x-www-form-urlencoded", "\(modelPath).type")
            #expect(form.actionTitle?.literal == model?["actionTitle"]?.stringValue, "\(modelPath).actionTitle")
            each(form.fields, model?["fields"], "\(modelPath).fields") { $0.field($1, $2, $3) }
            each(form.continueActions, model?["continueActions"], "\(modelPath).continueActions") { $0.action($1, $2, $3) }
            each(form.errorActions, model?["errorActions"], "\(modelPath).errorActions") { $0.action($1, $2, $3) }
        case let action as SelectorAction:
            let selector = action.model
            #expect(action.template == .selector, "\(path): a selector model for template \(action.template)")
            same(selector.rawJSON, model, modelPath)
            each(selector.options, model?["options"], "\(modelPath).options") { $0.action($1, $2, $3) }
        case let action as ClientOperationAction:
            let operation = action.model
            #expect(action.template == .clientOperation, "\(path): a client-operation model for template \(action.template)")
            same(operation.rawJSON, model, modelPath)
            #expect(operation.name.rawValue == model?["name"]?.stringValue, "\(modelPath).name")
            #expect(operation.argumentsJSON == (model?["arguments"]?.objectValue ?? [:]), "\(modelPath).arguments")
            #expect(operation.arguments.count == operation.argumentsJSON.count, "\(modelPath).arguments")
            each(operation.continueActions, model?["continueActions"], "\(modelPath).continueActions") { $0.action($1, $2, $3) }
            each(operation.errorActions, model?["errorActions"], "\(modelPath).errorActions") { $0.action($1, $2, $3) }
        default:
            #expect(action is GenericAction)
            #expect(![ActionTemplate.form, .selector, .clientOperation].contains(action.template))
            same(action.rawJSON["model"], model, modelPath)
        }
    }

    mutating func field(_ field: any FormField, _ json: JSONValue, _ path: String) {
        same(field.rawJSON, json, path)
        #expect(field.name == json["name"]?.stringValue, "\(path).name")
        #expect(field.type.rawValue == json["type"]?.stringValue ?? "text", "\(path).type")
        #expect(field.label?.literal == json["label"]?.stringValue, "\(path).label")
        #expect(field.placeholder?.literal == json["placeholder"]?.stringValue, "\(path).placeholder")
        #expect(field.value == json["value"]?.stringValue ?? (field is HiddenFormField ? "" : nil), "\(path).value")
        each((field as? SelectFormField)?.options ?? [], json["options"], "\(path).options") { walker, option, json, path in
            walker.same(option.rawJSON, json, path)
            #expect(option.value == json["value"]?.stringValue, "\(path).value")
        }
    }
}
