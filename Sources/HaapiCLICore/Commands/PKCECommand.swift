import ArgumentParser
import Foundation
import OAuthCore

/// `haapi pkce`: prints a new PKCE pair.
package struct PKCECommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "pkce", abstract: "Print a new PKCE code_verifier and its S256 code_challenge (RFC 7636).",
        discussion: helpText(examples: "haapi pkce"))

    package func run() {
        let pair = PKCE()
        Stdout.line("code_verifier=\(pair.verifier)")
        Stdout.line("code_challenge=\(pair.challenge)")
        Stdout.line("code_challenge_method=\(pair.method)")
    }
}
