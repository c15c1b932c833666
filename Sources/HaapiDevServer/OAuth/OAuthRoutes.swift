import Hummingbird

/// The OAuth endpoints: token, attestation (CAT), revocation, userinfo, end session, registration.
enum OAuthRoutes {
    static func add(to router: Router<DevServerRequestContext>, state: ServerState) {
        let token = TokenEndpoint(state: state)
        router.post("/oauth/token") { request, _ in await token.handle(request) }
        AttestationEndpoints.add(to: router, state: state)
        DeviceAuthorizationEndpoint.add(to: router, state: state)
        router.post("/oauth/revoke") { request, _ in await RevocationEndpoint.handle(request, state: state) }
        router.get("/oauth/userinfo") { request, _ in await UserInfoEndpoint.handle(request, state: state) }
        router.post("/oauth/userinfo") { request, _ in await UserInfoEndpoint.handle(request, state: state) }
        router.get("/oauth/end-session") { request, _ in await EndSessionEndpoint.handle(request, state: state) }
        router.post("/oauth/end-session") { request, _ in await EndSessionEndpoint.handle(request, state: state) }
        router.post("/oauth/register") { request, _ in await RegistrationEndpoint.handle(request, state: state) }
        // The path Curity's documentation (and so the seeds' snippets) give the registration endpoint.
        router.post("/oauth/oauth-registration") { request, _ in await RegistrationEndpoint.handle(request, state: state) }
    }
}
