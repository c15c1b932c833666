// Seed 000 (the HAAPI UIKit framework), "Getting started" as a SwiftUI app, and the flow
// presented from SwiftUI navigation ("Starting the Haapi Authentication flow"). Each snippet as
// printed, `import IdsvrHaapiUIKit` replaced by `import HaapiUI`; what else changed is said above
// it and in docs/PORTING.md. Type-checked for iOS by Scripts/check-apple.sh.
import HaapiUI
import SwiftUI
import UIKit

// MARK: 000-3 SwiftUI application: the AppDelegate
// Unchanged.

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

// MARK: 000-4 Hook the AppDelegate with the struct App
// Unchanged.

@main
struct SwiftUIApp: App {
@UIApplicationDelegateAdaptor(AppDelegate.self) var appDelegate
var body: some Scene {
WindowGroup {
ContentView(haapiApplication: appDelegate.haapiUIKitApplication)
}
}
// ...
}

// MARK: 000-5 ContentView: View, HaapiFlowResult
// Changed: `IdsvrHaapiUIKit.OAuthTokenModel` is `HaapiUI.OAuthTokenModel`.

struct ContentView: View, HaapiFlowResult {
let haapiApplication: HaapiUIKitApplication
@State private var showingHaapiVC = false
var body: some View {
VStack {
Button {
showingHaapiVC = true
} label: {
Text("Start Haapi flow")
}
}
.sheet(isPresented: $showingHaapiVC) {
HaapiFlow.start(self,
haapiUIKitApplication: haapiApplication,
haapiDeepLinkManageable: HaapiDeepLinkManager.shared)
}
// ...
}
func didReceiveOAuthTokenModel(_ oAuthTokenModel: HaapiUI.OAuthTokenModel) { /* ... */ }
func didReceiveError(_ error: Error) { /* ... */ }
}

/// The seed's second way in: the flow pushed on SwiftUI navigation, before and from iOS 16.
/// A view that is the `HaapiFlowResult` the snippets pass as `self`.
struct StackedFlowView: View, HaapiFlowResult {
    let haapiApplication: HaapiUIKitApplication
    @State private var isShowingStackVC = false

    var body: some View {
        TabView {
            navigationView.tabItem { Text("NavigationView") }
            // An app for iOS 15 shows the stack from iOS 16 only.
            if #available(iOS 16, *) { navigationStack.tabItem { Text("NavigationStack") } }
        }
    }

    // MARK: 000-16 NavigationView with a NavigationLink whose isActive starts the flow
    // Unchanged (NavigationView and NavigationLink(destination:isActive:) are deprecated from iOS 16).

    private var navigationView: some View {
NavigationView {
NavigationLink(destination: HaapiFlow.start(self,
haapiUIKitApplication: haapiApplication,
haapiDeepLinkManageable: HaapiDeepLinkManager.shared),
isActive: $isShowingStackVC) { EmptyView() }
Button("Start Haapi Stack") {
self.isShowingStackVC = true
}
}.navigationViewStyle(.stack)
    }

    // MARK: 000-17 NavigationStack with navigationDestination (iOS 16 and later)
    // Unchanged: `path`, the seed's property line, is a property of the view; the seed's
    // `NavigationPath` enum, named but not shown, is declared below (it shadows SwiftUI's
    // `NavigationPath` struct inside this view). The view property that holds it is
    // `@available(iOS 16, *)`: the app runs from iOS 15, as the package does.

@State private var path: [NavigationPath] = []

    @available(iOS 16, *)
    private var navigationStack: some View {
NavigationStack {
NavigationLink("Start Haapi Stack", value: NavigationPath.haapiVC)
.navigationDestination(for: NavigationPath.self) { navigation in
switch navigation {
case .haapiVC:
HaapiFlow.start(self,
haapiUIKitApplication: haapiApplication,
haapiDeepLinkManageable: HaapiDeepLinkManager.shared)
}
}
}
    }

    // MARK: the app's own types, named by the seed but not shown

    /// The destinations of the navigation stack (the seed's `NavigationPath.haapiVC`).
    enum NavigationPath: Hashable {
        case haapiVC
    }

    func didReceiveOAuthModel(_ oAuthModel: OAuthModel) {}
    func didReceiveError(_ error: Error) {}
}

// MARK: the app's own types, named by the seed but not shown

/// The app's constants (the seed's `Constants.clientId`, `Constants.baseURL`, ...).
enum Constants {
    static let clientId = "haapi-ios-client"
    static let baseURL = URL(string: "https://login.example.com")!
    static let tokenEndpointURL = URL(string: "https://login.example.com/oauth/v2/oauth-token")!
    static let authorizationEndpointURL = URL(string: "https://login.example.com/oauth/v2/oauth-authorize")!
    static let appRedirectURIString = "haapi:start"
}
