import HaapiSDK

/// A form action as a UI shows it: its fields and its button.
public struct FormModel: Sendable, Hashable {
    /// The action as received.
    public let action: FormAction
    /// What the form does (`login`, `cancel`, `continue`, `user-consent`, ...).
    public var kind: ActionKind { action.kind }
    /// The action's title.
    public var title: String? { action.title?.literal }
    /// The button's title: the form's `actionTitle`, else the action's title, else the kind.
    public var actionTitle: String { form.actionTitle?.literal ?? action.title?.literal ?? action.kind.rawValue }
    /// The form model.
    public let form: FormActionModel
    /// The fields, in order (hidden and context fields included: check ``FieldModel/isUserInput``).
    public let fields: [FieldModel]

    /// The fields the user fills in.
    public var inputFields: [FieldModel] { fields.filter(\.isUserInput) }
    /// Whether this form abandons the flow.
    public var isCancel: Bool { action.kind == .cancel }
    /// The field named `name`.
    public func field(_ name: String) -> FieldModel? { fields.first { $0.name == name } }
    /// Whether some field carries a complaint from the server.
    public var hasErrors: Bool { fields.contains { $0.error != nil } }

    /// A model of a form action, or `nil` when `action` is not a form.
    /// - Parameters:
    ///   - invalidInput: the problem whose invalid fields are attached to the fields by name.
    ///   - enteredValues: what the user submitted last (passwords are never kept).
    public init?(_ action: any Action, invalidInput: InvalidInputProblem? = nil, enteredValues: [String: String] = [:]) {
        guard let action = action as? FormAction else { return nil }
        self.init(action, invalidInput: invalidInput, enteredValues: enteredValues)
    }

    /// A model of a form action.
    public init(_ action: FormAction, invalidInput: InvalidInputProblem? = nil, enteredValues: [String: String] = [:]) {
        self.action = action
        let form = action.model
        self.form = form
        fields = form.fields.map { field in
            let invalid = invalidInput?.invalidField(named: field.name)
            return FieldModel(
                field, enteredValue: field.isHidden ? nil : enteredValues[field.name],
                error: invalid.map { FieldErrorModel(reason: $0.reason, detail: $0.detail.literal.isEmpty ? nil : $0.detail.literal) })
        }
    }
}
