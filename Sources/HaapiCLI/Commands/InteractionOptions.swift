import ArgumentParser
import Foundation
import HaapiCLICore
import OAuthCore

/// `--answers FILE` and `--browser-command CMD`.
struct InteractionOptions: ParsableArguments {
    @Option(
        help: """
            A JSON file scripting the login: {"fields": {name: value}, "choices": [authenticatorType, kind or title, ...]}. \
            A field's value may be {"file": PATH}, read when the field is asked (waiting up to 120 s for a line), e.g. for a one-time code.
            """)
    var answers: String?
    @Option(help: "The program that opens a URL (run with the URL as its last argument); default $BROWSER, xdg-open, open.")
    var browserCommand: String?
    @Flag(help: "Do not start a browser: print the URL to open in one on this machine (for a login from another device, use --device).")
    var noBrowser = false

    /// The answers, after checking that the login can ask its questions at all.
    func loadAnswers(terminal: Terminal) throws -> Answers? {
        if let answers { return try Answers.load(answers) }
        guard terminal.isInteractive else {
            throw CLIFailure("standard input is not a terminal: give --answers FILE to log in without one")
        }
        return nil
    }
}
