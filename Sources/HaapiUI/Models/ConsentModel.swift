import HaapiSDK

/// A consent step: the consent form (its checkboxes are the scopes or claims to grant) and the
/// other forms offered (usually `cancel`).
public struct ConsentModel: Sendable, Hashable {
    /// The form that grants consent (kind `user-consent`, else the first form that is not cancel).
    public let consent: FormModel?
    /// Every form of the step, the consent form included.
    public let forms: [FormModel]

    /// The consent form's checkboxes.
    public var checkboxes: [FieldModel] { consent?.fields.filter { $0.kind == .checkbox } ?? [] }
    /// The cancel form, if offered.
    public var cancel: FormModel? { forms.first(where: \.isCancel) }

    init(forms: [FormModel]) {
        self.forms = forms
        consent = forms.first { $0.kind == .userConsent } ?? forms.first { !$0.isCancel }
    }
}
