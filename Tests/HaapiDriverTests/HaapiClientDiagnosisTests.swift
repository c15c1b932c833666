import Foundation
import HaapiDriver
import HaapiTesting
import OAuthCore
import Testing

@Suite("Why a client gets no HAAPI token without credentials")
struct HaapiClientDiagnosisTests {
    @Test func theRefusalNamesTheCause() {
        func diagnosis(_ error: String, _ description: String? = nil) -> HaapiClientDiagnosis {
            HaapiClientDiagnosis(
                OAuthErrorResponse(error: error, members: description.map { ["error_description": .string($0)] } ?? [:], statusCode: 401))
        }
        guard case .notAHaapiClient = diagnosis("unauthorized_client") else {
            Issue.record("a browser client")
            return
        }
        guard case .notAHaapiClient = diagnosis("unsupported_grant_type") else {
            Issue.record("no HAAPI grant")
            return
        }
        guard case .unknownClient = diagnosis("invalid_client", "Client Not Found") else {
            Issue.record("an unknown client")
            return
        }
        guard case .needsAttestation = diagnosis("invalid_client", "the client must present an attestation") else {
            Issue.record("attestation")
            return
        }
        guard case .needsCredentials = diagnosis("invalid_client", "bad credentials") else {
            Issue.record("a secret")
            return
        }
        guard case .refused(let refusal) = diagnosis("invalid_scope") else {
            Issue.record("another refusal")
            return
        }
        #expect(refusal.error == "invalid_scope")
        // Each diagnosis keeps the refusal it was read from.
        for error in ["unauthorized_client", "invalid_client", "invalid_scope"] { #expect(diagnosis(error).refusal?.error == error) }
        #expect(HaapiClientDiagnosis.noRefusal.refusal == nil)
    }

    /// A server that cannot be reached, or that issues a token to a bare client id, refuses nothing.
    @Test func noRefusalWhenNoOAuthErrorComesBack() async {
        let endpoint = URL(string: "https://as.example/token")!
        let unreachable = ScriptedTransport([])
        #expect(await HaapiClientDiagnosis.probe(tokenEndpoint: endpoint, clientID: "app", transport: unreachable) == .noRefusal)
        #expect(unreachable.sent.count == 1)
        let lenient = ScriptedTransport([
            { request in
                TransportResponse(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data(#"{"access_token":"t","token_type":"DPoP"}"#.utf8), url: request.url)
            }
        ])
        #expect(await HaapiClientDiagnosis.probe(tokenEndpoint: endpoint, clientID: "app", transport: lenient) == .noRefusal)
    }
}
