import Foundation
import HaapiSDK

/// Why the system's passkey sheet gave no credential, as the kit tells the cases apart (the
/// UIKit layer reads it from `ASAuthorizationError`; a test or another UI names it directly).
public enum PasskeyFailure: Sendable, Hashable, CustomStringConvertible {
    /// The user closed the sheet, or it ran out of time.
    case cancelled
    /// No passkey of this account is on the device or in its password manager.
    case noCredentials
    /// The app's associated domains do not name the server's relying party, so the system
    /// refuses the ceremony: a defect of the app's setup, not of the user.
    case appAssociation
    /// The device offers no authenticator of the kind asked for.
    case notSupported
    /// Anything else; its description is logged, never shown.
    case failed(String)

    /// The failure named `name` (`cancelled`, `no-credentials`, `app-association`, `not-supported`, `failed`).
    public init?(name: String) {
        switch name {
        case "cancelled": self = .cancelled
        case "no-credentials": self = .noCredentials
        case "app-association": self = .appAssociation
        case "not-supported": self = .notSupported
        case "failed": self = .failed("named")
        default: return nil
        }
    }

    /// Its name (see ``init(name:)``).
    public var description: String {
        switch self {
        case .cancelled: return "cancelled"
        case .noCredentials: return "no-credentials"
        case .appAssociation: return "app-association"
        case .notSupported: return "not-supported"
        case .failed: return "failed"
        }
    }
}

/// What the passkey screen shows after a ``PasskeyFailure``: decided once, here, for UIKit, the
/// terminal and tests alike (``HaapiFlowViewModel/passkeyDidFail(_:kind:)``).
public enum PasskeyFailureOutcome: String, Sendable, Hashable, CaseIterable {
    /// "Cancelled or timed out", with a button that tries again.
    case retry
    /// "No passkey was found", over the screen's choices and links (one may register a passkey).
    case noCredentials
    /// "This app is not set up for passkeys", over the screen's other ways on.
    case appAssociation
    /// "Passkeys could not be used", with a button that goes on in the browser (the step's
    /// fallback, which the configuration allows: ``HaapiUIKitConfiguration/usePasskeysBrowserFallback``).
    case fallback
    /// "This device cannot use passkeys": no browser fallback is offered or allowed; only the
    /// step's other ways on (cancel) remain.
    case unavailable
    /// Nothing changes: the failure came after the flow left the passkey step.
    case nothing

    /// The outcome of `failure` on a passkey step, where `fallbackAllowed` says whether the step
    /// offers a browser fallback the configuration lets the kit take. A cancel is never taken
    /// for a failure: the user may try again, and the browser never opens without a tap.
    public init(_ failure: PasskeyFailure, fallbackAllowed: Bool) {
        switch failure {
        case .cancelled: self = .retry
        case .noCredentials: self = .noCredentials
        case .appAssociation: self = .appAssociation
        case .notSupported, .failed: self = fallbackAllowed ? .fallback : .unavailable
        }
    }
}
