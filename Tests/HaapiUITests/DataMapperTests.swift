import Foundation
import HaapiDevServer
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
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

    /// The company's selector: the kit's, with its own heading and fewer options.
    struct CompanySelector: SelectorModel {
        let title: String?
        let messageItems: [any InfoMessageModel]
        let selectorItems: [any SelectorItemModel]
        let linkItems: [any LinkItemModel]
        var templateArea: String? { nil }
        var viewName: String? { nil }
    }

    @Test func aCustomizedStepKindIsMappedTheAppsWayAndTheOthersTheKits() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret) { _ in
            } application: { builder in
                let mapper = DataMapperBuilder(
                    redirectTo: FlowHarness.appRedirect, autoPollingDuration: 3, authSelectionPresentation: .list, baseURL: server.issuer
                ).customize(modelType: AuthenticatorSelectorStep.self) { response in
                    // The company offers only passwords: the selector keeps that one option.
                    let stock = KitDataMapper(appRedirect: FlowHarness.appRedirect, baseURL: server.issuer)
                    let model = try stock.mapHaapiResultToUIModel(
                        haapiResult: .representation(try #require(response as? AuthenticatorSelectorStep)))
                    guard let selector = model as? KitSelectorModel,
                        let password = selector.option(authenticatorType: "username-password")
                            ?? selector.options.first(where: { $0.title.lowercased().contains("password") })
                    else { return model }
                    return CompanySelector(
                        title: selector.title,
                        messageItems: [KitInfoMessage(text: "Log in with your company password", messageStyleAttribute: .heading)],
                        selectorItems: [password], linkItems: [])
                }.build()
                builder.setDataMapper(mapper).setOAuthDataMapper(
                    OAuthDataMapperBuilder().customize(modelType: SuccessfulTokenResponse.self) { response in
                        guard let tokens = response as? SuccessfulTokenResponse else { throw Refused() }
                        return CompanySession(accessToken: tokens.accessToken)
                    }.build())
            }
            await flow.viewModel.start()
            let selector = try await waitFor { flow.viewModel.uiModel }
            let shown = try #require(selector as? CompanySelector, "not the company's selector: \(selector)")
            #expect(shown.messageItems.first?.text == "Log in with your company password")
            // The kit's screen draws the app's model: its heading, its one option.
            #expect(
                ScreenTests.describe(ScreenTests.english.screen(for: shown)) == [
                    "Heading: Log in with your company password", "secondary button: \(shown.selectorItems[0].title)",
                ])
            await flow.viewModel.select(try #require(shown.selectorItems.first as? any SelectorItemInteractionActionModel))
            // The login form is the kit's.
            let form = try await waitFor { flow.viewModel.uiModel?.button(kind: .login) }
            #expect(form.fields.map(\.key).contains("password"))
            try await flow.login()
            let outcome = try await flow.outcome()
            let session = try #require(outcome as? CompanySession, "the app's OAuth model: \(outcome)")
            #expect(!session.accessToken.isEmpty)
            await flow.close()
        }
    }

    @Test func aMapperThatThrowsEndsTheStepWithItsError() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret) { _ in
            } application: { builder in
                builder.setDataMapper(
                    DataMapperBuilder(base: KitDataMapper(appRedirect: FlowHarness.appRedirect, baseURL: server.issuer))
                        .customize(modelType: AuthenticatorSelectorStep.self) { _ in throw Refused() }.build())
            }
            await flow.viewModel.start()
            let error = try await waitFor { flow.viewModel.error }
            #expect(error.underlyingError is HaapiUIKitError, "\(String(describing: error.underlyingError))")
            #expect(flow.viewModel.uiModel.map { _ in true } == nil)
            await flow.close()
        }
    }
}
