import Foundation
import HaapiDriver
import OAuthCore

/// Why a HAAPI login cannot start when the settings give the client no way to authenticate
/// (no secret, no attestation this machine can make), told in the user's terms with the fix.
///
/// Four different mistakes end there: a forgotten secret, an unknown client id, a browser client
/// logged in without `--browser`, an attested client without `--attestation software`. The
/// token endpoint tells them apart: it is asked once for a HAAPI token with the `client_id`
/// alone (no secret is sent, nothing is issued), and its refusal names the cause.
enum ClientDiagnosis {
    /// The failure to report for `settings`, after asking the server.
    static func missingCredentials(_ settings: ProfileConfiguration) async -> CLIFailure {
        let client = settings.clientID
        guard let endpoint = settings.tokenEndpoint.flatMap(URL.init(string:)) else { return generic(client, detail: nil) }
        let refusal: OAuthErrorResponse
        do {
            let transport = try AnnouncedTransport.make(for: settings)
            let probe = TokenEndpointClient(endpoint: endpoint, clientAuthentication: .none(clientID: client), transport: transport)
            guard case .failure(let error) = try await probe.requestToken(.clientCredentials(scope: HaapiTokenManager.haapiScope)).result else {
                return generic(client, detail: nil)
            }
            refusal = error
        } catch {
            return generic(client, detail: nil)
        }
        return explain(refusal, client: client)
    }

    /// The failure for the token endpoint's `refusal` of a credential-less HAAPI token request.
    static func explain(_ refusal: OAuthErrorResponse, client: String) -> CLIFailure {
        let said = "server: " + (refusal.serverDescription ?? refusal.error)
        let description = refusal.serverDescription?.lowercased() ?? ""
        let quoted = PrintableText(client)
        switch refusal.error {
        case "unauthorized_client", "unsupported_grant_type":
            return CLIFailure(
                "the client \"\(quoted)\" is not a HAAPI client (\(said)): it looks like a browser client; "
                    + "log in with `haapi login --browser` (or `--device` from a machine with no browser)")
        case "invalid_client" where description.contains("unknown") || description.contains("not found") || description.contains("no such"):
            return CLIFailure(
                "the server does not know the client id \"\(quoted)\" (\(said)): check --client-id "
                    + "(`haapi server --print-config` lists the development server's clients)")
        case "invalid_client" where description.contains("attest"):
            return CLIFailure(
                "the client \"\(quoted)\" authenticates with client attestation (\(said)), which only an iOS device makes; "
                    + "against a development server give --attestation software")
        case "invalid_client":
            return CLIFailure(
                "the client \"\(quoted)\" must authenticate (\(said)): give its secret with --client-secret-file FILE, "
                    + "HAAPI_CLIENT_SECRET or --client-secret - (standard input)")
        default:
            return generic(client, detail: said)
        }
    }

    private static func generic(_ client: String, detail: String?) -> CLIFailure {
        CLIFailure(
            "the client \"\(client)\" has no way to log in with HAAPI from this machine\(detail.map { " (\($0))" } ?? ""): "
                + "give its secret (--client-secret-file FILE or HAAPI_CLIENT_SECRET), --attestation software (development servers), "
                + "or log in with --browser")
    }
}
