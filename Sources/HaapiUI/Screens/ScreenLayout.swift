import Foundation

/// How the kit lays a ``Screen`` out, resolved from the theme: the frame the flow draws around
/// every screen (the navigation bar with its title and the way out, the safe area, the flow's
/// background and padding), the screen's own background and padding, its header, and the three
/// stacks (messages, content, links) with their spacing, alignment and padding.
///
/// One value, drawn twice: the UIKit screens lay their stacks and bar out from it, and
/// `haapi preview` draws the same values as a page, so the preview is the screen by construction.
public struct ScreenLayout: Sendable, Hashable {
    /// A vertical stack of elements.
    public struct Stack: Sendable, Hashable {
        /// The space between its elements, in points.
        public let spacing: Double
        /// How its elements line up across: `fill` stretches them, `center` centres each at its own width.
        public let alignment: StackViewStyle.Alignment
        /// Its padding.
        public let padding: PaddingStyle
        /// Its background's colour name (`nil`: none).
        public let backgroundColorName: String?

        /// The stack `style` describes.
        public init(_ style: StackViewStyle) {
            (spacing, alignment, padding) = (style.spacing, style.stackAlignment, style.commonUIStyle.paddingStyle)
            backgroundColorName = style.commonUIStyle.backgroundColorName
        }

        /// A stack.
        public init(spacing: Double, alignment: StackViewStyle.Alignment, padding: PaddingStyle, backgroundColorName: String? = nil) {
            (self.spacing, self.alignment, self.padding, self.backgroundColorName) = (spacing, alignment, padding, backgroundColorName)
        }

        /// The content stack of a screen whose style names none (the generic and problem screens):
        /// 16 points apart, each element the stack's width.
        public static let defaultContent = Stack(spacing: 16, alignment: .fill, padding: PaddingStyle(top: 0, right: 0, bottom: 0, left: 0))
    }

    /// The way out of the flow, at the leading end of the navigation bar.
    public enum Leave: String, Sendable, Hashable {
        /// ✕ (the flow is a sheet, or the first screen of a stack of its own).
        case close
        /// Back (the flow was pushed on the app's stack).
        case back
    }

    /// The bar over every screen.
    public struct NavigationBar: Sendable, Hashable {
        /// Its title: the screen's first heading (`nil`: none).
        public let title: String?
        /// The way out.
        public let leave: Leave
        /// The close button's image name (`closeButtonImageName`).
        public let closeImageName: String
        /// The close button's tint (`closeButtonTintColorName`).
        public let tintColorName: String?
        /// The close button's tappable width, in points: the theme's, at least 44.
        public let targetWidth: Double
        /// The close button's tappable height, in points: the theme's, at least 44.
        public let targetHeight: Double
    }

    /// The header over the stacks (`HeaderView`).
    public struct Header: Sendable, Hashable {
        /// The app's logo's image name, when the theme names one.
        public let imageName: String?
        /// The key of the header's title, when the theme names one.
        public let title: String?
    }

    /// The three stacks of a screen of `style`: its messages, its content (its own, else
    /// ``Stack/defaultContent``) and its links. What the UIKit screens lay their stacks out with.
    public static func stacks(of style: any UIViewControllerStyle) -> (messages: Stack, content: Stack, links: Stack) {
        (
            Stack(style.commonVCStyle.messagesStyle), ((style as? any ContentStackStyled)?.contentStyle).map(Stack.init) ?? .defaultContent,
            Stack(style.commonVCStyle.linksStyle)
        )
    }

    /// The screen laid out.
    public let screen: Screen
    /// The bar over it.
    public let navigationBar: NavigationBar
    /// The flow's background colour name (`HaapiFlowViewController.backgroundColorName`).
    public let flowBackgroundColorName: String?
    /// The flow's padding around every screen.
    public let flowPadding: PaddingStyle
    /// The screen's own background colour name and padding (its theme section's).
    public let backgroundColorName: String?
    /// The screen's padding.
    public let padding: PaddingStyle
    /// The header over the stacks, when the theme names a logo or a title for it.
    public let header: Header?
    /// The messages' stack (`messagesStyle`).
    public let messages: Stack
    /// The content's stack (`contentStyle`, else ``Stack/defaultContent``).
    public let content: Stack
    /// The links' stack (`linksStyle`).
    public let links: Stack

    /// The layout of `screen` in `theme`, the flow left by `leave`.
    /// - Throws: ``ThemeError`` when the theme lacks a style the layout needs.
    public init(_ screen: Screen, theme: Theme, leave: Leave = .close) throws(ThemeError) {
        self.screen = screen
        let flow = try theme.style(HaapiFlowViewControllerStyle.self, named: HaapiFlowViewControllerStyle.themeSection)
        navigationBar = NavigationBar(
            title: screen.navigationTitle, leave: leave, closeImageName: flow.closeButtonImageName,
            tintColorName: flow.closeButtonTintColorName,
            targetWidth: max(flow.closeButtonMinWidth, ScreenAccessibility.minimumTarget),
            targetHeight: max(flow.closeButtonMinHeight, ScreenAccessibility.minimumTarget))
        (flowBackgroundColorName, flowPadding) = (flow.backgroundColorName, flow.commonUIStyle.paddingStyle)
        let style = try theme.screenStyle(of: screen.kind)
        (backgroundColorName, padding) = (style.commonUIStyle.backgroundColorName, style.commonUIStyle.paddingStyle)
        (messages, content, links) = Self.stacks(of: style)
        let headerStyle = try theme.style(HeaderViewStyle.self, named: "HeaderView")
        header =
            headerStyle.imageName == nil && headerStyle.titleText == nil
            ? nil : Header(imageName: headerStyle.imageName, title: headerStyle.titleText)
    }
}

extension Screen {
    /// The navigation bar's title: the screen's first heading (`nil`: none).
    public var navigationTitle: String? {
        messages.lazy.compactMap { if case .message(let text, MessageStyleAttribute.heading.themeSection) = $0 { text } else { nil } }.first
    }
}

extension Theme {
    /// The style of the screen that shows a step of `kind` (`FormViewController`, ...).
    /// - Throws: ``ThemeError`` when the theme lacks it or it is malformed.
    public func screenStyle(of kind: ScreenKind) throws(ThemeError) -> any UIViewControllerStyle {
        switch kind {
        case .form: return try style(FormViewControllerStyle.self)
        case .selector: return try style(SelectorViewControllerStyle.self)
        case .polling: return try style(PollingViewControllerStyle.self)
        case .bankID: return try style(BankIdViewControllerStyle.self)
        case .webAuthn: return try style(WebAuthnViewControllerStyle.self)
        case .problem: return try style(ProblemViewControllerStyle.self)
        case .generic: return try style(GenericViewControllerStyle.self)
        }
    }
}
