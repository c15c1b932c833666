import DevServerTestSupport
import Foundation
import HaapiDevServer
import HaapiSDK
import HaapiUI
import Testing

/// An app maps one kind of step, or the token endpoint's answer, its own way; every other step
/// keeps the kit's mapping. Real flows against the development server.
@Suite("Data mappers")
@MainActor struct DataMapperTests {
    /// The app's model of the end of a flow.
    struct CompanySession: OAuthModel {
        let accessToken: String
    }

    struct Refused: Error {}

    @Test func aCustomizedStepKindIsMappedTheAppsWayAndTheOthersTheKits() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret) { _ in } application: { builder in
                let mapper = DataMapperBuilder(
                    redirectTo: FlowHarness.appRedirect, autoPollingDuration: 3, authSelectionPresentation: .list, baseURL: server.issuer
                ).customize(modelType: AuthenticatorSelectorStep.self) { step, model in
                    // The company offers only passwords: the selector keeps that one option.
                    guard case .selector(let selector) = model.content,
                        let password = selector.option(authenticatorType: "username-password") ?? selector.options.first(where: { $0.title.lowercased().contains("password") })
                    else { return model }
                    return UIModel(
                        representation: step, content: .selector(SelectorModel(selector.action, presentation: .list, options: [password])),
                        messages: [MessageModel(text: "Log in with your company password", classList: ["heading"])], links: [], forms: model.forms,
                        selectors: model.selectors, problem: model.problem)
                }.build()
                builder.setDataMapper(mapper).setOAuthDataMapper(OAuthDataMapperBuilder().customize(modelType: SuccessfulTokenResponse.self) {
                    CompanySession(accessToken: $0.accessToken)
                }.build())
            }
            await flow.viewModel.start()
            let selector = try await waitFor { flow.viewModel.uiModel }
            #expect(selector.heading == "Log in with your company password")
            guard case .selector(let shown) = selector.content else { Issue.record("not a selector: \(selector.content)"); return }
            #expect(shown.options.count == 1)
            await flow.viewModel.select(try #require(shown.options.first))
            // The login form is the kit's.
            let form = try await waitFor { flow.viewModel.uiModel?.form(kind: .login) }
            #expect(form.inputFields.map(\.name).contains("password"))
            try await flow.login()
            let outcome = try await flow.outcome()
            let session = try #require(outcome as? CompanySession, "the app's OAuth model: \(outcome)")
            #expect(!session.accessToken.isEmpty)
            await flow.close()
        }
    }

    @Test func aMapperThatThrowsEndsTheStepWithItsError() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret) { _ in } application: { builder in
                builder.setDataMapper(DataMapperBuilder(base: UIModelFactory(appRedirect: FlowHarness.appRedirect, baseURL: server.issuer))
                    .customize(modelType: AuthenticatorSelectorStep.self) { _, _ in throw Refused() }.build())
            }
            await flow.viewModel.start()
            let error = try await waitFor { flow.viewModel.error }
            #expect(error.underlyingError is HaapiUIKitError, "\(String(describing: error.underlyingError))")
            #expect(flow.viewModel.uiModel == nil)
            await flow.close()
        }
    }
}
