import HaapiSDK

/// One option of a selector: an authenticator (or a device, or any nested choice).
public struct SelectorOptionModel: Sendable, Hashable {
    /// The option's action (submit its form to choose it).
    public let action: any Action
    /// The title to show: the action's title, else the authenticator type, else the kind.
    public var title: String { action.title?.literal ?? action.authenticatorType ?? action.kind.rawValue }
    /// `properties.authenticatorType` (`html-form`, `sms`, `google`, ...).
    public var authenticatorType: String? { action.authenticatorType }
    /// The option's kind (`select-authenticator`, `device-option`, ...).
    public var kind: ActionKind { action.kind }
    /// The option's form, when choosing it submits one.
    public let form: FormModel?
    /// Options nested under this one (a device selector holding device options).
    public let options: [SelectorOptionModel]

    /// A model of one option.
    public init(_ action: any Action) {
        self.action = action
        form = FormModel(action)
        options = (action.selector?.options ?? []).map(SelectorOptionModel.init)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.action.isEqualTo(rhs.action) }
    public func hash(into hasher: inout Hasher) { hasher.combine(action.rawJSON) }
}

/// A choice between options, presented as a list or as tabs.
public struct SelectorModel: Sendable, Hashable {
    /// The selector action as received.
    public let action: any Action
    /// The selector's title.
    public var title: String? { action.title?.literal }
    /// How to present it (from ``HaapiUIKitConfiguration/authenticationSelectionPresentation``).
    public let presentation: AuthenticatorSelectionPresentation
    /// The options.
    public let options: [SelectorOptionModel]

    /// The option with `authenticatorType`.
    public func option(authenticatorType: String) -> SelectorOptionModel? { options.first { $0.authenticatorType == authenticatorType } }

    /// A model of a selector action, or `nil` when `action` is not a selector.
    public init?(_ action: any Action, presentation: AuthenticatorSelectionPresentation) {
        guard let selector = action.selector else { return nil }
        self.action = action
        self.presentation = presentation
        options = selector.options.map(SelectorOptionModel.init)
    }

    /// A selector showing `options` of `action` (a data mapper that offers fewer, or in another order).
    public init(_ action: any Action, presentation: AuthenticatorSelectionPresentation, options: [SelectorOptionModel]) {
        self.action = action
        self.presentation = presentation
        self.options = options
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.action.isEqualTo(rhs.action) && lhs.presentation == rhs.presentation && lhs.options == rhs.options
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(action.rawJSON) }
}

/// One option of a selector (the seeds' `SelectorItemModel`; its `title` is the option's).
public typealias SelectorItemModel = SelectorOptionModel
