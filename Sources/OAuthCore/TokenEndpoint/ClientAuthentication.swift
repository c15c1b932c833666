import Foundation

/// How a client proves its identity at the token endpoint (RFC 6749 §2.3, RFC 7523, RFC 8705).
public struct ClientAuthentication: Sendable {
    enum Method: Sendable {
        case none
        case secretBasic(String)
        case secretPost(String)
        case jwt(JWSSigningKey)
        case tlsClientAuth
    }

    /// The client id.
    public let clientID: String
    let method: Method
    /// How long a client assertion is valid (default 60 s).
    public var assertionLifetime: TimeInterval = 60
    /// What a client assertion's `aud` names (default ``AssertionAudience/issuer``).
    public var assertionAudience: AssertionAudience = .issuer

    /// What a client assertion's `aud` names. A client that names the endpoint it sends to can be
    /// made to sign an assertion a malicious server replays at the real one (the OpenID
    /// Foundation's 2025 advisory on audience injection); the issuer identifier, one string,
    /// names the real server whatever endpoint is used.
    public enum AssertionAudience: Sendable, Hashable {
        /// The issuer identifier, for every endpoint (PAR, token, revocation); the token endpoint
        /// when no issuer is known (a configuration of endpoints only).
        case issuer
        /// The token endpoint, for every endpoint: for servers that accept nothing else, such as
        /// Glewlwyd.
        case tokenEndpoint
        /// The endpoint the request goes to (RFC 7523's first reading): only for servers that
        /// demand it.
        case endpoint
    }

    /// The server a request with the client's credentials goes to: what an assertion's `aud`
    /// is chosen from.
    public struct Recipient: Sendable, Hashable {
        /// The endpoint the request goes to.
        public var endpoint: URL
        /// The server's token endpoint.
        public var tokenEndpoint: URL
        /// The server's issuer identifier, when known (discovered or configured).
        public var issuer: String?

        /// A recipient; `tokenEndpoint` defaults to `endpoint`.
        public init(endpoint: URL, tokenEndpoint: URL? = nil, issuer: String? = nil) {
            self.endpoint = endpoint
            self.tokenEndpoint = tokenEndpoint ?? endpoint
            self.issuer = issuer
        }

        /// The `aud` an assertion for this recipient carries.
        public func audience(_ choice: AssertionAudience) -> String {
            switch choice {
            case .issuer: return issuer ?? tokenEndpoint.absoluteString
            case .tokenEndpoint: return tokenEndpoint.absoluteString
            case .endpoint: return endpoint.absoluteString
            }
        }
    }

    /// A public client: only `client_id` is sent.
    public static func none(clientID: String) -> ClientAuthentication {
        ClientAuthentication(clientID: clientID, method: .none)
    }

    /// `client_secret_basic`: id and secret in the `Authorization: Basic` header.
    public static func clientSecretBasic(clientID: String, secret: String) -> ClientAuthentication {
        ClientAuthentication(clientID: clientID, method: .secretBasic(secret))
    }

    /// `client_secret_post`: id and secret in the form body.
    public static func clientSecretPost(clientID: String, secret: String) -> ClientAuthentication {
        ClientAuthentication(clientID: clientID, method: .secretPost(secret))
    }

    /// `client_secret_jwt`: a client assertion signed with HS256 using the secret as key.
    /// - Throws: ``JOSEError`` when the secret is shorter than the 32 bytes HS256 needs.
    public static func clientSecretJWT(clientID: String, secret: String) throws -> ClientAuthentication {
        ClientAuthentication(clientID: clientID, method: .jwt(try .hs256(secret: Data(secret.utf8))))
    }

    /// `private_key_jwt`: a client assertion signed with the client's private key (RS256, ES256, ...).
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.algorithmKeyMismatch`](doc:ErrorCode/algorithmKeyMismatch) for an HMAC key.
    public static func privateKeyJWT(clientID: String, key: JWSSigningKey) throws -> ClientAuthentication {
        guard !key.algorithm.isSymmetric else {
            throw JOSEError(.algorithmKeyMismatch, "private_key_jwt needs an asymmetric key; use clientSecretJWT for HS256")
        }
        return ClientAuthentication(clientID: clientID, method: .jwt(key))
    }

    /// `tls_client_auth`: the client certificate of a mutual-TLS transport proves the client;
    /// only `client_id` is sent. The transport must be configured with a ``ClientIdentity``.
    public static func tlsClientAuth(clientID: String) -> ClientAuthentication {
        ClientAuthentication(clientID: clientID, method: .tlsClientAuth)
    }

    /// The `token_endpoint_auth_method` name of this method.
    public var methodName: String {
        switch method {
        case .none: return "none"
        case .secretBasic: return "client_secret_basic"
        case .secretPost: return "client_secret_post"
        case .jwt(let key): return key.algorithm.isSymmetric ? "client_secret_jwt" : "private_key_jwt"
        case .tlsClientAuth: return "tls_client_auth"
        }
    }

    /// Adds the client's credentials to a request to one of the server's endpoints.
    ///
    /// - Parameters:
    ///   - parameters: the request's form parameters; `client_id`, `client_secret` or the
    ///     client assertion are appended, as the method requires.
    ///   - headers: the request's header fields; `Authorization` is set for `client_secret_basic`.
    ///   - recipient: where the request goes; a client assertion's `aud` is chosen from
    ///     it by ``assertionAudience``.
    ///   - now: the time a client assertion's `iat` and `exp` are counted from.
    public func apply(
        to parameters: inout [(String, String)], headers: inout HeaderFields, recipient: Recipient, now: Date = Date()
    ) throws {
        switch method {
        case .none, .tlsClientAuth:
            parameters.append(("client_id", clientID))
        case .secretBasic(let secret):
            // RFC 6749 §2.3.1: both parts are form-encoded before base64.
            let pair = FormURLEncoding.escape(clientID) + ":" + FormURLEncoding.escape(secret)
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
        case .secretPost(let secret):
            parameters.append(("client_id", clientID))
            parameters.append(("client_secret", secret))
        case .jwt(let key):
            parameters.append(("client_id", clientID))
            parameters.append(("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"))
            parameters.append(("client_assertion", try assertion(key: key, audience: recipient.audience(assertionAudience), now: now)))
        }
    }

    /// A client assertion (RFC 7523 §3): `iss` and `sub` the client id, `aud` one string, a unique `jti`.
    func assertion(key: JWSSigningKey, audience: String, now: Date) throws -> String {
        let issued = OutsideNumber.wholeSeconds(now.timeIntervalSince1970)
        let claims: JSONValue = [
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(audience),
            "jti": .string(UUID().uuidString), "iat": .integer(issued),
            "exp": .integer(issued + OutsideNumber.wholeSeconds(assertionLifetime)),
        ]
        return try CompactJWS.sign(payload: claims.serialized(), header: JOSEHeader(algorithm: key.algorithm, typ: "JWT"), key: key)
    }
}
