// The iOS quick start (docs/IOS-QUICKSTART.md), its SwiftUI app. Each code block of that page
// is the text under one `// MARK: quick start:` line here or in QuickStartUIKitApp.swift (the
// same app in UIKit), from its first line to the blank line before the next MARK; each begins
// with its own imports, as the file it stands for does. Type-checked for iOS by
// Scripts/check-apple.sh.

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

// MARK: quick start: the SwiftUI app file (the @main App)

import HaapiUI
import SwiftUI
import UIKit

/// Makes the login object when the app starts.
final class AppDelegate: NSObject, UIApplicationDelegate {
    let haapiUIKitApplication = LoginSettings.makeApplication()
}

@main
@MainActor struct QuickStartApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) var appDelegate

    var body: some Scene {
        WindowGroup {
            ContentView(haapiApplication: appDelegate.haapiUIKitApplication)
                // A login step that sent the user to a browser or another app goes on
                // from the URL the app is opened with.
                .onOpenURL { url in
                    Task { await HaapiDeepLinkManager.shared.handleUrl(url) }
                }
        }
    }
}

// MARK: quick start: ContentView.swift

import HaapiUI
import SwiftUI

/// Receives how the login ended, for the view to show.
@MainActor final class LoginResult: ObservableObject, HaapiFlowResult {
    @Published var text = "Not logged in."

    func didReceiveOAuthTokenModel(_ oAuthTokenModel: any OAuthTokenModel) {
        text = loginSummary(oAuthTokenModel)
    }

    func didReceiveError(_ error: any Error) {
        text = "The login failed: \(error)"
    }
}

@MainActor struct ContentView: View {
    let haapiApplication: any HaapiUIKitApplication
    @StateObject private var result = LoginResult()
    @State private var isLoggingIn = false

    var body: some View {
        VStack(spacing: 24) {
            Text(result.text)
                .multilineTextAlignment(.center)
            Button("Log in") { isLoggingIn = true }
                .buttonStyle(.borderedProminent)
        }
        .padding()
        // The login screens, on a sheet that closes itself when the login ends.
        .sheet(isPresented: $isLoggingIn) {
            HaapiFlow.start(result,
                            haapiUIKitApplication: haapiApplication,
                            haapiDeepLinkManageable: HaapiDeepLinkManager.shared)
        }
    }
}

// MARK: quick start: the DCR client instead (in LoginSettings.swift)

extension LoginSettings {
    /// The development server's DCR template client: on its first login the app registers a
    /// client of its own, and keeps it in the Keychain for the next ones.
    static func makeApplicationWithDCR() -> any HaapiUIKitApplication {
        let configuration = HaapiUIKitConfigurationBuilder(
            clientId: "haapi-dcr-template",
            baseUrl: serverURL,
            tokenEndpointUrl: serverURL.appendingPathComponent("oauth/token"),
            authorizationEndpointUrl: serverURL.appendingPathComponent("oauth/authorize"),
            appRedirect: redirectURI)
            // The template's secret, from `haapi server --print-config`: it allows the registration.
            .setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret("PASTE-THE-TEMPLATE-SECRET-HERE"))
            .setDCRConfiguration(configuration: DCRConfiguration(
                templateClientId: "haapi-dcr-template",
                clientRegistrationEndpointUrl: serverURL.appendingPathComponent("oauth/register")))
            .setAttestationConfiguration(configuration: AttestationConfiguration(useAttestation: false))
            .setOauthAuthorizationParamsProvider { OAuthAuthorizationParameters(scopes: ["openid"]) }
            .build()
        return HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: configuration).build()
    }
}
