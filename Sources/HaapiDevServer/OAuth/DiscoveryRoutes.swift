import Foundation
import Hummingbird
import OAuthCore

/// `/.well-known/openid-configuration` and the JWKS.
enum DiscoveryRoutes {
    static func add(to router: Router<DevServerRequestContext>, state: ServerState) {
        router.get("/.well-known/openid-configuration") { _, _ in
            let issuer = state.issuer.absoluteString
            return Reply.json([
                "issuer": .string(issuer),
                "authorization_endpoint": .string(issuer + "/oauth/authorize"),
                "token_endpoint": .string(issuer + "/oauth/token"),
                "revocation_endpoint": .string(issuer + "/oauth/revoke"),
                "userinfo_endpoint": .string(issuer + "/oauth/userinfo"),
                "end_session_endpoint": .string(issuer + "/oauth/end-session"),
                "registration_endpoint": .string(issuer + "/oauth/register"),
                "device_authorization_endpoint": .string(issuer + DeviceAuthorizationEndpoint.path),
                "jwks_uri": .string(issuer + "/oauth/jwks"),
                "response_types_supported": ["code"],
                "grant_types_supported": [
                    "authorization_code", "refresh_token", "client_credentials", .string(TokenGrant.deviceCodeGrantType),
                ],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
                "dpop_signing_alg_values_supported": ["ES256", "ES384", "ES512", "EdDSA", "RS256", "PS256"],
                "id_token_signing_alg_values_supported": ["ES256"],
                "subject_types_supported": ["public"],
                "scopes_supported": ["openid", "profile", "email", "offline_access", .string(SeedData.haapiScope)],
                "authorization_response_iss_parameter_supported": true,
            ])
        }
        router.get("/oauth/jwks") { _, _ in
            Reply.json(["keys": [state.signingKey.publicJWK.map { JSONValue(encodable: $0) } ?? .null]])
        }
    }
}

extension JSONValue {
    /// The JSON of an Encodable value.
    init(encodable value: some Encodable) {
        self = (try? JSONValue(parsing: JSONValue.encodeSorted(value))) ?? .null
    }
}
