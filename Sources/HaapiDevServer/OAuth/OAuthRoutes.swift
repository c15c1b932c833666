import Hummingbird

/// The OAuth endpoints: token, attestation (CAT), revocation, userinfo, end session, registration.
enum OAuthRoutes {
    static func add(to router: Router<BasicRequestContext>, state: ServerState) {}
}
