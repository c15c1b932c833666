import Foundation
import OAuthCore
import OIDCClient
import OAuthTransportNIO

/// `haapi login --browser`: the authorization-code flow in the system browser through
/// OIDCClient (PKCE, state, nonce, ID-token validation), the redirect received on a loopback
/// listener; and `haapi logout --end-session`, RP-initiated logout through the same agent.
struct BrowserLogin {
    let configuration: ProfileConfiguration
    let browserCommand: String?

    /// The OIDCClient for the profile's settings, holding `tokens` when given.
    func client(holding tokens: AuthState? = nil) async throws -> OIDCClient {
        guard let issuer = configuration.issuer.flatMap(URL.init(string:)) else {
            throw CLIFailure("a browser login needs --issuer (its endpoints come from discovery)")
        }
        guard let redirect = URL(string: configuration.redirectUri) else { throw CLIFailure("the redirect URI \(configuration.redirectUri) is not a URL") }
        let oidc = OIDCConfiguration(
            issuer: issuer, clientAuthentication: try configuration.clientAuthentication(), redirectURI: redirect,
            postLogoutRedirectURI: configuration.postLogoutRedirectUri.flatMap(URL.init(string:)),
            scopes: configuration.scopes, useDPoP: configuration.dpop != false)
        let client = OIDCClient(configuration: oidc, transport: try AsyncHTTPClientTransport())
        if let tokens { try await client.setAuthState(tokens) }
        return client
    }

    var userAgent: LoopbackUserAgent {
        LoopbackUserAgent(launcher: SystemBrowserLauncher(commandLine: browserCommand), listen: LoopbackRedirectListener.factory)
    }

    /// Logs in; the tokens as the profile keeps them.
    func run() async throws -> AuthState {
        let client = try await client()
        do {
            return try await client.login(using: userAgent)
        } catch let error as any IdsvrError {
            throw CLIFailure("the browser login failed: \(error.errorDescription)")
        }
    }

    /// Sends the browser to the provider's end_session_endpoint with the ID token, and waits
    /// for it to come back.
    func endSession(_ tokens: AuthState) async throws {
        let client = try await client(holding: tokens)
        do {
            try await client.endSession(using: userAgent)
        } catch let error as any IdsvrError {
            throw CLIFailure("the provider did not end the session: \(error.errorDescription)")
        }
    }
}
