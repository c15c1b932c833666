// Seed 002 (Porta on iOS, AppAuth-iOS), the login with acr_values and the end-session request,
// ported to OIDCClient in the view controller that presents them. AppAuth's request objects,
// user agent and `present` call become one `async throws` call each, which takes the agent that
// presents the browser sheet on this view controller's window. What changed is said above each
// snippet and in docs/PORTING.md. Type-checked for iOS by Scripts/check-apple.sh.
import AuthenticationServices
import OAuthCore
import OAuthTransportURLSession
import OIDCClient
import UIKit

/// The screen with the Sign In and Sign Out buttons.
final class PortaViewController: UIViewController {
    private let client: OIDCClient
    private(set) var isAuthenticated = false
    private(set) var lastError: Error?

    init(client: OIDCClient) {
        self.client = client
        super.init(nibName: nil, bundle: nil)
    }

    @available(*, unavailable) required init?(coder: NSCoder) { fatalError("made in code") }

    override func viewDidLoad() {
        super.viewDidLoad()
        let signIn = UIButton(type: .system, primaryAction: UIAction(title: "Sign In") { [weak self] _ in self?.startLogin() })
        let signOut = UIButton(type: .system, primaryAction: UIAction(title: "Sign Out") { [weak self] _ in self?.startLogout() })
        let stack = UIStackView(arrangedSubviews: [signIn, signOut])
        stack.axis = .vertical
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            stack.centerYAnchor.constraint(equalTo: view.centerYAnchor),
        ])
    }

    func startLogin() {
        guard let window = view.window else { return }
        Task {
            do {
                // MARK: 002-4 Authorization request with acr_values
                // Changed: `extraParams["acr_values"]` is `AuthorizationOptions.acrValues`; the scopes
                // (`config.scope`), client id and redirect URI are the client's `OIDCConfiguration`;
                // `OIDExternalUserAgentIOS(presenting: viewController)` is `WebAuthenticationSessionUserAgent`
                // on this controller's window; `OIDAuthorizationService.present` and the code exchange
                // (002-5) are `client.login(using:options:)`, which is given the agent (the seed builds
                // `agent` and never passes it) and suspends until the redirect: no `userAgentSession` to keep.
                let options = AuthorizationOptions(acrValues: ["urn:se:porta:authentication:html-form:Username-Password"])
                let agent = WebAuthenticationSessionUserAgent(anchor: { window })
                try await client.login(using: agent, options: options)
                handleAuthorizationResponse(nil)
            } catch {
                handleAuthorizationResponse(error)
            }
        }
    }

    func startLogout() {
        guard let window = view.window else { return }
        Task {
            do {
                // MARK: 002-8 End-session request
                // Changed: `OIDEndSessionRequest` is built by `client.endSession(using:)`: the ID token
                // hint from the stored session, `post_logout_redirect_uri` from the configuration,
                // `client_id` and a `state` it checks; `OIDExternalUserAgentIOS(presenting:)` is
                // `WebAuthenticationSessionUserAgent` on this controller's window; no `userAgentSession`.
                let agent = WebAuthenticationSessionUserAgent(anchor: { window })
                try await client.endSession(using: agent)
                handleEndSessionResponse(nil)
            } catch {
                handleEndSessionResponse(error)
            }
        }
    }

    // MARK: the app's own types, named by the seed but not shown

    /// The seed's `handleAuthorizationResponse`: the authenticated view, or the unauthenticated
    /// one with the error (a closed sheet is `OIDCError` `.cancelled`: the user may retry).
    private func handleAuthorizationResponse(_ error: Error?) {
        isAuthenticated = error == nil
        lastError = (error as? OIDCError)?.code == .cancelled ? nil : error
    }

    /// The seed's `handleEndSessionResponse`: the tokens are gone whatever the browser did.
    private func handleEndSessionResponse(_ error: Error?) {
        isAuthenticated = false
        lastError = (error as? OIDCError)?.code == .cancelled ? nil : error
    }
}

// MARK: the app's own types, named by the seed but not shown

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        do {
            window.rootViewController = PortaViewController(client: try PortaConfiguration.makeClient())
        } catch {
            fatalError("the HTTP transport cannot be made: \(error)")
        }
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}

/// The app's configuration, `./ios/config.json` (002-1), as an `OIDCConfiguration`.
enum PortaConfiguration {
    static let oidc = OIDCConfiguration(
        issuer: URL(string: "https://baa467f55bc7.eu.ngrok.io/oauth/v2/login.porta.com")!,
        clientAuthentication: .none(clientID: "mobile-client"),
        redirectURI: URL(string: "io.porta.client:/callback")!,
        postLogoutRedirectURI: URL(string: "io.porta.client:/logoutcallback")!,
        scopes: "openid profile".components(separatedBy: " "))

    static func makeClient() throws -> OIDCClient {
        OIDCClient(configuration: oidc, transport: try URLSessionTransport(), storage: KeychainStorage(service: "io.porta.client"))
    }
}
