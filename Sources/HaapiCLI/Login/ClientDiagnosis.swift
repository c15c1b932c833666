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

    /// The failure for a diagnosis of the client `client`: what is wrong, what the server said,
    /// and what to do.
    static func explain(_ diagnosis: HaapiClientDiagnosis, client: String) -> CLIFailure {
        let quoted = PrintableText(client)
        let (problem, fix): (PrintableText, PrintableText)
        switch diagnosis {
        case .notAHaapiClient:
            problem = "the client \"\(quoted)\" is not a HAAPI client"
            fix = "it looks like a browser client; log in with `haapi login --browser` (or `--device` from a machine with no browser)"
        case .unknownClient:
            problem = "the server does not know the client id \"\(quoted)\""
            fix = "check --client-id (`haapi server --print-config` lists the development server's clients)"
        case .needsAttestation:
            problem = "the client \"\(quoted)\" authenticates with client attestation"
            fix = "only an iOS device makes one; against a development server give --attestation software"
        case .needsCredentials:
            problem = "the client \"\(quoted)\" must authenticate"
            fix = "give its secret with --client-secret-file FILE, HAAPI_CLIENT_SECRET or --client-secret - (standard input)"
        case .refused, .noRefusal:
            (problem, fix) = ("the client \"\(quoted)\" has no way to log in with HAAPI from this machine", generalFix)
        }
        // The server's words are escaped as they are interpolated; ours are kept.
        let said: PrintableText = diagnosis.refusal.map { " (server: \($0.serverDescription ?? $0.error))" } ?? ""
        return CLIFailure(problem + said + ": " + fix)
    }

    private static let generalFix: PrintableText =
        "give its secret (--client-secret-file FILE or HAAPI_CLIENT_SECRET), --attestation software (development servers), "
        + "or log in with --browser"
}
