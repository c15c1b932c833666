import ArgumentParser
import Foundation
import OAuthCore

/// `haapi thumbprint FILE`: prints the RFC 7638 thumbprint of a JWK.
package struct ThumbprintCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "thumbprint", abstract: "Print the RFC 7638 SHA-256 thumbprint of a JWK (a file, or - for standard input).",
        discussion: helpText(examples: "haapi thumbprint key.jwk", "cat key.jwk | haapi thumbprint -"))

    @Argument(help: "A JSON file holding one JWK, or - to read standard input.")
    package var file: String

    package func run() throws {
        let data = try InputFiles.read(file, "the key", limit: InputFiles.Limit.small, standardInput: true)
        Stdout.line("\(try JWK(json: data).thumbprint())")
    }
}
