import Foundation

/// A stack of views (sections `StackView.*`): spacing and alignment.
public final class StackViewStyle: UIStyle {
    /// How the stack lines its views up across its axis.
    public enum Alignment: String, Sendable, CaseIterable {
        case fill, leading, top, firstBaseline, center, trailing, bottom, lastBaseline
    }

    public let commonUIStyle: CommonUIStyle
    public let spacing: Double
    public let alignment: Alignment

    private enum CodingKeys: String, CodingKey { case spacing, alignment }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        spacing = try values.number(.spacing)
        alignment = try values.enumeration(.alignment) ?? .fill
    }

    /// Whether two stack styles are equal in every property.
    public static func == (lhs: StackViewStyle, rhs: StackViewStyle) -> Bool {
        equalProperties(lhs, rhs, \.commonUIStyle, \.spacing, \.alignment)
    }
}

/// A message (sections `MessageView.*`: error, warning, info, the recipient of a code, content,
/// heading, username, user code).
public final class MessageViewStyle: UIStyle {
    public let commonUIStyle: CommonUIStyle
    public let iconTextPadding: Double
    public let alignment: StackViewStyle.Alignment
    public let textAppearance: TextAppearance
    public let textColorName: String
    /// The icon's name; `nil` for none.
    public let imageName: String?
    public let imageTintColorName: String?
    public let borderColorName: String?
    public let borderWidth: Double
    public let cornerRadius: Double

    private enum CodingKeys: String, CodingKey {
        case iconTextPadding, alignment, textAppearance, textColorName, imageName, imageTintColorName, borderColorName, borderWidth, cornerRadius
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        iconTextPadding = try values.number(.iconTextPadding)
        alignment = try values.enumeration(.alignment) ?? .center
        textAppearance = try values.style(TextAppearance.self, forKey: .textAppearance, in: decoder)
        textColorName = try values.decode(String.self, forKey: .textColorName)
        imageName = try values.name(.imageName)
        imageTintColorName = try values.name(.imageTintColorName)
        borderColorName = try values.name(.borderColorName)
        borderWidth = try values.number(.borderWidth)
        cornerRadius = try values.number(.cornerRadius)
    }

    /// Whether two message styles are equal in every property.
    public static func == (lhs: MessageViewStyle, rhs: MessageViewStyle) -> Bool {
        equalProperties(
            lhs, rhs, \.commonUIStyle, \.iconTextPadding, \.alignment, \.textAppearance, \.textColorName, \.imageName, \.imageTintColorName,
            \.borderColorName, \.borderWidth, \.cornerRadius)
    }
}

/// A button (sections `ActionableButton.Primary`, `.Secondary`, `.Text`, `.LinkView`).
public final class ActionableButtonStyle: UIStyle {
    public let commonUIStyle: CommonUIStyle
    public let borderColorName: String?
    public let borderWidth: Double
    public let cornerRadius: Double
    public let iconTextPadding: Double
    public let imageName: String?
    public let minHeight: Double
    public let textAppearance: TextAppearance
    public let textColorName: String
    /// The spinner shown while the button's action runs.
    public let loadingIndicatorViewStyle: LoadingIndicatorViewStyle

    private enum CodingKeys: String, CodingKey {
        case borderColorName, borderWidth, cornerRadius, iconTextPadding, imageName, minHeight, textAppearance, textColorName, loadingIndicatorViewStyle
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        borderColorName = try values.name(.borderColorName)
        borderWidth = try values.number(.borderWidth)
        cornerRadius = try values.number(.cornerRadius)
        iconTextPadding = try values.number(.iconTextPadding)
        imageName = try values.name(.imageName)
        minHeight = try values.number(.minHeight, or: 44)
        textAppearance = try values.style(TextAppearance.self, forKey: .textAppearance, in: decoder)
        textColorName = try values.decode(String.self, forKey: .textColorName)
        loadingIndicatorViewStyle = try values.style(LoadingIndicatorViewStyle.self, forKey: .loadingIndicatorViewStyle, in: decoder)
    }

    /// Whether two button styles are equal in every property.
    public static func == (lhs: ActionableButtonStyle, rhs: ActionableButtonStyle) -> Bool {
        equalProperties(
            lhs, rhs, \.commonUIStyle, \.borderColorName, \.borderWidth, \.cornerRadius, \.iconTextPadding, \.imageName, \.minHeight,
            \.textAppearance, \.textColorName, \.loadingIndicatorViewStyle)
    }
}

/// A spinner (sections `LoadingIndicatorView*`).
public final class LoadingIndicatorViewStyle: UIStyle {
    public let commonUIStyle: CommonUIStyle
    public let strokeColorName: String

    private enum CodingKeys: String, CodingKey { case strokeColorName }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        strokeColorName = try values.decode(String.self, forKey: .strokeColorName)
    }

    /// Whether two spinner styles are equal in every property.
    public static func == (lhs: LoadingIndicatorViewStyle, rhs: LoadingIndicatorViewStyle) -> Bool {
        equalProperties(lhs, rhs, \.commonUIStyle, \.strokeColorName)
    }
}

/// A link (section `LinkView`): a button styled as a link, with a spinner.
public final class LinkViewStyle: UIStyle {
    public let commonUIStyle: CommonUIStyle
    public let actionableButtonStyle: ActionableButtonStyle
    public let loadingIndicatorSideDimension: Double
    public let loadingIndicatorViewStyle: LoadingIndicatorViewStyle

    private enum CodingKeys: String, CodingKey { case actionableButtonStyle, loadingIndicatorSideDimension, loadingIndicatorViewStyle }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        actionableButtonStyle = try values.style(ActionableButtonStyle.self, forKey: .actionableButtonStyle, in: decoder)
        loadingIndicatorSideDimension = try values.number(.loadingIndicatorSideDimension, or: 32)
        loadingIndicatorViewStyle = try values.style(LoadingIndicatorViewStyle.self, forKey: .loadingIndicatorViewStyle, in: decoder)
    }

    /// Whether two link styles are equal in every property.
    public static func == (lhs: LinkViewStyle, rhs: LinkViewStyle) -> Bool {
        equalProperties(lhs, rhs, \.commonUIStyle, \.actionableButtonStyle, \.loadingIndicatorSideDimension, \.loadingIndicatorViewStyle)
    }
}

/// A text field with its title and error line (sections `InputTextField*`; the theme's
/// `huiTextField` names the one in use).
public final class InputTextFieldStyle: UIStyle {
    public let commonUIStyle: CommonUIStyle
    public let borderColorName: String?
    public let borderWidth: Double
    public let cornerRadius: Double
    public let errorColorName: String
    public let errorImageName: String?
    public let errorTextAppearance: TextAppearance
    public let iconPadding: Double
    public let textFieldColorName: String
    public let textFieldContentPadding: PaddingStyle
    public let textFieldMinimumHeight: Double
    public let textFieldPasswordImageTintColorName: String?
    public let textFieldPlaceholderColorName: String
    public let textFieldTextAppearance: TextAppearance
    public let tintColorName: String?
    public let titleColorName: String
    public let titleMinimumHeight: Double
    public let titlePaddingLeft: Double
    public let titlePaddingRight: Double
    public let titleTextAppearance: TextAppearance

    private enum CodingKeys: String, CodingKey {
        case borderColorName, borderWidth, cornerRadius, errorColorName, errorImageName, errorTextAppearance, iconPadding, textFieldColorName
        case textFieldContentPaddingTop, textFieldContentPaddingRight, textFieldContentPaddingBottom, textFieldContentPaddingLeft
        case textFieldMinimumHeight, textFieldPasswordImageTintColorName, textFieldPlaceholderColorName, textFieldTextAppearance, tintColorName
        case titleColorName, titleMinimumHeight, titlePaddingLeft, titlePaddingRight, titleTextAppearance
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        borderColorName = try values.name(.borderColorName)
        borderWidth = try values.number(.borderWidth)
        cornerRadius = try values.number(.cornerRadius)
        errorColorName = try values.decode(String.self, forKey: .errorColorName)
        errorImageName = try values.name(.errorImageName)
        errorTextAppearance = try values.style(TextAppearance.self, forKey: .errorTextAppearance, in: decoder)
        iconPadding = try values.number(.iconPadding)
        textFieldColorName = try values.decode(String.self, forKey: .textFieldColorName)
        textFieldContentPadding = try PaddingStyle(
            top: values.number(.textFieldContentPaddingTop), right: values.number(.textFieldContentPaddingRight),
            bottom: values.number(.textFieldContentPaddingBottom), left: values.number(.textFieldContentPaddingLeft))
        textFieldMinimumHeight = try values.number(.textFieldMinimumHeight, or: 44)
        textFieldPasswordImageTintColorName = try values.name(.textFieldPasswordImageTintColorName)
        textFieldPlaceholderColorName = try values.decode(String.self, forKey: .textFieldPlaceholderColorName)
        textFieldTextAppearance = try values.style(TextAppearance.self, forKey: .textFieldTextAppearance, in: decoder)
        tintColorName = try values.name(.tintColorName)
        titleColorName = try values.decode(String.self, forKey: .titleColorName)
        titleMinimumHeight = try values.number(.titleMinimumHeight)
        titlePaddingLeft = try values.number(.titlePaddingLeft)
        titlePaddingRight = try values.number(.titlePaddingRight)
        titleTextAppearance = try values.style(TextAppearance.self, forKey: .titleTextAppearance, in: decoder)
    }

    /// Whether two text field styles are equal in every property.
    public static func == (lhs: InputTextFieldStyle, rhs: InputTextFieldStyle) -> Bool {
        equalProperties(
            lhs, rhs, \.commonUIStyle, \.borderColorName, \.borderWidth, \.cornerRadius, \.errorColorName, \.errorImageName, \.errorTextAppearance,
            \.iconPadding, \.textFieldColorName, \.textFieldContentPadding, \.textFieldMinimumHeight, \.textFieldPasswordImageTintColorName,
            \.textFieldPlaceholderColorName, \.textFieldTextAppearance, \.tintColorName, \.titleColorName, \.titleMinimumHeight,
            \.titlePaddingLeft, \.titlePaddingRight, \.titleTextAppearance)
    }
}

/// A checkbox with its label (section `CheckboxView`).
public final class CheckboxViewStyle: UIStyle {
    public let commonUIStyle: CommonUIStyle
    public let borderColorName: String?
    public let borderWidth: Double
    public let checkboxHeight: Double
    public let checkboxWidth: Double
    public let cornerRadius: Double
    public let iconTextPadding: Double
    public let imageNameChecked: String
    public let imageNameUnchecked: String
    public let textAppearance: TextAppearance
    public let textColorName: String

    private enum CodingKeys: String, CodingKey {
        case borderColorName, borderWidth, checkboxHeight, checkboxWidth, cornerRadius, iconTextPadding, imageNameChecked, imageNameUnchecked
        case textAppearance, textColorName
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        borderColorName = try values.name(.borderColorName)
        borderWidth = try values.number(.borderWidth)
        checkboxHeight = try values.number(.checkboxHeight, or: 20)
        checkboxWidth = try values.number(.checkboxWidth, or: 20)
        cornerRadius = try values.number(.cornerRadius)
        iconTextPadding = try values.number(.iconTextPadding)
        imageNameChecked = try values.decode(String.self, forKey: .imageNameChecked)
        imageNameUnchecked = try values.decode(String.self, forKey: .imageNameUnchecked)
        textAppearance = try values.style(TextAppearance.self, forKey: .textAppearance, in: decoder)
        textColorName = try values.decode(String.self, forKey: .textColorName)
    }

    /// Whether two checkbox styles are equal in every property.
    public static func == (lhs: CheckboxViewStyle, rhs: CheckboxViewStyle) -> Bool {
        equalProperties(
            lhs, rhs, \.commonUIStyle, \.borderColorName, \.borderWidth, \.checkboxHeight, \.checkboxWidth, \.cornerRadius, \.iconTextPadding,
            \.imageNameChecked, \.imageNameUnchecked, \.textAppearance, \.textColorName)
    }
}

/// The picker of a select field (section `TextPickerView`).
public final class TextPickerViewStyle: UIStyle {
    public let commonUIStyle: CommonUIStyle
    public let itemBackgroundColorName: String?
    public let textAppearance: TextAppearance
    public let textColorName: String
    public let toolbarBackgroundColorName: String?
    public let toolbarTextTintColorName: String?

    private enum CodingKeys: String, CodingKey {
        case itemBackgroundColorName, textAppearance, textColorName, toolbarBackgroundColorName, toolbarTextTintColorName
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        itemBackgroundColorName = try values.name(.itemBackgroundColorName)
        textAppearance = try values.style(TextAppearance.self, forKey: .textAppearance, in: decoder)
        textColorName = try values.decode(String.self, forKey: .textColorName)
        toolbarBackgroundColorName = try values.name(.toolbarBackgroundColorName)
        toolbarTextTintColorName = try values.name(.toolbarTextTintColorName)
    }

    /// Whether two picker styles are equal in every property.
    public static func == (lhs: TextPickerViewStyle, rhs: TextPickerViewStyle) -> Bool {
        equalProperties(
            lhs, rhs, \.commonUIStyle, \.itemBackgroundColorName, \.textAppearance, \.textColorName, \.toolbarBackgroundColorName,
            \.toolbarTextTintColorName)
    }
}

/// The banner that shows a message over the screen (sections `NotificationBannerView*`).
public final class NotificationBannerViewStyle: UIStyle {
    public let commonUIStyle: CommonUIStyle
    public let actionTextAppearance: TextAppearance
    public let actionTextColorName: String
    public let textAppearance: TextAppearance
    public let textColorName: String

    private enum CodingKeys: String, CodingKey { case actionTextAppearance, actionTextColorName, textAppearance, textColorName }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        actionTextAppearance = try values.style(TextAppearance.self, forKey: .actionTextAppearance, in: decoder)
        actionTextColorName = try values.decode(String.self, forKey: .actionTextColorName)
        textAppearance = try values.style(TextAppearance.self, forKey: .textAppearance, in: decoder)
        textColorName = try values.decode(String.self, forKey: .textColorName)
    }

    /// Whether two banner styles are equal in every property.
    public static func == (lhs: NotificationBannerViewStyle, rhs: NotificationBannerViewStyle) -> Bool {
        equalProperties(lhs, rhs, \.commonUIStyle, \.actionTextAppearance, \.actionTextColorName, \.textAppearance, \.textColorName)
    }
}

/// The tabs of a selector presented as tabs (section `TabView`).
public final class TabViewStyle: UIStyle {
    public let commonUIStyle: CommonUIStyle
    public let highlightTextColorName: String
    public let iconTextPadding: Double
    public let selectedTabIndicatorColorName: String
    public let textAppearance: TextAppearance
    public let textColorName: String

    private enum CodingKeys: String, CodingKey {
        case highlightTextColorName, iconTextPadding, selectedTabIndicatorColorName, textAppearance, textColorName
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        highlightTextColorName = try values.decode(String.self, forKey: .highlightTextColorName)
        iconTextPadding = try values.number(.iconTextPadding)
        selectedTabIndicatorColorName = try values.decode(String.self, forKey: .selectedTabIndicatorColorName)
        textAppearance = try values.style(TextAppearance.self, forKey: .textAppearance, in: decoder)
        textColorName = try values.decode(String.self, forKey: .textColorName)
    }

    /// Whether two tab styles are equal in every property.
    public static func == (lhs: TabViewStyle, rhs: TabViewStyle) -> Bool {
        equalProperties(
            lhs, rhs, \.commonUIStyle, \.highlightTextColorName, \.iconTextPadding, \.selectedTabIndicatorColorName, \.textAppearance,
            \.textColorName)
    }
}

/// A title that opens to show more (section `ExpandableView`; BankID's help text).
public final class ExpandableViewStyle: UIStyle {
    public let commonUIStyle: CommonUIStyle
    public let borderColorName: String?
    public let borderWidth: Double
    public let cornerRadius: Double
    public let contentTextAppearance: TextAppearance
    public let contentTextColorName: String
    public let iconImageName: String?
    public let iconTintColorName: String?
    public let titleTextAppearance: TextAppearance
    public let titleTextColorName: String

    private enum CodingKeys: String, CodingKey {
        case borderColorName, borderWidth, cornerRadius, contentTextAppearance, contentTextColorName, iconImageName, iconTintColorName
        case titleTextAppearance, titleTextColorName
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        borderColorName = try values.name(.borderColorName)
        borderWidth = try values.number(.borderWidth)
        cornerRadius = try values.number(.cornerRadius)
        contentTextAppearance = try values.style(TextAppearance.self, forKey: .contentTextAppearance, in: decoder)
        contentTextColorName = try values.decode(String.self, forKey: .contentTextColorName)
        iconImageName = try values.name(.iconImageName)
        iconTintColorName = try values.name(.iconTintColorName)
        titleTextAppearance = try values.style(TextAppearance.self, forKey: .titleTextAppearance, in: decoder)
        titleTextColorName = try values.decode(String.self, forKey: .titleTextColorName)
    }

    /// Whether two expandable view styles are equal in every property.
    public static func == (lhs: ExpandableViewStyle, rhs: ExpandableViewStyle) -> Bool {
        equalProperties(
            lhs, rhs, \.commonUIStyle, \.borderColorName, \.borderWidth, \.cornerRadius, \.contentTextAppearance, \.contentTextColorName,
            \.iconImageName, \.iconTintColorName, \.titleTextAppearance, \.titleTextColorName)
    }
}

/// The header above every screen (section `HeaderView`): an optional logo and title.
public final class HeaderViewStyle: UIStyle {
    public let commonUIStyle: CommonUIStyle
    public let iconTextPadding: Double
    public let imageName: String?
    public let imageTintColorName: String?
    public let textAppearance: TextAppearance
    public let textColorName: String
    /// A fixed title (a `hui_*` key or a text); `nil` for none.
    public let titleText: String?

    private enum CodingKeys: String, CodingKey { case iconTextPadding, imageName, imageTintColorName, textAppearance, textColorName, titleText }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        iconTextPadding = try values.number(.iconTextPadding)
        imageName = try values.name(.imageName)
        imageTintColorName = try values.name(.imageTintColorName)
        textAppearance = try values.style(TextAppearance.self, forKey: .textAppearance, in: decoder)
        textColorName = try values.decode(String.self, forKey: .textColorName)
        titleText = try values.name(.titleText)
    }

    /// Whether two header styles are equal in every property.
    public static func == (lhs: HeaderViewStyle, rhs: HeaderViewStyle) -> Bool {
        equalProperties(
            lhs, rhs, \.commonUIStyle, \.iconTextPadding, \.imageName, \.imageTintColorName, \.textAppearance, \.textColorName, \.titleText)
    }
}
