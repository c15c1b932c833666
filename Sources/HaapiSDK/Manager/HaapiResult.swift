/// The outcome of a HAAPI request (the seeds' `HaapiResult`).
public enum HaapiResult: Sendable {
    /// A step to present.
    case representation(any HaapiRepresentation)
    /// A problem: the user or the client must correct something.
    case problem(any ProblemRepresentation)
    /// An error that may end the flow; it conforms to `IdsvrError`.
    case error(any Error)

    /// The step, if this is one.
    public var representation: (any HaapiRepresentation)? {
        if case .representation(let step) = self { return step }
        return nil
    }

    /// The problem, if this is one.
    public var problem: (any ProblemRepresentation)? {
        if case .problem(let problem) = self { return problem }
        return nil
    }

    /// The error, if this is one.
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }
}
