import ArgumentParser
import Foundation
import OAuthCore
import OIDCClient

/// The level of `--log-level`.
enum LogLevel: String, ExpressibleByArgument, CaseIterable {
    case debug, info, warning, error
}

/// `--log-level` and `--unmask`: HaapiLogger on for every layer's tags, to standard error.
package struct LogOptions: ParsableArguments {
    package init() {}

    @Option(help: "Log every layer (HAAPI and browser login) to standard error from this level on (debug, info, warning, error).")
    var logLevel: LogLevel?

    @Flag(help: "Do not mask tokens, secrets and passwords in the log (debugging only).")
    var unmask = false

    /// Configures HaapiLogger for the driver's and the browser login's tags, and `moreTags` (a
    /// HAAPI login's SDK tags).
    package func apply(moreTags: [any FollowUpTag] = []) {
        guard let logLevel else {
            Self.applyDefault()
            return
        }
        HaapiLogger.followUpTags = DriverFollowUpTag.allCases + OIDCFollowUpTag.allCases + moreTags
        HaapiLogger.isConsoleEnabled = true
        HaapiLogger.isDebugEnabled = logLevel == .debug
        HaapiLogger.isInfoEnabled = [.debug, .info].contains(logLevel)
        HaapiLogger.isWarningEnabled = logLevel != .error
        HaapiLogger.isErrorEnabled = true
        if unmask { HaapiLogger.isSensitiveValueMasked = false }
    }

    /// No `--log-level`: nothing is logged.
    static func applyDefault() { HaapiLogger.followUpTags = [] }
}
