import ArgumentParser
import Foundation
import OAuthCore
import OIDCClient

/// `haapi api`: one request to an API as the profile's user, as `gh api` does for GitHub.
package struct ApiCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Send one request to an API with the profile's access token (and a DPoP proof) and print the response body.",
        discussion: helpText(
            """
            The token is refreshed first when it is about to expire, and once more if the API answers 401; a \
            DPoP-bound token gets a fresh proof for each request, and a nonce challenge is answered. The body \
            goes to standard output; an HTTP status of 400 or more also prints one line on standard error and \
            exits with 1.

            The token goes only to the provider's origin (its issuer, base URL, token and userinfo endpoints), \
            to origins kept in the profile (`haapi login --api-origin ORIGIN`) and to those given with \
            --allow-origin; a URL elsewhere is refused before anything is sent (exit 2). As for login, http:// \
            to another machine also needs --allow-insecure-http.
            """,
            examples:
                "haapi api https://api.example/items",
            "haapi api --method DELETE https://api.example/items/7",
            #"haapi api --data '{"name":"x"}' --header 'Content-Type: application/json' https://api.example/items"#,
            "haapi api --data @item.json --include https://api.example/items",
            "haapi api --allow-origin https://api.other.example https://api.other.example/v1/me"))

    @OptionGroup package var profile: ProfileOption
    @Option(name: [.customShort("X"), .long], help: "The HTTP method (default GET, or POST with --data).") var method: String?
    @Option(help: "The request body: text, @FILE for a file's content, or @- for standard input.") package var data: String?
    @Option(name: [.customShort("H"), .long], help: "A header line `Name: value` to send (repeatable).") var header: [String] = []
    @Flag(name: [.customShort("i"), .long], help: "Print the status line and the response's headers before its body.") var include = false
    @Option(
        help: ArgumentHelp(
            "Also send the token to this origin, for this call (repeatable; `haapi login --api-origin` keeps one in the profile).",
            valueName: "origin"))
    var allowOrigin: [String] = []
    @Flag(help: "Allow http:// (not TLS) to an API that is not on this machine (the token travels in clear).")
    var allowInsecureHttp = false
    @OptionGroup package var minimumLifetime: MinimumLifetimeOption
    @Argument(help: "The absolute URL to request.") package var url: String
    @OptionGroup package var log: LogOptions

    package func validate() throws {
        guard absoluteURL(url) != nil else {
            throw ValidationError("the URL must be absolute, such as https://api.example/items (got \"\(url)\")")
        }
        for line in header where Self.headerField(line) == nil {
            throw ValidationError("--header takes `Name: value`, not \"\(line)\"")
        }
        for origin in allowOrigin {
            try ConnectionOptions.checkOrigin(origin, option: "--allow-origin", allowInsecureHttp: allowInsecureHttp)
        }
    }

    package func run() async throws {
        log.apply()
        guard let target = absoluteURL(url) else { return }
        let body = try data.map(Self.body)
        var headers = HeaderFields()
        for line in header { if let (name, value) = Self.headerField(line) { headers.add(name: name, value: value) } }
        if body != nil && headers["Content-Type"] == nil { headers["Content-Type"] = "application/x-www-form-urlencoded" }
        let request = TransportRequest(
            method: (method ?? (body == nil ? "GET" : "POST")).uppercased(), url: target, headers: headers, body: body)
        let (store, configuration, session) = try Profile.openSession(profile.name)
        // Before the token is even read: a refusal sends nothing, so no 401 from there can start a refresh.
        try configuration.checkAPITarget(target, extra: allowOrigin, allowInsecureHttp: allowInsecureHttp)
        _ = try await store.loggedIn(session)
        let response = try await store.reportingFailures(of: "the request to \(target.absoluteString)") {
            try await AuthorizedHTTPClient(session: session, minimumLifetime: minimumLifetime.interval).send(request)
        }
        if include {
            let head: [PrintableText] =
                [PrintableText(response.statusLine ?? "HTTP \(response.status)")] + response.headers.map { "\($0.name): \($0.value)" } + [
                    "", "",
                ]
            Stdout.write(PrintableText.joined(head, separator: "\n"))
        }
        Stdout.body(response.body)
        if response.status >= 400 {
            throw CLIFailure("the API answered HTTP \(response.status) to \(request.method) \(target.absoluteString)")
        }
    }

    /// The body `--data` names.
    package static func body(_ data: String) throws -> Data {
        guard data.hasPrefix("@") else { return Data(data.utf8) }
        let path = String(data.dropFirst())
        return try InputFiles.read(path, "the request body from", limit: InputFiles.Limit.content, standardInput: true)
    }

    /// `Name: value` split in two; `nil` when it is not a header line.
    static func headerField(_ line: String) -> (String, String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }) else { return nil }
        return (name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
}
