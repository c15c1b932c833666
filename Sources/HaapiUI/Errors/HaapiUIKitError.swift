import Foundation
import HaapiDriver
import HaapiSDK
import OAuthCore

/// The errors of the UI layer itself (the seeds' `HaapiUIKitError`), each with IdsvrError metadata.
/// Errors of the layers below (``/HaapiDriver/HaapiError``, problems) reach the app as they are.
public enum HaapiUIKitError: IdsvrError {
    /// The operation is not possible in the flow's current state (no step to submit, nothing to resume).
    case illegalState(_ reason: String)
    /// A model could not be mapped: `objName` was found where `expectedObjName` was needed.
    case unsupportedMap(objName: String, expectedObjName: String)
    /// The step asks for something this platform or UI cannot do.
    case unsupported(cause: String)
    /// Any other error, as it occurred.
    case other(_ error: any Error)

    /// `illegal_state`, `unsupported_map`, `unsupported`; for ``other(_:)``, the wrapped error's code when it
    /// has one, else `other`.
    public var error: String {
        switch self {
        case .illegalState: return "illegal_state"
        case .unsupportedMap: return "unsupported_map"
        case .unsupported: return "unsupported"
        case .other(let error): return (error as? any IdsvrError)?.error ?? "other"
        }
    }

    /// The reason, the two type names, the cause, or the wrapped error's description.
    public var errorDescription: String? {
        switch self {
        case .illegalState(let reason): return reason
        case .unsupportedMap(let objName, let expectedObjName): return "\(objName) cannot be mapped to \(expectedObjName)"
        case .unsupported(let cause): return cause
        case .other(let error): return (error as? any IdsvrError)?.errorDescription ?? String(describing: error)
        }
    }

    /// The wrapped error's reason for ``other(_:)``; otherwise the description.
    public var failureReason: String {
        if case .other(let error as any IdsvrError) = self { return error.failureReason }
        return errorDescription ?? error
    }

    /// A new flow for an illegal state; a configuration change for what cannot be mapped or done; the wrapped
    /// error's own for ``other(_:)``.
    public var recoverySuggestion: IdsvrErrorHandling {
        switch self {
        case .illegalState: return .newHaapiFlow
        case .unsupportedMap, .unsupported: return .unrecoverable(action: .modifyConfiguration(reason: errorDescription ?? error))
        case .other(let error): return (error as? any IdsvrError)?.recoverySuggestion ?? .unrecoverable(action: .introspectCause)
        }
    }

    /// The wrapped error of ``other(_:)``; `nil` otherwise.
    public var cause: (any Error)? {
        if case .other(let error) = self { return error }
        return nil
    }
}

extension HaapiUIKitError: LocalizedError, Equatable {
    /// Whether two errors are the same case with the same values; two wrapped errors are equal
    /// when they print the same in full (`String(reflecting:)`: their type and their values).
    public static func == (lhs: HaapiUIKitError, rhs: HaapiUIKitError) -> Bool {
        switch (lhs, rhs) {
        case (.illegalState(let a), .illegalState(let b)): return a == b
        case (.unsupportedMap(let a, let b), .unsupportedMap(let c, let d)): return a == c && b == d
        case (.unsupported(let a), .unsupported(let b)): return a == b
        case (.other(let a), .other(let b)): return String(reflecting: a) == String(reflecting: b)
        default: return false
        }
    }
}
