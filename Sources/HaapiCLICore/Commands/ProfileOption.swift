import ArgumentParser
import Foundation

/// `--profile NAME`: which saved login a command works on.
package struct ProfileOption: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("profile"),
        help:
            "The profile that keeps the settings and tokens (default: $HAAPI_PROFILE, else the one `haapi profiles use` chose, else `default`).",
        // Shell completion offers the saved profiles.
        completion: .custom { _, _, _ in Profile.names() })
    package var given: String?

    /// The profile to use: `--profile`, else the default one.
    package var name: String { given ?? Self.defaultName() }

    /// The profile commands use when `--profile` names none: `HAAPI_PROFILE`, else the one
    /// `haapi profiles use` saved, else `default`.
    static func defaultName() -> String { environmentName() ?? savedDefault() ?? "default" }

    /// `HAAPI_PROFILE`, when set.
    static func environmentName(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        environment["HAAPI_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The file `haapi profiles use` writes: the name alone.
    static var defaultFile: URL { Profile.home().appendingPathComponent("default-profile") }

    /// The profile `haapi profiles use` chose, when it names a valid profile name.
    static func savedDefault() -> String? {
        guard let data = FileManager.default.contents(atPath: defaultFile.path) else { return nil }
        let name = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return (try? Profile.validate(name)) == nil ? nil : name
    }

    /// Saves `name` as the default profile (`nil`: back to `default`), replacing the file atomically.
    static func setDefault(_ name: String?) throws {
        do {
            guard let name else {
                if FileManager.default.fileExists(atPath: defaultFile.path) { try FileManager.default.removeItem(at: defaultFile) }
                return
            }
            try Data((name + "\n").utf8).write(to: defaultFile, options: .atomic)
        } catch {
            throw CLIFailure("cannot save the default profile in \(defaultFile.path): \(error.localizedDescription)")
        }
    }
}
