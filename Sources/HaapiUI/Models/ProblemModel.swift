import HaapiSDK
import OAuthCore

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

/// A problem as a UI shows it: title, messages, the fields that were wrong.
public struct ProblemModel: Sendable {
    /// The problem as received.
    public let problem: any ProblemRepresentation
    /// The kind of problem, as the kit handles it (Curity's `ProblemModel.type`; optional as
    /// there, always set here). The type as received is `problem.type`.
    public var type: HandleableProblemType? { HandleableProblemType(problem.type) }
    /// The title: the server's, else the kit's (`hui_dev_runtime_title`) in the user's language.
    public var title: String { title(in: LocalizableStrings()) }

    /// The title: the server's, else the kit's (`hui_dev_runtime_title`) from `strings`.
    public func title(in strings: LocalizableStrings) -> String { problem.title?.literal ?? strings.string(.developerRuntimeTitle) }
    /// The messages.
    public let messages: [MessageModel]
    /// The links (`authorization-response` for OAuth errors).
    public let links: [LinkModel]
    /// For invalid-input problems: the wrong fields.
    public let invalidFields: [InvalidInputProblem.InvalidField]
    /// What a flow does about the problem.
    public var handling: Handling { Handling(problem.type) }
    /// Whether the user can correct the input and retry on the same step.
    public var isCorrectable: Bool { handling == .correctOnSameStep }
    /// The problem as received (for types this layer does not know: show ``title`` and ``messages``).
    public var rawJSON: JSONValue { problem.rawJSON }

    /// What a flow does about a problem, by type.
    public enum Handling: Sendable, Hashable {
        /// `invalid-input`, `incorrect-credentials`: the step stays, the complaints shown at its fields.
        case correctOnSameStep
        /// `too-many-attempts`, `authentication-failed`: the attempt is over; the flow stops with
        /// the server's message.
        case endAttempt
        /// `mismatch-between-session-and-access-token`: the HAAPI token changed under the flow;
        /// the flow starts again (once).
        case restartFlow
        /// `error-authorization-response`: the flow ends with the OAuth error.
        case authorizationError
        /// `unexpected`, `generic-user-error` and every unknown type: the flow stops, showing the
        /// problem's title and messages.
        case stop

        /// The handling of a problem type.
        public init(_ type: ProblemType) {
            switch type {
            case .invalidInputProblem, .incorrectCredentialsProblem: self = .correctOnSameStep
            case .tooManyAttemptsProblem, .authenticationFailedProblem: self = .endAttempt
            case .sessionAndAccessTokenMismatchProblem: self = .restartFlow
            case .errorAuthorizationResponseProblem: self = .authorizationError
            default: self = .stop
            }
        }
    }

    /// A model of `problem`.
    public init(_ problem: any ProblemRepresentation) {
        self.problem = problem
        messages = problem.messages.map(MessageModel.init)
        links = problem.links.map(LinkModel.init)
        invalidFields = (problem as? InvalidInputProblem)?.invalidFields ?? []
    }
}
