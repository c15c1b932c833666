import HaapiSDK
import OAuthCore

/// A problem as a UI shows it: title, messages, the fields that were wrong.
public struct ProblemModel: Sendable {
    /// The problem as received.
    public let problem: any ProblemRepresentation
    /// Its type.
    public var type: ProblemType { problem.type }
    /// The title: the server's, else a generic one.
    public var title: String { problem.title ?? "Something went wrong" }
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
            case .invalidInput, .incorrectCredentials: self = .correctOnSameStep
            case .tooManyAttempts, .authenticationFailed: self = .endAttempt
            case .mismatchBetweenSessionAndAccessToken: self = .restartFlow
            case .errorAuthorizationResponse: self = .authorizationError
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
