import ArgumentParser
import Foundation
import OAuthCore

/// `haapi dpop-proof`: prints a DPoP proof for one request, with a new or given key.
package struct DPoPProofCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "dpop-proof", abstract: "Print a DPoP proof (RFC 9449) for one request, e.g. to try an API with curl.",
        discussion: helpText(
            examples:
                "haapi dpop-proof --method POST --url https://as.example/oauth/token",
            "haapi dpop-proof --url https://api.example/items --key key.jwk"))

    @Option(help: "The HTTP method of the request.") package var method = "GET"
    @Option(help: "The URL of the request (query and fragment are left out of htu).") var url: String
    @Option(help: "The access token sent with the request, bound with ath.") package var accessToken: String?
    @Option(help: "A server nonce to include.") package var nonce: String?
    @Option(help: "A file with the private JWK to sign with; a new P-256 key otherwise.") var key: String?

    package func run() throws {
        guard let target = URL(string: url), target.scheme != nil else { throw ValidationError("--url must be an absolute URL") }
        let dpop = try key.map { try Dpop(privateJWK: JWK(json: InputFiles.read($0, "the key", limit: InputFiles.Limit.small))) } ?? Dpop()
        Stdout.line("\(try dpop.proof(method: method, url: target, accessToken: accessToken, nonce: ProofNonce(nonce)))")
    }
}
