import Foundation

/// The package's folders under the XDG Base Directory Specification (0.8): what a desktop or
/// server keeps for the user outside Apple platforms' containers.
package enum XDGDirectory {
    /// Data: `$XDG_DATA_HOME/swift-haapi`, else `~/.local/share/swift-haapi`.
    package static func data(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        base("XDG_DATA_HOME", else: ".local/share", environment: environment).appendingPathComponent("swift-haapi")
    }

    /// Configuration: `$XDG_CONFIG_HOME/swift-haapi`, else `~/.config/swift-haapi`.
    package static func config(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        base("XDG_CONFIG_HOME", else: ".config", environment: environment).appendingPathComponent("swift-haapi")
    }

    /// The variable's folder; the spec says an empty or relative value is to be ignored.
    private static func base(_ variable: String, else fallback: String, environment: [String: String]) -> URL {
        if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
        return home(environment: environment).appendingPathComponent(fallback, isDirectory: true)
    }

    /// The user's home: `$HOME` when it is an absolute path (as every Unix program takes it;
    /// Foundation's `NSHomeDirectory()` on Linux reads the password database and ignores it), else
    /// `NSHomeDirectory()` (`homeDirectoryForCurrentUser` does not exist on iOS).
    package static func home(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["HOME"], home.hasPrefix("/") { return URL(fileURLWithPath: home, isDirectory: true) }
        return URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
    }
}
