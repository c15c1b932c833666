import ArgumentParser
import Foundation
import OAuthCore
import OIDCClient

/// `haapi profiles`: the saved profiles (list, the default one, deleting one).
package struct ProfilesCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List the saved profiles, choose the default one, or delete one.",
        discussion: helpText(
            """
            The profile a command uses comes from --profile, else $HAAPI_PROFILE, else the one \
            `haapi profiles use NAME` chose, else `default`.
            """,
            examples:
                "haapi profiles",
            "haapi profiles use work",
            "haapi profiles delete old",
            "haapi profiles --json"),
        subcommands: [ProfilesListCommand.self, ProfilesUseCommand.self, ProfilesDeleteCommand.self],
        defaultSubcommand: ProfilesListCommand.self)
}

/// `haapi profiles [list]`: one line per profile, or a JSON array.
struct ProfilesListCommand: AsyncParsableCommand {
    init() {}

    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the saved profiles (standard output: name, state, subject, issuer); `*` marks the one used by default.")

    @Flag(help: "Print a JSON array of `haapi status --json` objects on standard output.") package var json = false

    func run() async throws {
        let current = ProfileOption.defaultName()
        let names = Profile.names()
        var reports: [ProfileReport] = []
        for name in names { reports.append(await ProfileReport.read(name)) }
        if json {
            Stdout.json(.array(reports.map(\.json)))
            return
        }
        guard !names.isEmpty else {
            Stderr.line("No profiles yet: log in with `haapi login --issuer URL --client-id ID`")
            return
        }
        for report in reports {
            let columns: [PrintableText] =
                report.state == .broken
                ? ["\(report.state.text): \(report.problem ?? "")"]
                : [
                    "\(report.state.text)", "\(report.members["subject"]?.stringValue ?? "-")",
                    "\(report.members["issuer"]?.stringValue ?? "-")",
                ]
            Stdout.line("\(report.profile == current ? "*" : " ") \(report.profile)\t" + PrintableText.joined(columns, separator: "\t"))
        }
    }
}

/// `haapi profiles use NAME`: the profile commands use when neither --profile nor $HAAPI_PROFILE names one.
struct ProfilesUseCommand: ParsableCommand {
    init() {}

    static let configuration = CommandConfiguration(
        commandName: "use", abstract: "Make NAME the profile commands use by default ($HAAPI_PROFILE and --profile still win).")

    @Argument(help: "A saved profile.", completion: .custom { _, _, _ in Profile.names() }) var name: String

    func run() throws {
        _ = try Profile.openSaved(name)
        try ProfileOption.setDefault(name)
        Stderr.line(
            "Commands now use profile \(name) by default"
                + (ProfileOption.environmentName() != nil ? " (but HAAPI_PROFILE is set here, and wins)" : ""))
    }
}

/// `haapi profiles delete NAME`: logs out (best effort) and removes the profile's folder.
struct ProfilesDeleteCommand: AsyncParsableCommand {
    init() {}

    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a profile: its tokens are revoked when the server can be reached, then its settings, tokens and key are removed.")

    @Argument(help: "A saved profile.", completion: .custom { _, _, _ in Profile.names() }) var name: String
    @Flag(help: "Delete the profile even when the keyring cannot remove its items (they stay in the keyring; the command says so).")
    var force = false
    @OptionGroup package var log: LogOptions

    func run() async throws {
        log.apply()
        let store = try Profile.openSaved(name)
        var note = ""
        let configuration = try? store.readConfiguration()
        if let configuration, let session = try? store.session(configuration), (try? await session.authState) != nil {
            do {
                _ = try await store.reportingFailures(of: "the revocation") { try await session.revoke(.all) }
            } catch let failure as CLIFailure {
                note = " (the server was not told: \(failure.message))"
            }
        }
        if configuration?.secrets == .keyring {
            do { try store.removeSecrets(from: .keyring) } catch  where force {
                Texts.warn(
                    "the profile's items stay in \(Keyring.name), which cannot remove them (\(PrintableText(Profile.describe(error)))); remove them there (attribute profile \(PrintableText(store.directory.path)))"
                )
            } catch {
                throw CLIFailure(
                    "cannot remove the profile's items from \(Keyring.name): \(Profile.describe(error)); the profile is kept "
                        + "(`haapi profiles delete \(name) --force` deletes it, leaving the items in the keyring)")
            }
        }
        do { try FileManager.default.removeItem(at: store.directory) } catch {
            throw CLIFailure("cannot delete \(store.directory.path): \(error.localizedDescription)")
        }
        if ProfileOption.savedDefault() == name { try ProfileOption.setDefault(nil) }
        Stderr.line("Deleted profile \(name)\(note)")
    }
}
