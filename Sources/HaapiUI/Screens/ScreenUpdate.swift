import Foundation

/// How the screen on show becomes the next screen of the same kind (a wait's next answer), element
/// by element, so that the kit patches what changed in place: BankID's help stays open, a tap on
/// Cancel is not lost to a rebuild, and VoiceOver keeps its place.
///
/// A stack (messages, content, links) whose elements are the same kinds in the same order is
/// patched: each element is kept when it is unchanged, else replaced where it is. A stack whose
/// elements differ in number or kind, or in which something to tap or type into changed (its
/// view holds the user's input and the screen's actions), is drawn again.
public struct ScreenUpdate: Sendable, Hashable {
    /// What happens to one element of a stack.
    public enum Change: Sendable, Hashable {
        /// The element is unchanged: its view stays as it is.
        case keep
        /// The element changed (a countdown, a QR code, a message's words): its view is replaced in place.
        case replace
    }

    /// The changes to the messages, element by element (`nil`: the stack is drawn again).
    public let messages: [Change]?
    /// The changes to the content (`nil`: drawn again).
    public let content: [Change]?
    /// The changes to the links (`nil`: drawn again).
    public let links: [Change]?

    /// Whether nothing at all is drawn again or replaced.
    public var isEmpty: Bool {
        [messages, content, links].allSatisfy { $0?.allSatisfy { $0 == .keep } ?? false }
    }

    /// The update from `shown` to `next`.
    public init(from shown: Screen, to next: Screen) {
        messages = Self.changes(shown.messages, next.messages)
        content = Self.changes(shown.content, next.content)
        links = Self.changes(shown.links, next.links)
    }

    private static func changes(_ shown: [ScreenItem], _ next: [ScreenItem]) -> [Change]? {
        guard shown.count == next.count, zip(shown, next).allSatisfy({ $0.slot == $1.slot && ($0 == $1 || $1.isDisplay) }) else {
            return nil
        }
        return zip(shown, next).map { $0 == $1 ? .keep : .replace }
    }
}

extension ScreenItem {
    /// Whether the element only shows something (nothing to tap or type into).
    var isDisplay: Bool {
        switch self {
        case .message, .text, .section, .loadingIndicator, .countdown, .image, .qrCode, .serverImage, .expandable: return true
        case .textField, .checkbox, .picker, .button, .tabs, .link: return false
        }
    }

    /// What place an element takes in its stack: its kind, with what makes it another element
    /// rather than the same one changed (a message's style, a field's or a button's name).
    var slot: String {
        switch self {
        case .message(_, let style): return "message \(style)"
        case .text: return "text"
        case .section: return "section"
        case .textField(let field): return "textField \(field.name)"
        case .checkbox(let box): return "checkbox \(box.name)"
        case .picker(let picker): return "picker \(picker.name)"
        case .button(let button): return "button \(button.style)"
        case .tabs(let titles, _): return "tabs \(titles)"
        case .loadingIndicator: return "loadingIndicator"
        case .countdown: return "countdown"
        case .image(let name, _): return "image \(name)"
        case .qrCode: return "qrCode"
        case .serverImage: return "serverImage"
        case .expandable: return "expandable"
        case .link: return "link"
        }
    }
}
