// The iOS quick start (docs/IOS-QUICKSTART.md), its UIKit app: the same login as
// QuickStartApp.swift (the SwiftUI app), whose header says how the page's code blocks are taken
// from these files. Type-checked for iOS by Scripts/check-apple.sh.

// MARK: quick start: LoginSettings.swift (the same in both apps)

import Foundation
import HaapiUI

/// Where the app logs in, and as which client: `haapi server` on this Mac, its `haapi-secret`
/// client. Change these values for your own server.
enum LoginSettings {
    static let serverURL = URL(string: "http://127.0.0.1:8080")!
    static let clientId = "haapi-secret"
    /// The client's secret, from `haapi server --print-config`.
    static let clientSecret = "PASTE-THE-SECRET-HERE"
    static let redirectURI = "haapi://callback"

    /// The object every login of the app goes through. Make it once.
    static func makeApplication() -> any HaapiUIKitApplication {
        let configuration = HaapiUIKitConfigurationBuilder(
            clientId: clientId,
            baseUrl: serverURL,
            tokenEndpointUrl: serverURL.appendingPathComponent("oauth/token"),
            authorizationEndpointUrl: serverURL.appendingPathComponent("oauth/authorize"),
            appRedirect: redirectURI)
            // The development server does not check App Attest: the client proves who it is
            // with its secret instead.
            .setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret(clientSecret))
            .setAttestationConfiguration(configuration: AttestationConfiguration(useAttestation: false))
            // `openid` asks for an ID token, which names the user.
            .setOauthAuthorizationParamsProvider { OAuthAuthorizationParameters(scopes: ["openid"]) }
            .build()
        return HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: configuration).build()
    }
}

/// What the app shows after a login: the user (the ID token's `sub` claim) and when the access
/// token expires. The ID token is decoded, not verified: enough to show a name, not to trust one.
func loginSummary(_ tokens: any OAuthTokenModel) -> String {
    let claims = tokens.idToken.flatMap { try? JWTClaims(json: CompactJWS($0).payload) }
    let subject = claims?.subject ?? "(no ID token: ask for the openid scope)"
    let expiry = tokens.expiresIn > 0
        ? Date().addingTimeInterval(TimeInterval(tokens.expiresIn)).formatted(date: .omitted, time: .standard)
        : "(the server did not say)"
    return "Logged in as \(subject).\nThe access token expires at \(expiry)."
}

// MARK: quick start: AppDelegate.swift

import HaapiUI
import UIKit

/// Makes the login object when the app starts. SceneDelegate.swift and Main.storyboard stay as
/// Xcode's template (Storyboard interface) made them; the storyboard's first screen is `ViewController`.
@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    let haapiUIKitApplication = LoginSettings.makeApplication()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        true
    }

    func application(_ application: UIApplication,
                     configurationForConnecting connectingSceneSession: UISceneSession,
                     options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        UISceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role)
    }
}

// MARK: quick start: ViewController.swift

import HaapiUI
import UIKit

/// The first screen: a "Log in" button, and what the last login gave.
class ViewController: UIViewController, HaapiFlowResultViewController {
    private let label = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        label.text = "Not logged in."
        label.numberOfLines = 0
        label.textAlignment = .center
        let button = UIButton(type: .system, primaryAction: UIAction(title: "Log in") { [weak self] _ in
            self?.logIn()
        })
        let stack = UIStackView(arrangedSubviews: [label, button])
        stack.axis = .vertical
        stack.spacing = 24
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.centerYAnchor.constraint(equalTo: view.centerYAnchor),
            stack.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            stack.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
        ])
    }

    /// Shows the login screens over this one; they close themselves when the login ends.
    private func logIn() {
        guard let appDelegate = UIApplication.shared.delegate as? AppDelegate else { return }
        do {
            try HaapiFlow.start(from: self,
                                haapiUIKitApplication: appDelegate.haapiUIKitApplication,
                                haapiDeepLinkManageable: HaapiDeepLinkManager.shared)
        } catch {
            label.text = "The login could not start: \(error)"
        }
    }

    func didReceiveOAuthTokenModel(_ oAuthTokenModel: any OAuthTokenModel) {
        label.text = loginSummary(oAuthTokenModel)
    }

    func didReceiveError(_ error: any Error) {
        label.text = "The login failed: \(error)"
    }
}
