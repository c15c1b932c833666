import HaapiSDK

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
    /// Whether the user can correct the input and retry on the same step.
    public var isCorrectable: Bool { problem.type.isRetryableOnSameStep }

    /// A model of `problem`.
    public init(_ problem: any ProblemRepresentation) {
        self.problem = problem
        messages = problem.messages.map(MessageModel.init)
        links = problem.links.map(LinkModel.init)
        invalidFields = (problem as? InvalidInputProblem)?.invalidFields ?? []
    }
}
