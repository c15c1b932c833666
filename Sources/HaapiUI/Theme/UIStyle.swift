import Foundation

/// A style read from a ``Theme`` section (the seeds' `UIStyle`). Colours and images are held by
/// their `hui_*` names: on Apple platforms the app's asset catalog is asked first, then the kit's
/// palette (``Colors``, ``Images``), so an app recolours the kit by adding a colour set.
///
/// The kit's styles are final classes where Curity's are (``TextAppearance``, the view and screen
/// styles), so an app's code written against Curity's kit sees the same kinds of types; the parts
/// Curity keeps as structs (``CommonUIStyle``, ``PaddingStyle``, ``CommonViewControllerStyle``,
/// ``HaapiUIViewControllerStyle``) are structs here too. The styles Curity makes `Equatable`
/// (``CommonUIStyle``, ``PaddingStyle``, ``TextAppearance``, ``StackViewStyle``, ``LoadingIndicatorViewStyle``,
/// ``NotificationBannerViewStyle``) compare their values; the others, as Curity's, are not `Equatable`,
/// so an app's own style need not be either.
public protocol UIStyle: Decodable, Sendable {
    /// The padding and background every style has.
    var commonUIStyle: CommonUIStyle { get }
}

extension UIStyle {
    /// The padding on the left (leading) side.
    public var paddingLeft: Double { commonUIStyle.paddingStyle.left }
    /// The padding on top.
    public var paddingTop: Double { commonUIStyle.paddingStyle.top }
    /// The padding on the right (trailing) side.
    public var paddingRight: Double { commonUIStyle.paddingStyle.right }
    /// The padding at the bottom.
    public var paddingBottom: Double { commonUIStyle.paddingStyle.bottom }
    /// The background colour's name, if the style has one.
    public var backgroundColorName: String? { commonUIStyle.backgroundColorName }
}

/// The padding and background of a style (keys `paddingTop`, `paddingRight`, `paddingBottom`,
/// `paddingLeft`, `backgroundColorName`; each may be left out).
public struct CommonUIStyle: UIStyle, Equatable {
    /// The padding.
    public let paddingStyle: PaddingStyle
    /// The background colour's name; `nil` when none (`""` in the plist).
    public let backgroundColorName: String?

    /// The style itself: it is its own padding and background.
    public var commonUIStyle: CommonUIStyle { self }

    private enum CodingKeys: String, CodingKey { case backgroundColorName }

    /// Reads the padding keys and `backgroundColorName`.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        paddingStyle = try PaddingStyle(from: decoder)
        backgroundColorName = try values.name(.backgroundColorName)
    }
}

/// Space inside a view's edges, in points.
public struct PaddingStyle: Decodable, Sendable, Hashable {
    /// The space at the top, in points.
    public let top: Double
    /// The space on the right (trailing) side, in points.
    public let right: Double
    /// The space at the bottom, in points.
    public let bottom: Double
    /// The space on the left (leading) side, in points.
    public let left: Double

    /// A padding.
    public init(top: Double, right: Double, bottom: Double, left: Double) {
        (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
    }

    private enum CodingKeys: String, CodingKey { case paddingTop, paddingRight, paddingBottom, paddingLeft }

    /// Reads `paddingTop`, `paddingRight`, `paddingBottom` and `paddingLeft`; a missing one is 0.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            top: values.number(.paddingTop), right: values.number(.paddingRight), bottom: values.number(.paddingBottom),
            left: values.number(.paddingLeft))
    }
}

/// The style of a screen (the seeds' `UIViewControllerStyle`): its header, its message and link
/// stacks, its padding and background.
public protocol UIViewControllerStyle: UIStyle {
    /// What every screen's style has.
    var commonVCStyle: CommonViewControllerStyle { get }
    /// The theme section that describes this screen (`FormViewController`, ...).
    static var themeSection: String { get }
}

extension UIViewControllerStyle {
    /// The screen's padding and background, from ``commonVCStyle``.
    public var commonUIStyle: CommonUIStyle { commonVCStyle.commonUIStyle }
    /// The header's text appearance.
    public var headerTextAppearance: TextAppearance { commonVCStyle.headerTextAppearance }
    /// The header's colour name.
    public var headerTextColorName: String { commonVCStyle.headerTextColorName }
    /// The stack of messages.
    public var messagesStyle: StackViewStyle { commonVCStyle.messagesStyle }
    /// The stack of links.
    public var linksStyle: StackViewStyle { commonVCStyle.linksStyle }
}

/// What every screen's style has (the seeds' `BaseViewControllerStyle`).
public typealias BaseViewControllerStyle = CommonViewControllerStyle

/// What every screen's style has (keys `headerTextAppearance`, `headerTextColorName`,
/// `messagesStyle`, `linksStyle`, and the common ones).
public struct CommonViewControllerStyle: Decodable, Sendable {
    /// The screen's padding and background.
    public let commonUIStyle: CommonUIStyle
    /// How the header's text looks.
    public let headerTextAppearance: TextAppearance
    /// The header text's colour name.
    public let headerTextColorName: String
    /// The stack of the screen's messages.
    public let messagesStyle: StackViewStyle
    /// The stack of the screen's links.
    public let linksStyle: StackViewStyle

    private enum CodingKeys: String, CodingKey { case headerTextAppearance, headerTextColorName, messagesStyle, linksStyle }

    /// Reads the keys every screen section has; the styles they name are read from their sections.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        (headerTextAppearance, headerTextColorName) = try values.text(.headerTextAppearance, .headerTextColorName, in: decoder)
        messagesStyle = try values.style(StackViewStyle.self, forKey: .messagesStyle, in: decoder)
        linksStyle = try values.style(StackViewStyle.self, forKey: .linksStyle, in: decoder)
    }
}

/// How a text looks (sections `TextAppearance.*`): the text style, its point size from the
/// theme's `UICTFontTextStyle*` values, the theme's font family, a trait, alignment, letter
/// spacing and line height.
public final class TextAppearance: UIStyle, Equatable {
    /// A font trait.
    public enum SymbolicTrait: String, Sendable, CaseIterable {
        /// UIKit's bold trait (`traitBold` in a theme).
        case bold = "traitBold"
        /// UIKit's italic trait (`traitItalic`).
        case italic = "traitItalic"
        /// UIKit's monospace trait (`traitMonoSpace`).
        case monoSpace = "traitMonoSpace"
        /// UIKit's condensed trait (`traitCondensed`).
        case condensed = "traitCondensed"
    }

    /// A text alignment.
    public enum Alignment: String, Sendable, CaseIterable {
        /// The text alignments of UIKit's `NSTextAlignment`, by the same names.
        case natural, left, center, right, justified
    }

    /// The text's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The text style's name (`UICTFontTextStyleBody`, ... or one the theme adds); on Apple
    /// platforms `fontTextStyle` is it as a `UIFont.TextStyle`.
    public let textStyleName: String
    /// Its point size, before Dynamic Type scales it.
    public let pointSize: Double
    /// The font family; `nil` for the system font.
    public let fontName: String?
    /// The trait, if any (theme key `fontSymbolicTrait`; on Apple platforms `fontSymbolicTrait`
    /// is it as UIKit's).
    public let symbolicTrait: SymbolicTrait?
    /// The alignment (theme key `textAlignment`; on Apple platforms `textAlignment` is it as an
    /// `NSTextAlignment`).
    public let alignment: Alignment
    /// The line height as a multiple of the font's; 0 leaves it to the font.
    public let lineHeightMultiple: Double
    /// Extra space between letters, in points.
    public let kern: Double

    private enum CodingKeys: String, CodingKey {
        case fontStyleName
        case symbolicTrait = "fontSymbolicTrait"
        case alignment = "textAlignment"
        case lineHeightMultiple, kern
    }

    /// Reads the section; the point size is the theme's top-level number named by `fontStyleName`, the font
    /// family the theme's `fontName`.
    /// - Throws: `DecodingError` when the theme gives no point size for the text style.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let theme = try ThemeResolution.of(decoder).theme
        commonUIStyle = try CommonUIStyle(from: decoder)
        textStyleName = try values.decode(String.self, forKey: .fontStyleName)
        guard let size = theme.pointSize(of: textStyleName) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [CodingKeys.fontStyleName],
                    debugDescription: "the theme gives no point size for \"\(textStyleName)\" (a number at the top level)"))
        }
        pointSize = size
        fontName = theme.fontName
        symbolicTrait = try values.enumeration(.symbolicTrait)
        alignment = try values.enumeration(.alignment) ?? .natural
        lineHeightMultiple = try values.number(.lineHeightMultiple)
        kern = try values.number(.kern)
    }

    /// Whether two text appearances are equal in every property.
    public static func == (lhs: TextAppearance, rhs: TextAppearance) -> Bool {
        equalProperties(
            lhs, rhs, \.commonUIStyle, \.textStyleName, \.pointSize, \.fontName, \.symbolicTrait, \.alignment, \.lineHeightMultiple,
            \.kern)
    }
}

/// Whether `lhs` and `rhs` are equal at each of `properties`. The style classes get no
/// synthesized `==`: theirs name every stored property here, one list a class, each compared
/// with its own type's `==`.
func equalProperties<Root, each Value: Equatable>(_ lhs: Root, _ rhs: Root, _ properties: repeat KeyPath<Root, each Value>) -> Bool {
    for property in repeat each properties {
        guard lhs[keyPath: property] == rhs[keyPath: property] else { return false }
    }
    return true
}

extension KeyedDecodingContainer {
    /// The case named by the string at `key`; `nil` when absent or empty.
    func enumeration<E: RawRepresentable & CaseIterable>(_ key: Key) throws -> E? where E.RawValue == String {
        guard let raw = try name(key) else { return nil }
        guard let value = E(rawValue: raw) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [key],
                    debugDescription: "\"\(raw)\" is not one of \(E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"))
        }
        return value
    }
}
