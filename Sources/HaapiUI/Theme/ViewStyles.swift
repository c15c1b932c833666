import Foundation

/// A stack of views (sections `StackView.*`): spacing and alignment.
public final class StackViewStyle: UIStyle, Equatable {
    /// How the stack lines its views up across its axis.
    public enum Alignment: String, Sendable, CaseIterable {
        /// UIKit's `UIStackView.Alignment` cases, by the same names.
        case fill, leading, top, firstBaseline, center, trailing, bottom, lastBaseline
    }

    /// The stack's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The space between the stacked views, in points.
    public let spacing: Double
    /// How the views line up across the axis; `fill` when not given (theme key `alignment`; on
    /// Apple platforms `alignment` is it as a `UIStackView.Alignment`).
    public let stackAlignment: Alignment

    private enum CodingKeys: String, CodingKey {
        case spacing
        case stackAlignment = "alignment"
    }

    /// Reads the style from its theme section (a missing number is 0).
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        spacing = try values.number(.spacing)
        stackAlignment = try values.enumeration(.stackAlignment) ?? .fill
    }

    /// Whether two stack styles are equal in every property.
    public static func == (lhs: StackViewStyle, rhs: StackViewStyle) -> Bool {
        equalProperties(lhs, rhs, \.commonUIStyle, \.spacing, \.stackAlignment)
    }
}

/// A message (sections `MessageView.*`: error, warning, info, the recipient of a code, content,
/// heading, username, user code).
public final class MessageViewStyle: UIStyle {
    /// The message's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The space between the icon and the text, in points.
    public let iconTextPadding: Double
    /// How the icon and text line up; `center` when not given (theme key `alignment`; on Apple
    /// platforms `alignment` is it as a `UIStackView.Alignment`).
    public let stackAlignment: StackViewStyle.Alignment
    /// How the text looks.
    public let textAppearance: TextAppearance
    /// The text colour's name.
    public let textColorName: String
    /// The icon's name; `nil` for none.
    public let imageName: String?
    /// The icon's tint colour name; `nil` keeps the image's colours.
    public let imageTintColorName: String?
    /// The border colour's name; `nil` for no border.
    public let borderColorName: String?
    /// The border's width, in points.
    public let borderWidth: Double
    /// The corner radius, in points.
    public let cornerRadius: Double

    private enum CodingKeys: String, CodingKey {
        case iconTextPadding
        case stackAlignment = "alignment"
        case textAppearance, textColorName, imageName, imageTintColorName, borderColorName,
            borderWidth, cornerRadius
    }

    /// Reads the style from its theme section; a text appearance is named and read from its own section.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        iconTextPadding = try values.number(.iconTextPadding)
        stackAlignment = try values.enumeration(.stackAlignment) ?? .center
        (textAppearance, textColorName) = try values.text(.textAppearance, .textColorName, in: decoder)
        imageName = try values.name(.imageName)
        imageTintColorName = try values.name(.imageTintColorName)
        (borderColorName, borderWidth, cornerRadius) = try values.border(.borderColorName, .borderWidth, .cornerRadius)
    }
}

/// A button (sections `ActionableButton.Primary`, `.Secondary`, `.Text`, `.LinkView`).
public final class ActionableButtonStyle: UIStyle {
    /// The button's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The border colour's name; `nil` for no border.
    public let borderColorName: String?
    /// The border's width, in points.
    public let borderWidth: Double
    /// The corner radius, in points.
    public let cornerRadius: Double
    /// The space between the icon and the title, in points.
    public let iconTextPadding: Double
    /// The icon's name; `nil` for none.
    public let imageName: String?
    /// The least height, in points (44 when not given, the least touch target).
    public let minHeight: Double
    /// How the title looks.
    public let textAppearance: TextAppearance
    /// The title colour's name.
    public let textColorName: String
    /// The spinner shown while the button's action runs.
    public let loadingIndicatorViewStyle: LoadingIndicatorViewStyle

    private enum CodingKeys: String, CodingKey {
        case borderColorName, borderWidth, cornerRadius, iconTextPadding, imageName, minHeight, textAppearance, textColorName,
            loadingIndicatorViewStyle
    }

    /// Reads the style from its theme section, with its text appearance and spinner sections.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        (borderColorName, borderWidth, cornerRadius) = try values.border(.borderColorName, .borderWidth, .cornerRadius)
        iconTextPadding = try values.number(.iconTextPadding)
        imageName = try values.name(.imageName)
        minHeight = try values.number(.minHeight, or: 44)
        (textAppearance, textColorName) = try values.text(.textAppearance, .textColorName, in: decoder)
        loadingIndicatorViewStyle = try values.style(LoadingIndicatorViewStyle.self, forKey: .loadingIndicatorViewStyle, in: decoder)
    }
}

/// A spinner (sections `LoadingIndicatorView*`).
public final class LoadingIndicatorViewStyle: UIStyle, Equatable {
    /// The spinner's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The colour name of the spinner's stroke.
    public let strokeColorName: String

    private enum CodingKeys: String, CodingKey { case strokeColorName }

    /// Reads the style from its theme section.
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
    /// The link's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The button style the link is drawn with.
    public let actionableButtonStyle: ActionableButtonStyle
    /// The spinner's width and height, in points (32 when not given).
    public let loadingIndicatorSideDimension: Double
    /// The spinner shown while the link is followed.
    public let loadingIndicatorViewStyle: LoadingIndicatorViewStyle

    private enum CodingKeys: String, CodingKey { case actionableButtonStyle, loadingIndicatorSideDimension, loadingIndicatorViewStyle }

    /// Reads the style from its theme section, with the sections it names.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        actionableButtonStyle = try values.style(ActionableButtonStyle.self, forKey: .actionableButtonStyle, in: decoder)
        (loadingIndicatorSideDimension, loadingIndicatorViewStyle) = try values.spinner(
            .loadingIndicatorSideDimension, or: 32, .loadingIndicatorViewStyle, in: decoder)
    }
}

/// A text field with its title and error line (sections `InputTextField*`; the theme's
/// `huiTextField` names the one in use).
public final class InputTextFieldStyle: UIStyle {
    /// The field's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The border colour's name; `nil` for no border.
    public let borderColorName: String?
    /// The border's width, in points.
    public let borderWidth: Double
    /// The corner radius, in points.
    public let cornerRadius: Double
    /// The colour name of the error line (and of the border on an error).
    public let errorColorName: String
    /// The icon shown with an error; `nil` for none.
    public let errorImageName: String?
    /// How the error line looks.
    public let errorTextAppearance: TextAppearance
    /// The space around the field's icons, in points.
    public let iconPadding: Double
    /// The colour name of the text typed.
    public let textFieldColorName: String
    /// The space between the field's edges and its text.
    public let textFieldContentPadding: PaddingStyle
    /// The field's least height, in points (44 when not given).
    public let textFieldMinimumHeight: Double
    /// The tint colour name of the show-password button; `nil` for the default.
    public let textFieldPasswordImageTintColorName: String?
    /// The placeholder's colour name.
    public let textFieldPlaceholderColorName: String
    /// How the text typed looks.
    public let textFieldTextAppearance: TextAppearance
    /// The cursor's tint colour name; `nil` for the default.
    public let tintColorName: String?
    /// The title's colour name.
    public let titleColorName: String
    /// The title's least height, in points.
    public let titleMinimumHeight: Double
    /// The space before the title, in points.
    public let titlePaddingLeft: Double
    /// The space after the title, in points.
    public let titlePaddingRight: Double
    /// How the title looks.
    public let titleTextAppearance: TextAppearance

    private enum CodingKeys: String, CodingKey {
        case borderColorName, borderWidth, cornerRadius, errorColorName, errorImageName, errorTextAppearance, iconPadding,
            textFieldColorName
        case textFieldContentPaddingTop, textFieldContentPaddingRight, textFieldContentPaddingBottom, textFieldContentPaddingLeft
        case textFieldMinimumHeight, textFieldPasswordImageTintColorName, textFieldPlaceholderColorName, textFieldTextAppearance,
            tintColorName
        case titleColorName, titleMinimumHeight, titlePaddingLeft, titlePaddingRight, titleTextAppearance
    }

    /// Reads the style from its theme section; the content padding comes from the four `textFieldContentPadding*` keys.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        (borderColorName, borderWidth, cornerRadius) = try values.border(.borderColorName, .borderWidth, .cornerRadius)
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
}

/// A checkbox with its label (section `CheckboxView`).
public final class CheckboxViewStyle: UIStyle {
    /// The checkbox's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The box's border colour name; `nil` for no border.
    public let borderColorName: String?
    /// The box's border width, in points.
    public let borderWidth: Double
    /// The box's height, in points (20 when not given).
    public let checkboxHeight: Double
    /// The box's width, in points (20 when not given).
    public let checkboxWidth: Double
    /// The box's corner radius, in points.
    public let cornerRadius: Double
    /// The space between the box and its label, in points.
    public let iconTextPadding: Double
    /// The image of a checked box.
    public let imageNameChecked: String
    /// The image of an unchecked box.
    public let imageNameUnchecked: String
    /// How the label looks.
    public let textAppearance: TextAppearance
    /// The label's colour name.
    public let textColorName: String

    private enum CodingKeys: String, CodingKey {
        case borderColorName, borderWidth, checkboxHeight, checkboxWidth, cornerRadius, iconTextPadding, imageNameChecked,
            imageNameUnchecked
        case textAppearance, textColorName
    }

    /// Reads the style from its theme section.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        (borderColorName, borderWidth, cornerRadius) = try values.border(.borderColorName, .borderWidth, .cornerRadius)
        checkboxHeight = try values.number(.checkboxHeight, or: 20)
        checkboxWidth = try values.number(.checkboxWidth, or: 20)
        iconTextPadding = try values.number(.iconTextPadding)
        imageNameChecked = try values.decode(String.self, forKey: .imageNameChecked)
        imageNameUnchecked = try values.decode(String.self, forKey: .imageNameUnchecked)
        (textAppearance, textColorName) = try values.text(.textAppearance, .textColorName, in: decoder)
    }
}

/// The picker of a select field (section `TextPickerView`).
public final class TextPickerViewStyle: UIStyle {
    /// The picker's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The background colour name of its items; `nil` for the default.
    public let itemBackgroundColorName: String?
    /// How its items look.
    public let textAppearance: TextAppearance
    /// The items' colour name.
    public let textColorName: String
    /// The background colour name of the toolbar over the picker; `nil` for the default.
    public let toolbarBackgroundColorName: String?
    /// The tint colour name of the toolbar's buttons; `nil` for the default.
    public let toolbarTextTintColorName: String?

    private enum CodingKeys: String, CodingKey {
        case itemBackgroundColorName, textAppearance, textColorName, toolbarBackgroundColorName, toolbarTextTintColorName
    }

    /// Reads the style from its theme section.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        itemBackgroundColorName = try values.name(.itemBackgroundColorName)
        (textAppearance, textColorName) = try values.text(.textAppearance, .textColorName, in: decoder)
        toolbarBackgroundColorName = try values.name(.toolbarBackgroundColorName)
        toolbarTextTintColorName = try values.name(.toolbarTextTintColorName)
    }
}

/// The banner that shows a message over the screen (sections `NotificationBannerView*`).
public final class NotificationBannerViewStyle: UIStyle, Equatable {
    /// The banner's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// How the banner's action button looks.
    public let actionTextAppearance: TextAppearance
    /// The action button's colour name.
    public let actionTextColorName: String
    /// How the banner's message looks.
    public let textAppearance: TextAppearance
    /// The message's colour name.
    public let textColorName: String

    private enum CodingKeys: String, CodingKey { case actionTextAppearance, actionTextColorName, textAppearance, textColorName }

    /// Reads the style from its theme section.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        (actionTextAppearance, actionTextColorName) = try values.text(.actionTextAppearance, .actionTextColorName, in: decoder)
        (textAppearance, textColorName) = try values.text(.textAppearance, .textColorName, in: decoder)
    }

    /// Whether two banner styles are equal in every property.
    public static func == (lhs: NotificationBannerViewStyle, rhs: NotificationBannerViewStyle) -> Bool {
        equalProperties(lhs, rhs, \.commonUIStyle, \.actionTextAppearance, \.actionTextColorName, \.textAppearance, \.textColorName)
    }
}

/// The tabs of a selector presented as tabs (section `TabView`).
public final class TabViewStyle: UIStyle {
    /// The tabs' own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The colour name of the selected tab's title.
    public let highlightTextColorName: String
    /// The space between a tab's icon and title, in points.
    public let iconTextPadding: Double
    /// The colour name of the selected tab's fill (and of the spinner shown while a tab loads).
    public let selectedTabIndicatorColorName: String
    /// How the tabs' titles look.
    public let textAppearance: TextAppearance
    /// The colour name of the titles of the tabs not selected.
    public let textColorName: String

    private enum CodingKeys: String, CodingKey {
        case highlightTextColorName, iconTextPadding, selectedTabIndicatorColorName, textAppearance, textColorName
    }

    /// Reads the style from its theme section.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        highlightTextColorName = try values.decode(String.self, forKey: .highlightTextColorName)
        iconTextPadding = try values.number(.iconTextPadding)
        selectedTabIndicatorColorName = try values.decode(String.self, forKey: .selectedTabIndicatorColorName)
        (textAppearance, textColorName) = try values.text(.textAppearance, .textColorName, in: decoder)
    }
}

/// A title that opens to show more (section `ExpandableView`; BankID's help text).
public final class ExpandableViewStyle: UIStyle {
    /// The view's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The border colour's name; `nil` for no border.
    public let borderColorName: String?
    /// The border's width, in points.
    public let borderWidth: Double
    /// The corner radius, in points.
    public let cornerRadius: Double
    /// How the text shown when open looks.
    public let contentTextAppearance: TextAppearance
    /// That text's colour name.
    public let contentTextColorName: String
    /// The icon that shows whether the view is open; `nil` for none.
    public let iconImageName: String?
    /// That icon's tint colour name; `nil` keeps the image's colours.
    public let iconTintColorName: String?
    /// How the title looks.
    public let titleTextAppearance: TextAppearance
    /// The title's colour name.
    public let titleTextColorName: String

    private enum CodingKeys: String, CodingKey {
        case borderColorName, borderWidth, cornerRadius, contentTextAppearance, contentTextColorName, iconImageName, iconTintColorName
        case titleTextAppearance, titleTextColorName
    }

    /// Reads the style from its theme section.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        (borderColorName, borderWidth, cornerRadius) = try values.border(.borderColorName, .borderWidth, .cornerRadius)
        (contentTextAppearance, contentTextColorName) = try values.text(.contentTextAppearance, .contentTextColorName, in: decoder)
        iconImageName = try values.name(.iconImageName)
        iconTintColorName = try values.name(.iconTintColorName)
        (titleTextAppearance, titleTextColorName) = try values.text(.titleTextAppearance, .titleTextColorName, in: decoder)
    }
}

/// The header above every screen (section `HeaderView`): an optional logo and title.
public final class HeaderViewStyle: UIStyle {
    /// The header's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The space between the logo and the title, in points.
    public let iconTextPadding: Double
    /// The logo's image name; `nil` for none.
    public let imageName: String?
    /// The logo's tint colour name; `nil` keeps the image's colours.
    public let imageTintColorName: String?
    /// How the title looks.
    public let textAppearance: TextAppearance
    /// The title's colour name.
    public let textColorName: String
    /// A fixed title (a `hui_*` key or a text); `nil` for none.
    public let titleText: String?

    private enum CodingKeys: String, CodingKey {
        case iconTextPadding, imageName, imageTintColorName, textAppearance, textColorName, titleText
    }

    /// Reads the style from its theme section.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        iconTextPadding = try values.number(.iconTextPadding)
        imageName = try values.name(.imageName)
        imageTintColorName = try values.name(.imageTintColorName)
        (textAppearance, textColorName) = try values.text(.textAppearance, .textColorName, in: decoder)
        titleText = try values.name(.titleText)
    }
}
