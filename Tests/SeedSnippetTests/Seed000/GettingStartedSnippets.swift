import Foundation
import HaapiUI
import Testing

// Seed 000 (the HAAPI UIKit framework), "Getting started" and "DCR configuration": each
// snippet as printed, `import IdsvrHaapiUIKit` replaced by `import HaapiUI`. What else changed
// is said above the snippet and in docs/PORTING.md.

// MARK: 000-1 UIKit application: the AppDelegate
// Changed: `@main` removed (a test bundle has its own entry point).

class AppDelegate: UIResponder, UIApplicationDelegate {
var haapiUIKitConfiguration = HaapiUIKitConfigurationBuilder(clientId: Constants.clientId,
baseUrl: Constants.baseURL,
tokenEndpointUrl: Constants.tokenEndpointURL,
authorizationEndpointUrl: Constants.authorizationEndpointURL,
appRedirect: Constants.appRedirectURIString)
.build()
var haapiUIKitApplication: HaapiUIKitApplication!
func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
// Override point for customization after application launch.
haapiUIKitApplication = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: haapiUIKitConfiguration).build()
return true
}
// ...
}

// MARK: 000-2 The application from UIKit code, and HaapiFlow.start
// Unchanged. The part after `// ... Presented UIViewController` presents UIKit screens: it is
// type-checked for iOS with the whole snippet (Tests/AppleSnippets/Seed000UIKitApp.swift), not here.

extension UIApplication {
var haapiUIKitApplication: HaapiUIKitApplication {
get {
guard let appDelegate = delegate as? AppDelegate else { fatalError("...") }
return appDelegate.haapiUIKitApplication
}
}
}

// MARK: 000-3 SwiftUI application: the AppDelegate
// Changed: inside a namespace (its name is the UIKit one's).

enum SwiftUISnippet {
class AppDelegate: NSObject, UIApplicationDelegate {
var haapiUIKitConfiguration = HaapiUIKitConfigurationBuilder(clientId: Constants.clientId,
baseUrl: Constants.baseURL,
tokenEndpointUrl: Constants.tokenEndpointURL,
authorizationEndpointUrl: Constants.authorizationEndpointURL,
appRedirect: Constants.appRedirectURIString)
.build()
var haapiUIKitApplication: HaapiUIKitApplication!
func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
// Override point for customization after application launch.
haapiUIKitApplication = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: haapiUIKitConfiguration).build()
return true
}
}
}

// MARK: 000-5 ContentView: View, HaapiFlowResult (its HaapiFlowResult part)
// Changed: `View` and `body` left out (SwiftUI); `IdsvrHaapiUIKit.OAuthTokenModel` is
// `HaapiUI.OAuthTokenModel`. The whole view is type-checked for iOS in
// Tests/AppleSnippets/Seed000SwiftUIApp.swift.

@MainActor final class ContentViewResult: HaapiFlowResult {
var received: [HaapiUI.OAuthTokenModel] = []
var errors: [Error] = []
func didReceiveOAuthTokenModel(_ oAuthTokenModel: HaapiUI.OAuthTokenModel) { /* ... */ received.append(oAuthTokenModel) }
func didReceiveError(_ error: Error) { /* ... */ errors.append(error) }
}

// MARK: 000-6 DCR configuration in the AppDelegate
// Changed: inside a namespace; the snippet's free names (`clientId`, `baseURL`, ...) are the
// test's constants below.

private var clientId: String { Constants.clientId }
private var baseURL: URL { Constants.baseURL }
private var tokenEndpointURL: URL { Constants.tokenEndpointURL }
private var authorizationEndpointURL: URL { Constants.authorizationEndpointURL }
private var appRedirectURIString: String { Constants.appRedirectURIString }

enum DCRSnippet {
class AppDelegate: UIResponder, UIApplicationDelegate {
var haapiUIKitConfiguration = HaapiUIKitConfigurationBuilder(clientId: clientId,
baseUrl: baseURL,
tokenEndpointUrl: tokenEndpointURL,
authorizationEndpointUrl: authorizationEndpointURL,
appRedirect: appRedirectURIString)
.setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret("foo"))
.setDCRConfiguration(configuration: DCRConfiguration(templateClientId: "dcr-client-template-id",
clientRegistrationEndpointUrl: URL(string: "/oauth/oauth-registration",
relativeTo: baseURL)))
.build()
var haapiUIKitApplication: HaapiUIKitApplication!
func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
// Override point for customization after application launch.
haapiUIKitApplication = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: haapiUIKitConfiguration).build()
return true
}
// ...
}
}

extension SeedSnippets {
    @Suite("Seed 000: getting started")
    @MainActor struct GettingStarted {
        @Test("000-1: the AppDelegate makes the application, and a flow with it ends with tokens")
        func uiKitAppDelegate() async throws {
            try await SnippetServer.with { server in
                let appDelegate = AppDelegate()
                #expect(appDelegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil))
                let application = try #require(appDelegate.haapiUIKitApplication)
                #expect(application.haapiUIKitConfiguration.haapiConfiguration.clientId == Constants.clientId)
                // "To not bind the token, don't set any configuration as it is the default behaviour."
                #expect(!application.haapiUIKitConfiguration.isTokenBound)
                try await withDevelopmentAttestation {
                    let viewModel = HaapiFlowViewModel(haapiUIKitApplication: application)
                    await viewModel.start()
                    try await logInDemoUser(viewModel)
                    let tokens = try await waitFor { viewModel.oAuthModel as? KitOAuthTokenModel }
                    #expect(!tokens.isBound)
                    #expect(try await server.claims(of: tokens.accessToken)?.subject == "demo")
                }
                await application.close()
            }
        }

        @Test("000-2: UIApplication.shared.haapiUIKitApplication is the delegate's")
        func applicationFromUIKit() async throws {
            try await SnippetServer.with { _ in
                let appDelegate = AppDelegate()
                _ = appDelegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil)
                UIApplication.shared.delegate = appDelegate
                #expect(UIApplication.shared.haapiUIKitApplication === appDelegate.haapiUIKitApplication)
                UIApplication.shared.delegate = nil
            }
        }

        @Test("000-3: without attestation or DCR on this device, the flow stops saying what to configure")
        func swiftUIAppDelegateWithoutAttestation() async throws {
            try await SnippetServer.with { _ in
                let appDelegate = SwiftUISnippet.AppDelegate()
                #expect(appDelegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil))
                // Linux has no App Attest: this is the device the DCR section is for.
                let viewModel = HaapiFlowViewModel(haapiUIKitApplication: appDelegate.haapiUIKitApplication)
                await viewModel.start()
                let error = try #require(viewModel.error)
                guard case .invalidConfiguration(let reason)? = error.underlyingError as? HaapiError else {
                    Issue.record("got \(error)"); return
                }
                #expect(reason.contains("DCR"))
                #expect((error.underlyingError as? any IdsvrError)?.recoverySuggestion == .unrecoverable(action: .modifyConfiguration(reason: error.underlyingError.map { ($0 as? any IdsvrError)?.errorDescription ?? "" } ?? "")))
            }
        }

        @Test("000-5: a HaapiFlowResult that implements didReceiveOAuthTokenModel receives the tokens")
        func contentViewFlowResult() async throws {
            try await SnippetServer.with { _ in
                let appDelegate = AppDelegate()
                _ = appDelegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil)
                let result = ContentViewResult()
                try await withDevelopmentAttestation {
                    let viewModel = HaapiFlowViewModel(haapiUIKitApplication: appDelegate.haapiUIKitApplication)
                    viewModel.haapiFlowResult = result
                    await viewModel.start()
                    try await logInDemoUser(viewModel)
                    let tokens = try await waitFor { result.received.first }
                    #expect(tokens.accessToken == (viewModel.oAuthModel as? OAuthTokenModel)?.accessToken)
                }
                #expect(result.errors.isEmpty)
                await appDelegate.haapiUIKitApplication.close()
            }
        }

        @Test("000-6: the DCR fallback registers once, then every launch reuses the stored client")
        func dcrAppDelegate() async throws {
            try await SnippetServer.with { server in
                // "Create and configure a client that supports Secret ... and a DCR template client."
                Constants.clientId = "dcr-client-template-id"
                try await server.addClient("dcr-client-template-id", secret: "foo", strategy: .dcr, tokenBound: false)
                for launch in 1...2 {
                    let appDelegate = DCRSnippet.AppDelegate()
                    _ = appDelegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil)
                    let viewModel = HaapiFlowViewModel(haapiUIKitApplication: appDelegate.haapiUIKitApplication)
                    await viewModel.start()
                    try await logInDemoUser(viewModel)
                    let tokens = try await waitFor { viewModel.oAuthModel as? OAuthTokenModel }
                    let registered = try await server.registeredClients(from: "dcr-client-template-id")
                    #expect(registered.count == 1, "launch \(launch)")
                    #expect(try await server.claims(of: tokens.accessToken)?.clientId == registered.first?.clientId)
                    await appDelegate.haapiUIKitApplication.close()
                }
            }
        }
    }
}
