import Foundation
import HaapiCLICore
import HaapiDriver
import OAuthCore

/// Why a HAAPI login cannot start when the settings give the client no way to authenticate
/// (no secret, no attestation this machine can make), told in the user's terms with the fix:
/// the server's answer to a credential-less token request (``HaapiClientDiagnosis``) decides.
enum ClientDiagnosis {
    /// The failure to report for `settings`, after asking the server.
    static func missingCredentials(_ settings: ProfileConfiguration) async -> CLIFailure {
        guard let endpoint = settings.tokenEndpoint.flatMap(URL.init(string:)), let transport = try? AnnouncedTransport.make(for: settings)
        else { return explain(.noRefusal, client: settings.clientID) }
        return explain(await .probe(tokenEndpoint: endpoint, clientID: settings.clientID, transport: transport), client: settings.clientID)
    }

    /// The failure for a diagnosis of the client `client`.
    static func explain(_ diagnosis: HaapiClientDiagnosis, client: String) -> CLIFailure {
        let quoted = PrintableText(client)
        func said(_ refusal: OAuthErrorResponse) -> String { "server: " + (refusal.serverDescription ?? refusal.error) }
        switch diagnosis {
        case .notAHaapiClient(let refusal):
            return CLIFailure(
                "the client \"\(quoted)\" is not a HAAPI client (\(said(refusal))): it looks like a browser client; "
                    + "log in with `haapi login --browser` (or `--device` from a machine with no browser)")
        case .unknownClient(let refusal):
            return CLIFailure(
                "the server does not know the client id \"\(quoted)\" (\(said(refusal))): check --client-id "
                    + "(`haapi server --print-config` lists the development server's clients)")
        case .needsAttestation(let refusal):
            return CLIFailure(
                "the client \"\(quoted)\" authenticates with client attestation (\(said(refusal))), which only an iOS device makes; "
                    + "against a development server give --attestation software")
        case .needsCredentials(let refusal):
            return CLIFailure(
                "the client \"\(quoted)\" must authenticate (\(said(refusal))): give its secret with --client-secret-file FILE, "
                    + "HAAPI_CLIENT_SECRET or --client-secret - (standard input)")
        case .refused(let refusal):
            return generic(quoted, detail: said(refusal))
        case .noRefusal:
            return generic(quoted, detail: nil)
        }
    }

    private static func generic(_ client: PrintableText, detail: String?) -> CLIFailure {
        CLIFailure(
            "the client \"\(client)\" has no way to log in with HAAPI from this machine\(detail.map { " (\($0))" } ?? ""): "
                + "give its secret (--client-secret-file FILE or HAAPI_CLIENT_SECRET), --attestation software (development servers), "
                + "or log in with --browser")
    }
}
