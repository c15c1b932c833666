import ArgumentParser
import Foundation

/// `--profile NAME`: which saved login a command works on.
struct ProfileOption: ParsableArguments {
    @Option(name: .customLong("profile"), help: "The profile that keeps the settings and tokens (default: $HAAPI_PROFILE, else `default`).")
    var given: String?

    /// The profile to use: `--profile`, else `HAAPI_PROFILE`, else `default`.
    var name: String { given ?? Self.fromEnvironment() }

    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        environment["HAAPI_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
    }
}
