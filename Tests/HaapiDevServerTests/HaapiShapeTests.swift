import Foundation
import HaapiDevServer
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import Testing

/// The captured Curity responses in `Tests/Fixtures/curity-captured`.
enum Captured {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/curity-captured")

    static func load(_ name: String) throws -> JSONValue {
        try JSONValue(parsing: Data(contentsOf: directory.appendingPathComponent(name)))
    }
}

/// Compares the key sets and nesting of two documents (values may differ).
///
/// Objects must have the same keys at each level; each element of an array must have the shape
/// of some element of the captured array. `alternatives` gives, for a path (array elements as
/// `[]`), the captured shape to compare with instead: for keys the captures lack but the
/// protocol documents (`properties.iss`, polling's `recipientOfCommunication` and `interval`,
/// a checkbox), or a part better compared with another capture. `optional` lists captured keys
/// we may leave out (BankID-only arguments, links, a form without fields).
struct ShapeComparison {
    var alternatives: [String: JSONValue] = [:]
    var optional: Set<String> = []

    func differences(_ mine: JSONValue, _ captured: JSONValue, _ path: String = "$") -> [String] {
        switch (mine, captured) {
        case (.object(let own), .object(let reference)):
            var result: [String] = []
            for key in Set(own.keys).union(reference.keys).sorted() {
                let child = path + "." + key
                switch (own[key], alternatives[child] ?? reference[key]) {
                case (let value?, let shape?): result += differences(value, shape, child)
                case (_?, nil): result.append("\(child): a key the capture does not have")
                case (nil, _?): if !optional.contains(child) { result.append("\(child): missing") }
                case (nil, nil): break
                }
            }
            return result
        case (.array(let own), .array(let reference)):
            if reference.isEmpty { return own.isEmpty ? [] : ["\(path): the capture's array is empty"] }
            if own.isEmpty { return ["\(path): empty where the capture has elements"] }
            var result: [String] = []
            for element in own {
                let candidates = reference.map { differences(element, $0, path + "[]") }
                if !candidates.contains(where: \.isEmpty) { result += candidates.min { $0.count < $1.count } ?? [] }
            }
            return result
        case (.object, _), (_, .object), (.array, _), (_, .array):
            return ["\(path): \(kind(mine)) where the capture has \(kind(captured))"]
        default:
            return kind(mine) == kind(captured) ? [] : ["\(path): \(kind(mine)) where the capture has \(kind(captured))"]
        }
    }

    private func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

@Suite("Server responses have the shape of the captured Curity responses")
struct HaapiShapeTests {
    /// Expects `mine` to have the shape of the capture `name`.
    func expectShape(
        _ mine: JSONValue, like name: String, _ comparison: ShapeComparison = ShapeComparison(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let differences = comparison.differences(mine, try Captured.load(name))
        #expect(
            differences.isEmpty, "\(name): \(differences.joined(separator: "; "))\n\(String(decoding: mine.serialized(), as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    @Test func comparisonNoticesDifferences() throws {
        let capture = try Captured.load("usernamePassword.json")
        #expect(ShapeComparison().differences(capture, capture).isEmpty)
        var changed = capture.objectValue!
        changed["extra"] = "x"
        changed["metadata"] = ["viewName": "v"]
        let differences = ShapeComparison().differences(.object(changed), capture)
        #expect(differences == ["$.extra: a key the capture does not have", "$.metadata.templateArea: missing"])
    }

    @Test func redirectionLoginProblemsAndAuthorizationResponse() async throws {
        try await RunningServer.with(DevServerConfiguration(lockoutAfterFailures: 1)) { server in
            let client = try HaapiTestClient(server, autoRedirect: false)
            let redirect = try expectStep(await client.manager.start(), RedirectionStep.self)
            try expectShape(redirect.rawJSON, like: "redirectionStepRepresentation.json")
            try expectShape(redirect.rawJSON, like: "redirect.json")

            let login = try expectStep(await client.manager.submitForm(redirect.form), InteractiveFormStep.self)
            try expectShape(login.rawJSON, like: "usernamePassword.json")
            let form = try login.form(kind: .login)

            let invalid = try expectProblem(await client.manager.submitForm(form), .invalidInputProblem)
            #expect(invalid is InvalidInputProblem)
            try expectShape(invalid.rawJSON, like: "usernamePasswordFormErrors.json")
            let incorrect = try expectProblem(
                await client.manager.submitForm(form, parameters: ["userName": "ghost", "password": "x"]), .incorrectCredentialsProblem)
            try expectShape(incorrect.rawJSON, like: "incorrectCredentialsProblem.json")
            let locked = try expectProblem(
                await client.manager.submitForm(form, parameters: ["userName": "ghost", "password": "x"]), .tooManyAttemptsProblem)
            try expectShape(locked.rawJSON, like: "incorrectCredentialsProblem.json")

            let response = try expectStep(
                await client.manager.submitForm(form, parameters: ["userName": "demo", "password": "Password1"]),
                OAuthAuthorizationResponseStep.self)
            try expectShape(
                response.rawJSON, like: "oauthAuthorizationResponse.json", ShapeComparison(alternatives: ["$.properties.iss": "issuer"]))
        }
    }

    @Test func mediaTypesAreSentBare() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server)
            let step = try await client.send("GET", HaapiRefusalTests.authorizePath())
            #expect(step.status == 200)
            #expect(step.headers["Content-Type"] == "application/vnd.auth+json")
            let sessionID = try #require(step.headers["Set-Session-Id"])
            let problem = try await client.send("POST", "/authn/authenticate/username-password", sessionID: sessionID, form: [])
            #expect(problem.status == 400)
            #expect(problem.headers["Content-Type"] == "application/problem+json")
        }
    }

    @Test func selectorOTPAndContinueSameStep() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server, clientId: "haapi-secret")
            let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
            try expectShape(selector.rawJSON, like: "authenticationStepSelectorRepresentation.json")
            let otp = try expectStep(await client.manager.submit(try selector.option("sms")), InteractiveFormStep.self)
            // The send form is shaped like BankID's forms; its continue action like them too.
            let forms = try Captured.load("bankIdSelectSameOrOtherDevice.json")["actions"]!
            try expectShape(
                otp.rawJSON, like: "bankIdSelectSameOrOtherDevice.json",
                ShapeComparison(alternatives: ["$.actions[].model.continueActions": forms]))
            let sent = try expectStep(
                await client.manager.submitForm(try otp.form(kind: .login), parameters: ["userName": "demo"]), ContinueSameStep.self)
            try expectShape(sent.rawJSON, like: "continueSameStep.json")
        }
    }

    @Test func pollingPendingDoneAndCancel() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server, clientId: "haapi-secret")
            let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
            let start = try expectStep(await client.manager.submit(try selector.option("polling")), InteractiveFormStep.self)
            try expectShape(start.rawJSON, like: "bankIdSelectSameOrOtherDevice.json")
            let pending = try expectStep(
                await client.manager.submitForm(try start.form(kind: .login), parameters: ["userName": "demo"]), PollingStep.self)
            let documented = ShapeComparison(alternatives: [
                "$.properties.recipientOfCommunication": "+46", "$.properties.interval": "2000",
            ])
            // Pending, it also says what to do (messages shaped as Curity's) and how long is left
            // (the string properties Curity's BankID polling step has).
            var pendingShape = documented
            pendingShape.alternatives["$.messages"] = try Captured.load("messagesWithTextAndImageLinks.json")["messages"]!
            pendingShape.alternatives["$.properties.maxWaitTime"] = "120"
            pendingShape.alternatives["$.properties.maxWaitRemainingTime"] = "119"
            try expectShape(pending.rawJSON, like: "pollingStep.json", pendingShape)
            try await server.answerApproval()
            let done = try expectStep(await client.manager.poll(pending), PollingStep.self)
            #expect(done.pollingProperties.status == .done)
            try expectShape(done.rawJSON, like: "pollingStepDone.json", documented)

            let cancel = try expectProblem(
                await client.manager.submit(try #require(pending.cancelAction)), .errorAuthorizationResponseProblem)
            #expect(cancel is AuthorizationProblem)
            let links = try Captured.load("oauthAuthorizationResponse.json")["links"]!
            try expectShape(
                cancel.rawJSON, like: "incorrectCredentialsProblem.json",
                ShapeComparison(alternatives: ["$.error": "e", "$.error_description": "d", "$.iss": "i", "$.links": links]))
        }
    }

    @Test func externalBrowserOperation() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server, clientId: "haapi-secret")
            let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
            let operation = try expectStep(
                await client.manager.submit(try selector.option("external-browser")), ExternalBrowserClientOperationStep.self)
            // The operation like BankID's (the one client operation captured), its continue
            // action like the legacy external-browser capture's.
            let continueActions = try Captured.load("launchExternalBrowser.json")["actions"]!.arrayValue![0]["model"]!["continueActions"]!
            try expectShape(
                operation.rawJSON, like: "bankIdSameDeviceClientOperation.json",
                ShapeComparison(
                    alternatives: ["$.actions[].model.continueActions": continueActions],
                    optional: [
                        "$.actions[].model.errorActions", "$.actions[].model.arguments.autoStartToken",
                        "$.actions[].model.arguments.redirect",
                    ]))
        }
    }

    @Test func consentRegistrationResetAndSessionProblems() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server, scopes: ["openid", "profile"])
            let login = try expectStep(await client.manager.start(), InteractiveFormStep.self)

            // The registration and reset forms' continue actions (the code, and for a reset the new
            // password) have the shape of the capture's own form actions.
            let formActions = try Captured.load("messagesWithTextAndImageLinks.json")["actions"]!
            let registration = try expectStep(
                await client.manager.followLink(try #require(login.link(rel: "register-create"))), InteractiveFormStep.self)
            try expectShape(
                registration.rawJSON, like: "messagesWithTextAndImageLinks.json",
                ShapeComparison(alternatives: ["$.actions[].model.continueActions": formActions], optional: ["$.links"]))
            let reset = try expectStep(
                await client.manager.followLink(try #require(login.link(rel: "forgot-password"))), InteractiveFormStep.self)
            try expectShape(
                reset.rawJSON, like: "messagesWithTextAndImageLinks.json",
                ShapeComparison(alternatives: ["$.actions[].model.continueActions": formActions], optional: ["$.links"]))
            let sent = try expectStep(
                await client.manager.submitForm(try reset.form(kind: .passwordReset), parameters: ["userName": "demo"]),
                ContinueSameStep.self)
            let resetCode = try await sentCode(server, client.manager)
            let again = try expectStep(
                await client.manager.submitForm(
                    try #require(sent.continueActions.first?.form), parameters: ["code": resetCode, "password": "Password2"]),
                InteractiveFormStep.self)
            let messages = try Captured.load("messagesWithTextAndImageLinks.json")["messages"]!
            try expectShape(again.rawJSON, like: "usernamePassword.json", ShapeComparison(alternatives: ["$.messages": messages]))

            let consent = try expectStep(
                await client.manager.submitForm(try again.form(kind: .login), parameters: ["userName": "demo", "password": "Password2"]),
                UserConsentStep.self)
            // No capture has a checkbox: its fields are compared with the captured fields plus the
            // protocol's checkbox (name, type, label, value, checked); a cancel form has no fields.
            var fields = try Captured.load("messagesWithTextAndImageLinks.json")["actions"]!.arrayValue![0]["model"]!["fields"]!.arrayValue!
            fields.append(["name": "n", "type": "checkbox", "label": "l", "value": "v", "checked": true])
            try expectShape(
                consent.rawJSON, like: "messagesWithTextAndImageLinks.json",
                ShapeComparison(
                    alternatives: ["$.actions[].model.fields": .array(fields)], optional: ["$.links", "$.actions[].model.fields"]))

            // Session problems: another client's session, then a finished flow.
            let sessionID = try #require(await client.manager.currentSessionID)
            let other = try HaapiTestClient(server, clientId: "haapi-secret")
            let mismatch = try await other.send("GET", "/authn/authenticate", sessionID: sessionID)
            try expectShape(try JSONValue(parsing: mismatch.body), like: "incorrectCredentialsProblem.json")
            _ = try expectStep(
                await client.manager.submitForm(try #require(consent.actions.first?.form)), OAuthAuthorizationResponseStep.self)
            let finished = try expectProblem(await client.manager.submitForm(try again.form(kind: .login)), .genericUserProblem)
            try expectShape(finished.rawJSON, like: "incorrectCredentialsProblem.json")
        }
    }

    @Test func unexpectedProblem() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server)
            let login = try expectStep(await client.manager.start(), InteractiveFormStep.self)
            try await server.state.store.delete(kind: "client", id: "haapi-attested")
            let problem = try expectProblem(await client.manager.submitForm(try login.form(kind: .login)), .unexpectedProblem)
            try expectShape(problem.rawJSON, like: "incorrectCredentialsProblem.json")
        }
    }
}
