import Hummingbird

/// The authorization endpoint and the authentication service: HAAPI representations for
/// `Accept: application/vnd.auth+json`, HTML pages otherwise.
enum HaapiRoutes {
    static func add(to router: Router<BasicRequestContext>, state: ServerState) {}
}
