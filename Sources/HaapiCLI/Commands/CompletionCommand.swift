import ArgumentParser
import Foundation
import HaapiCLICore
import OAuthCore

/// `haapi completion SHELL`: the shell completion script, generated from the command definitions.
struct CompletionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "Print the completion script for bash, zsh or fish (generated from the command definitions).",
        discussion: helpText(
            examples:
                "source <(haapi completion bash)                                  # this bash session",
            "haapi completion bash > ~/.local/share/bash-completion/completions/haapi",
            #"haapi completion zsh > "${fpath[1]}/_haapi""#,
            "haapi completion fish > ~/.config/fish/completions/haapi.fish"))

    @Argument(help: "bash, zsh or fish.", completion: .list(["bash", "zsh", "fish"])) var shell: String

    func validate() throws {
        guard CompletionShell(rawValue: shell) != nil else {
            throw ValidationError("the shell must be bash, zsh or fish, not \"\(shell)\"")
        }
    }

    func run() {
        guard let shell = CompletionShell(rawValue: shell) else { return }
        Stdout.line(PrintableText(own: Haapi.completionScript(for: shell)))  // generated from our own command definitions
    }
}
