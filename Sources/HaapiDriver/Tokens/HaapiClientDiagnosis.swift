import Foundation
import OAuthCore

/// Why a client cannot get HAAPI tokens without credentials, as its token endpoint tells.
///
/// Four different mistakes look alike from the client's side: a forgotten secret, an unknown
/// client id, a browser client used for HAAPI, an attested client on a machine that cannot
/// attest. The token endpoint tells them apart: asked once for a HAAPI token with the
/// `client_id` alone (no secret is sent, nothing is issued), its refusal names the cause.
package enum HaapiClientDiagnosis: Sendable, Hashable {
    /// The client may not use HAAPI's grant (`unauthorized_client`, `unsupported_grant_type`):
    /// a browser client.
    case notAHaapiClient(OAuthErrorResponse)
    /// The server does not know the client id.
    case unknownClient(OAuthErrorResponse)
    /// The client authenticates with client attestation.
    case needsAttestation(OAuthErrorResponse)
    /// The client must authenticate, with a secret or another credential.
    case needsCredentials(OAuthErrorResponse)
    /// Another refusal, which the server's text explains.
    case refused(OAuthErrorResponse)
    /// No OAuth refusal came back: the server could not be reached, answered something else,
    /// or (wrongly) issued a token to a bare client id.
    case noRefusal

    /// The server's refusal the diagnosis was read from; `nil` for ``noRefusal``.
    package var refusal: OAuthErrorResponse? {
        switch self {
        case .notAHaapiClient(let refusal), .unknownClient(let refusal), .needsAttestation(let refusal), .needsCredentials(let refusal),
            .refused(let refusal):
            return refusal
        case .noRefusal:
            return nil
        }
    }

    /// Asks `tokenEndpoint` for a HAAPI token as `clientID` with no credential, and reads its refusal.
    package static func probe(tokenEndpoint: URL, clientID: String, transport: any HTTPTransport) async -> HaapiClientDiagnosis {
        let probe = TokenEndpointClient(endpoint: tokenEndpoint, clientAuthentication: .none(clientID: clientID), transport: transport)
        guard case .failure(let refusal)? = try? await probe.requestToken(.clientCredentials(scope: HaapiTokenManager.haapiScope)).result
        else { return .noRefusal }
        return HaapiClientDiagnosis(refusal)
    }

    /// The diagnosis of a token endpoint's `refusal` of a credential-less HAAPI token request.
    package init(_ refusal: OAuthErrorResponse) {
        let description = refusal.serverDescription?.lowercased() ?? ""
        switch refusal.error {
        case "unauthorized_client", "unsupported_grant_type": self = .notAHaapiClient(refusal)
        case "invalid_client" where ["unknown", "not found", "no such"].contains(where: description.contains):
            self = .unknownClient(refusal)
        case "invalid_client" where description.contains("attest"): self = .needsAttestation(refusal)
        case "invalid_client": self = .needsCredentials(refusal)
        default: self = .refused(refusal)
        }
    }
}
