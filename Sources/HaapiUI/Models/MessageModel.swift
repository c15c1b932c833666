import HaapiSDK

/// How the kit shows a message (Curity's names); each has its theme section (`MessageView.*`).
public enum MessageStyleAttribute: String, Codable, Sendable, CaseIterable {
    /// A heading over the step (class `heading`).
    case heading
    /// Information (class `info`).
    case info
    /// An error (class `error` or `is-error`).
    case error
    /// A warning (class `warning`).
    case warn
    /// Whom a code or request was sent to (class `recipientOfCommunication`).
    case recipientofcommunication
    /// Any other text of the step.
    case content
    /// A user name (class `username`).
    case username
    /// A code for the user to type elsewhere (class `userCode`).
    case usercode

    /// The theme section of the message view's style.
    public var themeSection: String {
        switch self {
        case .heading: return "MessageView.Heading"
        case .info: return "MessageView.Info"
        case .error: return "MessageView.Error"
        case .warn: return "MessageView.Warn"
        case .recipientofcommunication: return "MessageView.RecipientOfCommunication"
        case .content: return "MessageView.Content"
        case .username: return "MessageView.Username"
        case .usercode: return "MessageView.UserCode"
        }
    }
}

extension MessageStyleAttribute {
    /// The style whose ``themeSection`` is `section` (`MessageView.Error`); content for any other section.
    public init(themeSection section: String) {
        self = Self.allCases.first { $0.themeSection == section } ?? .content
    }

    /// The style a message's classes give it, if one of them is a class the kit knows. Several
    /// known classes (`["info", "userCode"]`: a recovery code) give the style that says the most,
    /// as Curity's kit does: a code the user copies, then a heading, an error, a warning,
    /// information, a user name, a recipient; the classes' order does not matter.
    public init?(knownClassList classList: [String]) {
        let named = Set(classList.map { $0.lowercased() })
        let precedence: [(Set<String>, MessageStyleAttribute)] = [
            (["usercode", "user-code"], .usercode), (["heading"], .heading), (["error", "is-error"], .error), (["warning"], .warn),
            (["info"], .info), (["username", "user-name"], .username),
            (["recipient", "recipientofcommunication"], .recipientofcommunication),
        ]
        guard let found = precedence.first(where: { !$0.0.isDisjoint(with: named) }) else { return nil }
        self = found.1
    }

    /// The style a message's classes give it; any other message is content.
    public init(classList: [String]) { self = Self(knownClassList: classList) ?? .content }
}
