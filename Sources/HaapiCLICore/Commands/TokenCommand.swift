import ArgumentParser
import Foundation
import OAuthCore
import OIDCClient

/// `haapi token`: prints a valid access token, or the header lines that authorize one request.
package struct TokenCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print the profile's access token on standard output, refreshed first when it has less than --min-ttl left.",
        discussion: helpText(
            """
            Many concurrent callers, in one process or in many, cause one refresh: the first takes \
            the profile's lock file and refreshes, the others wait and print its result (even when --min-ttl is \
            longer than the server's tokens live).

            A DPoP-bound token (what `haapi login` gets by default) needs a proof with each request: \
            --header --method M --url U prints the `Authorization` and `DPoP` header lines of one request, \
            for `curl -H @-`, so neither the token nor the key goes on a command line; as for `haapi api`, \
            only for the provider's origin, the profile's API origins and --allow-origin. `haapi api` sends \
            the request itself, and also refreshes once on a 401.
            """,
            examples:
                "curl -H @<(haapi token --header --url https://api.example/items) https://api.example/items",
            "haapi token --header --method POST --url https://api.example/items | curl -H @- -d name=x https://api.example/items",
            #"curl -H "Authorization: Bearer $(haapi token --min-ttl 60)" https://api.example/   # a Bearer-token profile only"#))

    @OptionGroup package var profile: ProfileOption
    @OptionGroup package var minimumLifetime: MinimumLifetimeOption
    @Flag(help: "Print the header lines that authorize one request (Authorization, and DPoP for a DPoP-bound token) instead of the token.")
    package var header = false
    @Option(help: "With --header: the request's HTTP method.") package var method = "GET"
    @Option(help: "With --header: the request's URL (the DPoP proof is made for it).") var url: String?
    @Option(
        help: ArgumentHelp(
            "With --header: also authorize requests to this origin (repeatable), as `haapi api --allow-origin` does.", valueName: "origin"))
    var allowOrigin: [String] = []
    @Flag(help: "With --header: allow an http:// URL on another machine (the token travels in clear).") var allowInsecureHttp = false
    @Flag(help: "Print JSON: the token, its type, expiry and scopes.") package var json = false
    @Flag(help: "Print the header and claims of the access token (not verified; times as dates) instead of the token.") var decode = false
    @Flag(help: "With --decode: the ID token of the login instead of the access token.") package var idToken = false
    @OptionGroup package var log: LogOptions

    package func validate() throws {
        if [header, json, decode].filter({ $0 }).count > 1 { throw ValidationError("give one of --header, --json and --decode") }
        if idToken && !decode { throw ValidationError("--id-token goes with --decode") }
        if header {
            guard absoluteURL(url) != nil else {
                throw ValidationError("--header needs --url with the request's absolute URL")
            }
            for origin in allowOrigin {
                try ConnectionOptions.checkOrigin(origin, option: "--allow-origin", allowInsecureHttp: allowInsecureHttp)
            }
        } else if url != nil || method != "GET" || !allowOrigin.isEmpty || allowInsecureHttp {
            throw ValidationError("--method, --url, --allow-origin and --allow-insecure-http go with --header")
        }
    }

    package func run() async throws {
        log.apply()
        if !header && !json && !decode {
            try await Self.printToken(profile: profile.name, minimumLifetime: minimumLifetime.interval)
            return
        }
        let (store, configuration, session) = try Profile.openSession(profile.name)
        // The header lines carry the token: made only for the origins `haapi api` sends it to.
        if header, let url = absoluteURL(url) {
            try configuration.checkAPITarget(url, extra: allowOrigin, allowInsecureHttp: allowInsecureHttp)
        }
        _ = try await store.loggedIn(session)
        if header, let url = absoluteURL(url) {
            let headers = try await store.reportingFailures(of: "authorizing the request") {
                try await AuthorizedHTTPClient(session: session, minimumLifetime: minimumLifetime.interval).authorizationHeaders(
                    method: method, url: url)
            }
            for field in headers { Stdout.line("\(field.name): \(field.value)") }
            return
        }
        let token = try await store.reportingFailures(of: "the refresh") {
            try await session.validAccessToken(minimumLifetime: minimumLifetime.interval)
        }
        if decode {
            let tokens = try await store.loggedIn(session)
            guard let chosen = idToken ? tokens.idToken : token.value else {
                throw CLIFailure("the login of profile \(profile.name) gave no ID token")
            }
            guard let readable = JWTText.readable(chosen) else {
                throw CLIFailure(
                    "the \(idToken ? "ID" : "access") token of profile \(profile.name) is not a JWT (an opaque token: ask the server, e.g. `haapi userinfo`)"
                )
            }
            Stdout.json(readable)
            return
        }
        // --json
        let tokens = try await store.loggedIn(session)
        var object: [String: JSONValue] = [
            "token": .string(token.value), "tokenType": .string(token.tokenType), "expiresAt": .null, "expiresIn": .null,
        ]
        if let expiry = token.expiresAt {
            object["expiresAt"] = .string(expiry.formatted(Date.ISO8601FormatStyle()))
            object["expiresIn"] = .integer(OutsideNumber.wholeSeconds(expiry.timeIntervalSinceNow.rounded(.down)))
        }
        let scope = tokens.scope ?? JWTClaims.unverifiedPayload(token.value)?["scope"]?.stringValue
        object["scopes"] = .array((scope ?? "").split(separator: " ").map { .string(String($0)) })
        Stdout.json(.object(object))
    }

    /// Prints `token`; a DPoP-bound one printed into a pipe comes with a warning.
    static func printAccessToken(_ token: AccessToken) {
        // `Authorization: Bearer $(haapi token)` is what people type, and a DPoP-bound token sent so
        // is refused with a 401 that does not say why: said here, where the token is made.
        if token.isDPoPBound && isatty(STDOUT_FILENO) == 0 {
            Texts.warn(
                "this token is DPoP-bound: sent as `Authorization: Bearer` it is refused; send requests with "
                    + "`haapi api URL`, or with the headers of `haapi token --header --url URL` (`haapi login --no-dpop` asks for "
                    + "Bearer tokens where the server allows them)")
        }
        Stdout.line("\(token.value)")
    }

    /// The stored access token of the profile `name` when it has `minimumLifetime` left, read on
    /// this thread with no session, transport or task: a script's cached `haapi token`, at the
    /// cost of a file read. `nil` when there is none, it must be refreshed or anything fails:
    /// the session (``printToken(profile:minimumLifetime:)``) then does it, and says why.
    static func storedAccessToken(profile name: String, minimumLifetime: TimeInterval) -> AccessToken? {
        guard let profile = try? Profile.openSaved(name), let configuration = try? profile.readConfiguration(),
            let data = try? profile.secretStorage(configuration).read(key: Profile.tokensKey),
            let state = try? AuthState(storedData: data), state.isAccessTokenValid(for: minimumLifetime)
        else { return nil }
        return AccessToken(state)
    }

    /// `haapi token` as scripts call it in loops: the profile's valid access token, from the
    /// session (refreshed when it has less than `minimumLifetime` left), printed.
    static func printToken(profile name: String, minimumLifetime: TimeInterval) async throws {
        let (store, _, session) = try Profile.openSession(name)
        // One read of the stored tokens (from a keyring, a round trip over D-Bus): the session's,
        // which also says when there are none.
        printAccessToken(
            try await store.reportingFailures(of: "the refresh") { try await session.validAccessToken(minimumLifetime: minimumLifetime) })
    }

    /// The arguments of `haapi token` as scripts give them, read without ArgumentParser: nothing
    /// but `--profile NAME` and `--min-ttl SECONDS` (each once, values as the parser would take
    /// them); `nil` for anything else, which the parser reads. Building the parser's command tree
    /// was a third of a cached token's start (protocol-conformance scans over the whole binary).
    package static func quickArguments(_ arguments: [String]) -> (profile: String?, minimumLifetime: Int)? {
        guard arguments.first == "token" else { return nil }
        var profile: String?
        var minimumLifetime: Int?
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else { return nil }
            switch name {
            case "--profile" where profile == nil:
                profile = value
            case "--min-ttl" where minimumLifetime == nil:
                guard let seconds = OutsideNumber.seconds(parsing: value) else { return nil }
                minimumLifetime = seconds
            default:
                return nil
            }
        }
        return (profile, minimumLifetime ?? MinimumLifetimeOption.defaultSeconds)
    }
}
