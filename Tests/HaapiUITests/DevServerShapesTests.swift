import DevServerTestSupport
import Foundation
import HaapiDevServer
import HaapiSDK
import HaapiUI
import OAuthCore
import Testing

/// The Curity shapes the development server serves (Duo's nested selector, BankID on this
/// device and another, the legacy launch step, authentication-failed), walked by the view model.
@Suite("HaapiFlowViewModel through the development server's Curity shapes")
@MainActor struct DevServerShapesTests {
    static func harness(_ server: RunningServer) async throws -> FlowHarness {
        try await FlowHarness.make(server, client: .secret, bound: false, stripsPollingInterval: true) { $0.setAutoPollingDuration(duration: 0.05) }
    }

    /// Picks the option titled `title` of the selector shown.
    static func pick(_ flow: FlowHarness, _ title: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard case .selector(let selector) = try flow.requireModel(sourceLocation: sourceLocation).content else {
            Issue.record("expected a selector, got \(String(describing: flow.model?.content))", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        await flow.viewModel.select(try #require(selector.options.first { $0.title == title }, sourceLocation: sourceLocation))
    }

    @Test func duoPasscode() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("duo")
            await flow.viewModel.submit(try #require(try flow.requireModel().form(kind: .login)), values: ["userName": "demo"])
            try await Self.pick(flow, "Phone (+XX XXX XXX 000)")
            try await Self.pick(flow, "Enter a passcode")
            let form = try #require(try flow.requireModel().form(kind: .login))
            #expect(form.inputFields.map(\.name) == ["passcode"])
            await flow.viewModel.submit(form, values: ["passcode": try await flow.otpCode()])
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    @Test func duoPush() async throws {
        try await RunningServer.with(DevServerConfiguration(pollsBeforeDone: 1)) { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("duo")
            await flow.viewModel.submit(try #require(try flow.requireModel().form(kind: .login)), values: ["userName": "demo"])
            try await Self.pick(flow, "Tablet")
            try await Self.pick(flow, "Send push notification")
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    /// BankID on another device: polling with the operation's QR data, which follows BankID's
    /// animated-QR format, to the end.
    @Test func bankIDOnAnotherDevice() async throws {
        try await RunningServer.with(DevServerConfiguration(pollsBeforeDone: 2)) { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("bankid")
            let other = try #require(try flow.requireModel().form(kind: ActionKind(rawValue: "bankid-other-device")))
            await flow.viewModel.submit(other, values: ["personalnumber": SeedData.personalNumber])
            let model = try await waitFor(timeout: .seconds(45)) { () -> BankIDOperationModel? in
                guard case .polling(let polling)? = flow.model?.content, case .bankID(let bankID)? = polling.clientOperation else { return nil }
                return bankID
            }
            let qr = try #require(model.qrData)
            #expect(qr.wholeMatch(of: /bankid\.[0-9a-f-]{36}\.[0-9]+\.[0-9a-f]{64}/) != nil, "\(qr)")
            #expect(model.autoStartURL?.scheme == "bankid")
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    /// BankID on this device: the operation's autostart URL; its continue action polls to the end.
    @Test func bankIDOnThisDevice() async throws {
        try await RunningServer.with(DevServerConfiguration(pollsBeforeDone: 1)) { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("bankid")
            let same = try #require(try flow.requireModel().form(kind: ActionKind(rawValue: "bankid-same-device")))
            await flow.viewModel.submit(same, values: ["personalnumber": SeedData.personalNumber])
            let model = try flow.requireModel()
            guard case .clientOperation(.bankID(let bankID)) = model.content else { Issue.record("expected BankID, got \(model.content)"); return }
            let url = try #require(bankID.autoStartURL)
            #expect(url.absoluteString.hasPrefix("bankid:///?autostarttoken=") && url.absoluteString.hasSuffix("&redirect=null"))
            #expect(bankID.actions.errorActions.map(\.kind.rawValue) == ["bankid-other-device"])
            #expect(model.cancelForm != nil)
            await flow.viewModel.submit(try #require(bankID.actions.continueActions.first))
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    /// An order nobody signs ends the attempt with authentication-failed and the server's message.
    @Test func anUnsignedBankIDOrderFailsTheAttempt() async throws {
        try await RunningServer.with(DevServerConfiguration(pollsBeforeDone: 1)) { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("bankid")
            let other = try #require(try flow.requireModel().form(kind: ActionKind(rawValue: "bankid-other-device")))
            await flow.viewModel.submit(other, values: ["personalnumber": "200001011234"])
            let error = try await waitFor(timeout: .seconds(45)) { flow.viewModel.error }
            #expect(error.problem?.type == .authenticationFailed)
            #expect(error.problem?.handling == .endAttempt)
            #expect(error.problem?.messages.first?.text == "The BankID order was not signed")
            await flow.close()
        }
    }

    /// The legacy `launch` step: an external-browser launch; the browser's return resumes it.
    @Test func legacyLaunchStep() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            guard case .selector(let selector) = try flow.requireModel().content else { Issue.record("expected a selector"); return }
            await flow.viewModel.select(try #require(selector.options.first { $0.title.contains("legacy launch") }))
            let model = try flow.requireModel()
            #expect(model.representation.actions.first?.template == .launch)
            guard case .clientOperation(.externalBrowser(let operation)) = model.content else { Issue.record("expected a launch, got \(model.content)"); return }
            await flow.viewModel.resumeExternalBrowser(url: try await FlowViewModelTests.browserReturn(operation, server: server))
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }
}
