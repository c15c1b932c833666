import Foundation
import HaapiUI
import Testing

// Seed 000, "HaapiFlowViewModel" and "OAuthLifecycle": the view model observed through its
// `@Published` state, and the refresh after the flow.

// MARK: 000-14 HaapiFlowViewModel as a standalone driver of a custom UI
// Changed: inside a screen type (the snippet is the body of an app's screen); the `...` of the
// configuration filled with the app's constants; each `// handle ...` comment followed by a
// line that keeps what arrived; the `)` missing before the last `.store(in:)` added.

@MainActor final class CustomFlowScreen {
    var cancellables = Set<AnyCancellable>()
    var loadingStates: [Bool] = []
    var uiModels: [UIModel?] = []
    var errors: [HaapiFlowError?] = []
    var oAuthModels: [OAuthModel?] = []
    var haapiFlowViewModel: HaapiFlowViewModel!

    func open() {
var haapiUIKitConfiguration = HaapiUIKitConfigurationBuilder(clientId: Constants.clientId, baseUrl: Constants.baseURL, tokenEndpointUrl: Constants.tokenEndpointURL, authorizationEndpointUrl: Constants.authorizationEndpointURL, appRedirect: Constants.appRedirectURIString).build()
// ...
var haapiUIKitApplication = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: haapiUIKitConfiguration).build()
// ...
let haapiFlowViewModel = HaapiFlowViewModel(haapiUIKitApplication: haapiUIKitApplication)
haapiFlowViewModel.$isLoading
.receive(on: DispatchQueue.main)
.sink(receiveValue: { isLoading in
// handle isLoading
self.loadingStates.append(isLoading)
})
.store(in: &cancellables)
haapiFlowViewModel.$uiModel
.receive(on: DispatchQueue.main)
.sink(receiveValue: { result in
// handle uiModel change
self.uiModels.append(result)
})
.store(in: &cancellables)
haapiFlowViewModel.$error
.receive(on: DispatchQueue.main)
.sink(receiveValue: { error in
// handle error
self.errors.append(error)
})
.store(in: &cancellables)
haapiFlowViewModel.$oAuthModel
.receive(on: DispatchQueue.main)
.sink(receiveValue: { oAuthModel in
// handle OAuthModel
self.oAuthModels.append(oAuthModel)
})
.store(in: &cancellables)
        self.haapiFlowViewModel = haapiFlowViewModel
    }
}

// MARK: 000-18 OAuthLifecycle: refreshing the flow's tokens
// Changed: inside the type that is the listener (`self`); `oauthModel` and the application are its.

@MainActor final class RefreshingScreen: OAuthLifecycleResultListener {
    let haapiUIKitApplication: HaapiUIKitApplication
    let oauthModel: OAuthModel
    var refreshed: [OAuthModel] = []
    var errors: [Error] = []

    init(haapiUIKitApplication: HaapiUIKitApplication, oauthModel: OAuthModel) {
        self.haapiUIKitApplication = haapiUIKitApplication
        self.oauthModel = oauthModel
    }

    func refresh() {
// if OAuthTokenModel's refreshToken is nil or empty, we cannot execute the refresh token request.
if let refreshToken = (oauthModel as? OAuthTokenModel)?.refreshToken, !refreshToken.isEmpty {
OAuthLifecycle.refreshToken(refreshToken: refreshToken,
haapiUIKitApplication: haapiUIKitApplication,
lifecycleResultListener: self)// self is an instance of OAuthLifecycleResultListener
}
    }

    func didReceiveOAuthModel(_ oAuthModel: OAuthModel) { refreshed.append(oAuthModel) }
    func didReceiveError(_ error: Error) { errors.append(error) }
}

extension SeedSnippets {
    @Suite("Seed 000: the view model and the token lifecycle")
    @MainActor struct ViewModel {
        @Test("000-14: the @Published state, received on the main queue, tells the whole flow")
        func publishedState() async throws {
            try await SnippetServer.with { server in
                let screen = CustomFlowScreen()
                try await withDevelopmentAttestation {
                    screen.open()
                    await screen.haapiFlowViewModel.start()
                    try await logInDemoUser(screen.haapiFlowViewModel)
                    let tokens = try await waitFor { screen.oAuthModels.last.flatMap { $0 as? OAuthTokenModel } }
                    #expect(try await server.claims(of: tokens.accessToken)?.subject == "demo")
                }
                // Each publisher gave its current value first, then every change, in order.
                #expect(screen.loadingStates.first == false && screen.loadingStates.last == false)
                #expect(screen.loadingStates.filter { $0 }.count == 2)  // the start, the login
                #expect(screen.uiModels.compactMap { $0 }.contains { $0.button(kind: .login) != nil })
                #expect(screen.errors.allSatisfy { $0 == nil })
                #expect(screen.oAuthModels.first.map { $0 == nil } == true)
                await screen.haapiFlowViewModel.haapiUIKitApplication.close()
            }
        }

        @Test("000-18: OAuthLifecycle refreshes with the application and tells its listener")
        func refreshToken() async throws {
            try await SnippetServer.with { server in
                let application = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: HaapiUIKitConfigurationBuilder(
                    clientId: Constants.clientId, baseUrl: Constants.baseURL, tokenEndpointUrl: Constants.tokenEndpointURL,
                    authorizationEndpointUrl: Constants.authorizationEndpointURL, appRedirect: Constants.appRedirectURIString).build()).build()
                try await withDevelopmentAttestation {
                    let viewModel = HaapiFlowViewModel(haapiUIKitApplication: application)
                    await viewModel.start()
                    try await logInDemoUser(viewModel)
                    let tokens = try await waitFor { viewModel.oAuthModel as? OAuthTokenModel }
                    let screen = RefreshingScreen(haapiUIKitApplication: application, oauthModel: tokens)
                    screen.refresh()
                    let refreshed = try await waitFor { screen.refreshed.first as? OAuthTokenModel }
                    #expect(refreshed.accessToken != tokens.accessToken)
                    #expect(try await server.claims(of: refreshed.accessToken)?.subject == "demo")
                    #expect(screen.errors.isEmpty)
                }
                await application.close()
            }
        }
    }
}
