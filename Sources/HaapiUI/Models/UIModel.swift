import HaapiSDK

/// What a UI presents for the current step (the seeds' `UIModel`): the step's content by kind,
/// its messages and links, and the problem the server raised about the last submission.
public struct UIModel: Sendable {
    /// The step's content, by kind.
    public enum Content: Sendable {
        /// Forms to fill in (authentication and registration steps); cancel forms included.
        case form([FormModel])
        /// A choice of authenticator.
        case selector(SelectorModel)
        /// A wait for something outside the client.
        case polling(PollingModel)
        /// An operation the client performs (a browser, an app, WebAuthn).
        case clientOperation(ClientOperationModel)
        /// A consent to give.
        case consent(ConsentModel)
        /// The answer to a form with continue actions: the new messages, and those actions.
        case continueSameStep([FormModel])
        /// The flow reached the authorization response; the code is being exchanged.
        case authorizationResponse(OAuthAuthorizationResponseProperties)
        /// A step no kind above fits: render ``UIModel/forms``, ``UIModel/selectors``, messages and links.
        case generic
    }

    /// The step as received.
    public let representation: any HaapiRepresentation
    /// The content, by kind.
    public let content: Content
    /// The messages, in order.
    public let messages: [MessageModel]
    /// The links that are not images.
    public let links: [LinkModel]
    /// The image links (QR codes).
    public let images: [LinkModel]
    /// Every form action of the step, in order (for generic rendering).
    public let forms: [FormModel]
    /// Every selector action of the step.
    public let selectors: [SelectorModel]
    /// The problem about the last submission, when it stays on this step (its invalid fields
    /// are attached to the fields of ``forms`` and of the content).
    public let problem: ProblemModel?
    /// The server view that produced the step (`metadata.viewName`).
    public var viewName: String? { representation.metadata?.viewName }

    /// The heading: the first message styled as a heading.
    public var heading: String? { messages.first { $0.hasStyle(.heading) }?.text }

    /// The content's forms, whatever the kind.
    public var contentForms: [FormModel] {
        switch content {
        case .form(let forms), .continueSameStep(let forms): return forms
        case .consent(let model): return model.forms
        case .polling(let model): return model.cancel.map { [$0] } ?? []
        case .clientOperation(let model): return model.actions.continueActions + model.actions.errorActions
        default: return forms
        }
    }

    /// The form of kind `kind` among the content's forms, then the step's forms.
    public func form(kind: ActionKind) -> FormModel? {
        contentForms.first { $0.kind == kind } ?? forms.first { $0.kind == kind }
    }

    /// The cancel action the step offers, if any.
    public var cancelForm: FormModel? { form(kind: .cancel) }

    /// Whether the step offers the user (or the client) a way on: a form to submit, an option to
    /// choose, a link to follow, an operation with an action to continue or fail with, a wait,
    /// or the end of the flow. A step without one is a dead end (``UnsupportedStepError``).
    public var offersAction: Bool {
        switch content {
        case .polling, .authorizationResponse: return true
        case .selector(let selector): return !selector.options.isEmpty
        case .clientOperation(let operation): return !operation.actions.isEmpty || cancelForm != nil
        default: return !contentForms.isEmpty || !forms.isEmpty || selectors.contains { !$0.options.isEmpty } || !links.isEmpty
        }
    }

    /// Makes a model.
    public init(
        representation: any HaapiRepresentation, content: Content, messages: [MessageModel], links: [LinkModel], forms: [FormModel],
        selectors: [SelectorModel], problem: ProblemModel?
    ) {
        self.representation = representation
        self.content = content
        self.messages = messages
        self.links = links.filter { !$0.isImage }
        images = links.filter(\.isImage)
        self.forms = forms
        self.selectors = selectors
        self.problem = problem
    }
}
