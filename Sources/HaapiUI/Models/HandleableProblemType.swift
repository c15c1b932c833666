import HaapiSDK

/// The problems the kit tells apart (Curity's names); every other type is `unhandleable`: its
/// title and messages are shown and the flow stops.
public enum HandleableProblemType: String, Codable, Sendable, CaseIterable {
    /// `authentication-failed`: the attempt is over.
    case authenticationFailedProblem
    /// `invalid-input`: fields to correct on the same step.
    case invalidInputProblem
    /// `incorrect-credentials`: try again on the same step.
    case incorrectCredentialsProblem
    /// `mismatch-between-session-and-access-token`: the flow starts again.
    case sessionAndAccessTokenMismatchProblem
    /// `too-many-attempts`: the attempt is over (the account may be locked).
    case tooManyAttemptsProblem
    /// Any other problem: its title and messages are shown and the flow stops.
    case unhandleable

    /// The kind of a problem of `type`.
    public init(_ type: ProblemType) {
        switch type {
        case .authenticationFailedProblem: self = .authenticationFailedProblem
        case .invalidInputProblem: self = .invalidInputProblem
        case .incorrectCredentialsProblem: self = .incorrectCredentialsProblem
        case .sessionAndAccessTokenMismatchProblem: self = .sessionAndAccessTokenMismatchProblem
        case .tooManyAttemptsProblem: self = .tooManyAttemptsProblem
        default: self = .unhandleable
        }
    }
}
