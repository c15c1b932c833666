import ArgumentParser
import Foundation
import OAuthCore

/// `--min-ttl SECONDS`: the lifetime the access token must have left, or it is refreshed first.
package struct MinimumLifetimeOption: ParsableArguments {
    package init() {}

    // Unconditional: `--min-ttl -5` is a (refused) value, not a missing one.
    @Option(name: .customLong("min-ttl"), parsing: .unconditional, help: "Refresh first when the token has fewer seconds than this left.")
    package var seconds: Int = MinimumLifetimeOption.defaultSeconds

    /// `--min-ttl`'s default.
    static let defaultSeconds = 30

    /// `--min-ttl` in seconds, at most ``OutsideNumber/longestSeconds`` (any more is that long).
    package var interval: TimeInterval { TimeInterval(OutsideNumber.seconds(seconds)) }

    package func validate() throws {
        guard seconds >= 0 else { throw ValidationError("--min-ttl must be 0 or more seconds, not \(seconds)") }
    }
}

/// `text` as an absolute URL with a scheme and a host, as a request needs; `nil` otherwise.
package func absoluteURL(_ text: String?) -> URL? {
    guard let text, let url = URL(string: text), url.scheme != nil, url.host != nil else { return nil }
    return url
}
