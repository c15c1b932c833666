// Seed 000 (the HAAPI UIKit framework), "Getting started" as a UIKit app: the AppDelegate, the
// application reached from UIKit code, and the flow presented from a view controller. Each
// snippet as printed, `import IdsvrHaapiUIKit` replaced by `import HaapiUI`; what else changed is
// said above it and in docs/PORTING.md. Type-checked for iOS by Scripts/check-apple.sh.
import HaapiUI
import UIKit

// MARK: 000-1 UIKit application: the AppDelegate
// Unchanged (the Linux test of 000-1 runs it without `@main`; here it is the app's entry point).

@main
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

// MARK: 000-2 The application from UIKit code
// Unchanged.

extension UIApplication {
var haapiUIKitApplication: HaapiUIKitApplication {
get {
guard let appDelegate = delegate as? AppDelegate else { fatalError("...") }
return appDelegate.haapiUIKitApplication
}
}
}

/// The seed's "main UIViewController that is implementing HaapiFlowResult": the screen that
/// starts the flow and receives how it ended.
final class MainViewController: UIViewController, HaapiFlowResultViewController {
    private(set) var tokens: (any HaapiUI.OAuthTokenModel)?
    private(set) var lastError: Error?

    override func viewDidLoad() {
        super.viewDidLoad()
        let login = UIButton(type: .system, primaryAction: UIAction(title: "Log in") { [weak self] _ in self?.startFlow() })
        let again = UIButton(type: .system, primaryAction: UIAction(title: "Log in again") { [weak self] _ in
            guard let self else { return }
            try? startHaapiFlow(from: self, haapiApplication: UIApplication.shared.haapiUIKitApplication)
        })
        let stack = UIStackView(arrangedSubviews: [login, again])
        stack.axis = .vertical
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            stack.centerYAnchor.constraint(equalTo: view.centerYAnchor),
        ])
    }

    func startFlow() {
        // MARK: 000-2 HaapiFlow.start from the presented view controller
        // Unchanged but for a line after `// handle error…` that keeps the error; `self` is this
        // view controller, on screen.
// ... Presented UIViewController
do {
try HaapiFlow.start(from: self, // self is an UIViewController that is presented.
haapiUIKitApplication: UIApplication.shared.haapiUIKitApplication,
haapiDeepLinkManageable: HaapiDeepLinkManager.shared)
} catch {
// handle error if the HaapiFlow does not start.
lastError = error
}
// ...
    }

    func didReceiveOAuthTokenModel(_ oAuthTokenModel: any HaapiUI.OAuthTokenModel) { tokens = oAuthTokenModel }
    func didReceiveError(_ error: Error) { lastError = error }
}

// MARK: 000-15 Starting the Haapi Authentication flow
// Changed: `try` added (`HaapiFlow.start(from:…)` throws, as 000-2 shows); in a function whose
// parameters are the snippet's free names, `parentVC` and `haapiApplication`.

@MainActor func startHaapiFlow(from parentVC: any HaapiFlowResultViewController, haapiApplication: HaapiUIKitApplication) throws {
try HaapiFlow.start(from: parentVC,
haapiUIKitApplication: haapiApplication,
haapiDeepLinkManageable: HaapiDeepLinkManager.shared)
}

// MARK: the app's own types, named by the seed but not shown

/// Puts the main view controller on screen (the seed's `// ...` in the AppDelegate leaves the
/// window to the app).
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let windowScene = scene as? UIWindowScene else { return }
        let window = UIWindow(windowScene: windowScene)
        window.rootViewController = UINavigationController(rootViewController: MainViewController())
        window.makeKeyAndVisible()
        self.window = window
    }
}

/// The app's constants (the seed's `Constants.clientId`, `Constants.baseURL`, ...).
enum Constants {
    static let clientId = "haapi-ios-client"
    static let baseURL = URL(string: "https://login.example.com")!
    static let tokenEndpointURL = URL(string: "https://login.example.com/oauth/v2/oauth-token")!
    static let authorizationEndpointURL = URL(string: "https://login.example.com/oauth/v2/oauth-authorize")!
    static let appRedirectURIString = "haapi:start"
}
