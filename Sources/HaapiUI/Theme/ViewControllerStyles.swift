import Foundation

/// The container of the flow's screens (section `HaapiFlowViewController`): its background and
/// close button.
public final class HaapiFlowViewControllerStyle: UIStyle {
    /// The container's own padding and background.
    public let commonUIStyle: CommonUIStyle
    /// The close button's least height, in points (32 when not given).
    public let closeButtonMinHeight: Double
    /// The close button's least width, in points (32 when not given).
    public let closeButtonMinWidth: Double
    /// The close button's image name (`xmark` when not given).
    public let closeButtonImageName: String
    /// The close button's tint colour name; `nil` for the default.
    public let closeButtonTintColorName: String?

    /// The section.
    public static let themeSection = "HaapiFlowViewController"

    private enum CodingKeys: String, CodingKey {
        case closeButtonMinHeight, closeButtonMinWidth, closeButtonImageName, closeButtonTintColorName
    }

    /// Reads the style from its theme section.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonUIStyle = try CommonUIStyle(from: decoder)
        closeButtonMinHeight = try values.number(.closeButtonMinHeight, or: 32)
        closeButtonMinWidth = try values.number(.closeButtonMinWidth, or: 32)
        closeButtonImageName = try values.name(.closeButtonImageName) ?? "xmark"
        closeButtonTintColorName = try values.name(.closeButtonTintColorName)
    }
}

/// The form screen's style (section `FormViewController`).
public final class FormViewControllerStyle: UIViewControllerStyle {
    /// The section.
    public static let themeSection = "FormViewController"
    /// The header, messages, links, padding and background.
    public let commonVCStyle: CommonViewControllerStyle
    /// The stack of fields and buttons.
    public let contentStyle: StackViewStyle
    /// Texts between the fields.
    public let contentTextAppearance: TextAppearance
    /// The colour name of those texts.
    public let contentTextColorName: String

    private enum CodingKeys: String, CodingKey { case contentStyle, contentTextAppearance, contentTextColorName }

    /// Reads the style from its theme section, with the sections it names.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonVCStyle = try CommonViewControllerStyle(from: decoder)
        contentStyle = try values.style(StackViewStyle.self, forKey: .contentStyle, in: decoder)
        (contentTextAppearance, contentTextColorName) = try values.text(.contentTextAppearance, .contentTextColorName, in: decoder)
    }
}

/// The selector screen's style (section `SelectorViewController`).
public final class SelectorViewControllerStyle: UIViewControllerStyle {
    /// The section.
    public static let themeSection = "SelectorViewController"
    /// The header, messages, links, padding and background.
    public let commonVCStyle: CommonViewControllerStyle
    /// The stack of options.
    public let contentStyle: StackViewStyle

    private enum CodingKeys: String, CodingKey { case contentStyle }

    /// Reads the style from its theme section, with the sections it names.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonVCStyle = try CommonViewControllerStyle(from: decoder)
        contentStyle = try values.style(StackViewStyle.self, forKey: .contentStyle, in: decoder)
    }
}

/// The polling screen's style (section `PollingViewController`).
public final class PollingViewControllerStyle: UIViewControllerStyle {
    /// The section.
    public static let themeSection = "PollingViewController"
    /// The header, messages, links, padding and background.
    public let commonVCStyle: CommonViewControllerStyle
    /// The stack of the screen's content.
    public let contentStyle: StackViewStyle
    /// The spinner's width and height, in points (40 when not given).
    public let loadingIndicatorSideDimension: Double
    /// The spinner shown while the screen waits.
    public let loadingIndicatorViewStyle: LoadingIndicatorViewStyle

    private enum CodingKeys: String, CodingKey { case contentStyle, loadingIndicatorSideDimension, loadingIndicatorViewStyle }

    /// Reads the style from its theme section, with the sections it names.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonVCStyle = try CommonViewControllerStyle(from: decoder)
        contentStyle = try values.style(StackViewStyle.self, forKey: .contentStyle, in: decoder)
        (loadingIndicatorSideDimension, loadingIndicatorViewStyle) = try values.spinner(
            .loadingIndicatorSideDimension, or: 40, .loadingIndicatorViewStyle, in: decoder)
    }
}

/// The BankID screen's style (section `BankIdViewController`), with the `hui_*` keys of its texts.
public final class BankIdViewControllerStyle: UIViewControllerStyle {
    /// The section.
    public static let themeSection = "BankIdViewController"
    /// The header, messages, links, padding and background.
    public let commonVCStyle: CommonViewControllerStyle
    /// The stack of the screen's content.
    public let contentStyle: StackViewStyle
    /// How the texts between the elements look.
    public let contentTextAppearance: TextAppearance
    /// The colour name of those texts.
    public let contentTextColorName: String
    /// The help text's box.
    public let expandableViewStyle: ExpandableViewStyle
    /// The key of the help text's title (`textInstructionTitle`; `hui_bankid_instruction_title_1` when not given).
    public let textInstructionTitleKey: String
    /// The key of the help text's body (`textInstructionBody`; `hui_bankid_instruction_body_1` when not given).
    public let textInstructionBodyKey: String
    /// The key of the "or" between the two ways to start BankID (`textOr`; `hui_or` when not given).
    public let textOrKey: String
    /// The plural key of a wait in minutes (`textMinutes`; `hui_polling_minutes` when not given).
    public let textMinutesKey: String
    /// The plural key of a wait in seconds (`textSeconds`; `hui_polling_seconds` when not given).
    public let textSecondsKey: String
    /// The plural key of the time left in minutes (`textMinutesRemaining`).
    public let textMinutesRemainingKey: String
    /// The plural key of the time left in seconds (`textSecondsRemaining`).
    public let textSecondsRemainingKey: String

    private enum CodingKeys: String, CodingKey {
        case contentStyle, contentTextAppearance, contentTextColorName, expandableViewStyle, textInstructionTitle, textInstructionBody,
            textOr
        case textMinutes, textSeconds, textMinutesRemaining, textSecondsRemaining
    }

    /// Reads the style from its theme section; a text key not given is the kit's own.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonVCStyle = try CommonViewControllerStyle(from: decoder)
        contentStyle = try values.style(StackViewStyle.self, forKey: .contentStyle, in: decoder)
        (contentTextAppearance, contentTextColorName) = try values.text(.contentTextAppearance, .contentTextColorName, in: decoder)
        expandableViewStyle = try values.style(ExpandableViewStyle.self, forKey: .expandableViewStyle, in: decoder)
        textInstructionTitleKey = try values.name(.textInstructionTitle) ?? LocalizableStrings.Key.bankIDInstructionTitle.rawValue
        textInstructionBodyKey = try values.name(.textInstructionBody) ?? LocalizableStrings.Key.bankIDInstructionBody.rawValue
        textOrKey = try values.name(.textOr) ?? LocalizableStrings.Key.or.rawValue
        textMinutesKey = try values.name(.textMinutes) ?? LocalizableStrings.PluralKey.pollingMinutes.rawValue
        textSecondsKey = try values.name(.textSeconds) ?? LocalizableStrings.PluralKey.pollingSeconds.rawValue
        textMinutesRemainingKey = try values.name(.textMinutesRemaining) ?? LocalizableStrings.PluralKey.pollingMinutesRemaining.rawValue
        textSecondsRemainingKey = try values.name(.textSecondsRemaining) ?? LocalizableStrings.PluralKey.pollingSecondsRemaining.rawValue
    }
}

/// The WebAuthn screen's style (section `WebAuthnViewController`), with the `hui_*` keys of its texts.
public final class WebAuthnViewControllerStyle: UIViewControllerStyle {
    /// The `hui_*` keys of the screen's texts; a theme points any of them at a key of the app's.
    public final class TextualKeys: Sendable {
        /// The key of the passkey button's title.
        public let platformButtonTextKey: String
        /// The key of the message over the passkey button.
        public let platformMessageTextKey: String
        /// The key of the security-key button's title.
        public let crossPlatformButtonTextKey: String
        /// The key of the message over the security-key button.
        public let crossPlatformMessageTextKey: String
        /// The key of the button offered when the passkey step failed.
        public let errorButtonTextKey: String
        /// The key of the message shown when the passkey step failed.
        public let errorMessageTextKey: String
        /// The key of the banner text once a passkey is registered.
        public let registrationSuccessMessageTextKey: String
        /// The key of the retry button's title.
        public let retryButtonTextKey: String
        /// The key of the message shown when the passkey step was cancelled or timed out.
        public let retryMessageTextKey: String
        /// The key of the message shown when the app's associated domains do not allow passkeys with the server.
        public let appAssociationErrorMessageTextKey: String
        /// The key of the message shown when the account has no passkey here.
        public let noCredentialsMessageTextKey: String
        /// The key of the message shown when the device cannot use passkeys.
        public let passkeysNotSupportedMessageTextKey: String

        /// The keys (written out: a class gets no memberwise initialiser).
        init(
            platformButtonTextKey: String, platformMessageTextKey: String, crossPlatformButtonTextKey: String,
            crossPlatformMessageTextKey: String,
            errorButtonTextKey: String, errorMessageTextKey: String, registrationSuccessMessageTextKey: String, retryButtonTextKey: String,
            retryMessageTextKey: String, appAssociationErrorMessageTextKey: String, noCredentialsMessageTextKey: String,
            passkeysNotSupportedMessageTextKey: String
        ) {
            self.platformButtonTextKey = platformButtonTextKey
            self.platformMessageTextKey = platformMessageTextKey
            self.crossPlatformButtonTextKey = crossPlatformButtonTextKey
            self.crossPlatformMessageTextKey = crossPlatformMessageTextKey
            self.errorButtonTextKey = errorButtonTextKey
            self.errorMessageTextKey = errorMessageTextKey
            self.registrationSuccessMessageTextKey = registrationSuccessMessageTextKey
            self.retryButtonTextKey = retryButtonTextKey
            self.retryMessageTextKey = retryMessageTextKey
            self.appAssociationErrorMessageTextKey = appAssociationErrorMessageTextKey
            self.noCredentialsMessageTextKey = noCredentialsMessageTextKey
            self.passkeysNotSupportedMessageTextKey = passkeysNotSupportedMessageTextKey
        }

        // The texts of the keys (Curity's `platformButtonText`, ...): in the user's language, the
        // app's `Localizable` table first, as the screen shows them.
        /// The text of ``platformButtonTextKey``.
        public var platformButtonText: String { LocalizableStrings().string(forKey: platformButtonTextKey) }
        /// The text of ``platformMessageTextKey``.
        public var platformMessageText: String { LocalizableStrings().string(forKey: platformMessageTextKey) }
        /// The text of ``crossPlatformButtonTextKey``.
        public var crossPlatformButtonText: String { LocalizableStrings().string(forKey: crossPlatformButtonTextKey) }
        /// The text of ``crossPlatformMessageTextKey``.
        public var crossPlatformMessageText: String { LocalizableStrings().string(forKey: crossPlatformMessageTextKey) }
        /// The text of ``errorButtonTextKey``.
        public var errorButtonText: String { LocalizableStrings().string(forKey: errorButtonTextKey) }
        /// The text of ``errorMessageTextKey``.
        public var errorMessageText: String { LocalizableStrings().string(forKey: errorMessageTextKey) }
        /// The text of ``registrationSuccessMessageTextKey``.
        public var registrationSuccessMessageText: String { LocalizableStrings().string(forKey: registrationSuccessMessageTextKey) }
        /// The text of ``retryButtonTextKey``.
        public var retryButtonText: String { LocalizableStrings().string(forKey: retryButtonTextKey) }
        /// The text of ``retryMessageTextKey``.
        public var retryMessageText: String { LocalizableStrings().string(forKey: retryMessageTextKey) }
        /// The text of ``appAssociationErrorMessageTextKey``.
        public var appAssociationErrorMessageText: String { LocalizableStrings().string(forKey: appAssociationErrorMessageTextKey) }
        /// The text of ``noCredentialsMessageTextKey``.
        public var noCredentialsMessageText: String { LocalizableStrings().string(forKey: noCredentialsMessageTextKey) }
        /// The text of ``passkeysNotSupportedMessageTextKey``.
        public var passkeysNotSupportedMessageText: String { LocalizableStrings().string(forKey: passkeysNotSupportedMessageTextKey) }
    }

    /// The section.
    public static let themeSection = "WebAuthnViewController"
    /// The header, messages, links, padding and background.
    public let commonVCStyle: CommonViewControllerStyle
    /// The stack of the screen's content.
    public let contentStyle: StackViewStyle
    /// How the texts between the elements look.
    public let contentTextAppearance: TextAppearance
    /// The colour name of those texts.
    public let contentTextColorName: String
    /// The spinner's width and height, in points (40 when not given).
    public let loadingIndicatorSideDimension: Double
    /// The spinner shown while a passkey is asked for.
    public let loadingIndicatorViewStyle: LoadingIndicatorViewStyle
    /// The banner that says a passkey was registered.
    public let successNotificationBannerViewStyle: NotificationBannerViewStyle
    /// The keys of the screen's texts (the section's `*Text` keys; the kit's own when not given).
    public let textualKeys: TextualKeys

    private enum CodingKeys: String, CodingKey {
        case contentStyle, contentTextAppearance, contentTextColorName, loadingIndicatorSideDimension, loadingIndicatorViewStyle
        case successNotificationBannerViewStyle
        case platformButtonText, platformMessageText, crossPlatformButtonText, crossPlatformMessageText, errorButtonText, errorMessageText
        case registrationSuccessMessageText, retryButtonText, retryMessageText, appAssociationErrorMessageText, noCredentialsMessageText
        case passkeysNotSupportedMessageText
    }

    /// Reads the style from its theme section, with the sections it names.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        commonVCStyle = try CommonViewControllerStyle(from: decoder)
        contentStyle = try values.style(StackViewStyle.self, forKey: .contentStyle, in: decoder)
        (contentTextAppearance, contentTextColorName) = try values.text(.contentTextAppearance, .contentTextColorName, in: decoder)
        (loadingIndicatorSideDimension, loadingIndicatorViewStyle) = try values.spinner(
            .loadingIndicatorSideDimension, or: 40, .loadingIndicatorViewStyle, in: decoder)
        successNotificationBannerViewStyle = try values.style(
            NotificationBannerViewStyle.self, forKey: .successNotificationBannerViewStyle, in: decoder)
        func key(_ codingKey: CodingKeys, _ fallback: LocalizableStrings.Key) throws -> String {
            try values.name(codingKey) ?? fallback.rawValue
        }
        textualKeys = try TextualKeys(
            platformButtonTextKey: key(.platformButtonText, .webAuthnPlatformButton),
            platformMessageTextKey: key(.platformMessageText, .webAuthnPlatformMessage),
            crossPlatformButtonTextKey: key(.crossPlatformButtonText, .webAuthnCrossPlatformButton),
            crossPlatformMessageTextKey: key(.crossPlatformMessageText, .webAuthnCrossPlatformMessage),
            errorButtonTextKey: key(.errorButtonText, .webAuthnErrorButton),
            errorMessageTextKey: key(.errorMessageText, .webAuthnErrorMessage),
            registrationSuccessMessageTextKey: key(.registrationSuccessMessageText, .webAuthnRegistrationSuccessMessage),
            retryButtonTextKey: key(.retryButtonText, .webAuthnRetryButton),
            retryMessageTextKey: key(.retryMessageText, .webAuthnRetryMessage),
            appAssociationErrorMessageTextKey: key(.appAssociationErrorMessageText, .webAuthnAppAssociationErrorMessage),
            noCredentialsMessageTextKey: key(.noCredentialsMessageText, .webAuthnNoCredentialsMessage),
            passkeysNotSupportedMessageTextKey: key(.passkeysNotSupportedMessageText, .passkeysNotSupported))
    }
}

/// The problem screen's style (section `ProblemViewController`).
public final class ProblemViewControllerStyle: UIViewControllerStyle {
    /// The section.
    public static let themeSection = "ProblemViewController"
    /// The header, messages, links, padding and background.
    public let commonVCStyle: CommonViewControllerStyle

    /// Reads the style from its theme section.
    public init(from decoder: any Decoder) throws {
        commonVCStyle = try CommonViewControllerStyle(from: decoder)
    }
}

/// The style of the screen for steps no other screen fits (section `GenericViewController`).
public final class GenericViewControllerStyle: UIViewControllerStyle {
    /// The section.
    public static let themeSection = "GenericViewController"
    /// The header, messages, links, padding and background.
    public let commonVCStyle: CommonViewControllerStyle

    /// Reads the style from its theme section.
    public init(from decoder: any Decoder) throws {
        commonVCStyle = try CommonViewControllerStyle(from: decoder)
    }
}

/// The styles every screen shares (the seeds' `HaapiUIViewControllerStyle`): messages by kind,
/// buttons, links, text fields, checkboxes, pickers, tabs, the banner and the header.
public struct HaapiUIViewControllerStyle: Sendable {
    /// The message styles, one per kind of message (sections `MessageView.*`).
    public struct MessageViewStyles: Sendable {
        /// Error messages (`MessageView.Error`).
        public let error: MessageViewStyle
        /// Warnings (`MessageView.Warn`).
        public let warn: MessageViewStyle
        /// Information (`MessageView.Info`).
        public let info: MessageViewStyle
        /// Where a code was sent (`MessageView.RecipientOfCommunication`).
        public let recipientOfCommunication: MessageViewStyle
        /// Plain content (`MessageView.Content`), also for kinds of messages the kit does not know.
        public let content: MessageViewStyle
        /// Headings (`MessageView.Heading`).
        public let heading: MessageViewStyle
        /// A user name (`MessageView.Username`).
        public let username: MessageViewStyle
        /// A device flow's user code (`MessageView.UserCode`).
        public let userCode: MessageViewStyle

        /// The styles.
        public init(
            error: MessageViewStyle, warn: MessageViewStyle, info: MessageViewStyle, recipientOfCommunication: MessageViewStyle,
            content: MessageViewStyle, heading: MessageViewStyle, username: MessageViewStyle, userCode: MessageViewStyle
        ) {
            self.error = error
            self.warn = warn
            self.info = info
            self.recipientOfCommunication = recipientOfCommunication
            self.content = content
            self.heading = heading
            self.username = username
            self.userCode = userCode
        }

        /// The style of `message` (``InfoMessageModel/messageStyleAttribute``).
        public func style(for message: any InfoMessageModel) -> MessageViewStyle { style(for: message.messageStyleAttribute) }

        /// The style of messages shown as `attribute`.
        public func style(for attribute: MessageStyleAttribute) -> MessageViewStyle {
            switch attribute {
            case .error: return error
            case .warn: return warn
            case .info: return info
            case .recipientofcommunication: return recipientOfCommunication
            case .heading: return heading
            case .username: return username
            case .usercode: return userCode
            case .content: return content
            }
        }

        /// The style of the section `name` (`MessageView.Error`, ...: a ``MessageStyleAttribute/themeSection``);
        /// content for any other name.
        public func style(section name: String) -> MessageViewStyle {
            style(for: MessageStyleAttribute(themeSection: name))
        }
    }

    /// The message styles, by kind.
    public let messageViewStyles: MessageViewStyles
    /// The main button (`ActionableButton.Primary`).
    public let primaryButton: ActionableButtonStyle
    /// The other buttons (`ActionableButton.Secondary`).
    public let secondaryButton: ActionableButtonStyle
    /// Buttons drawn as text (`ActionableButton.Text`).
    public let textButton: ActionableButtonStyle
    /// Links (`LinkView`).
    public let linkView: LinkViewStyle
    /// Text fields (the section the theme's `huiTextField` names).
    public let inputTextField: InputTextFieldStyle
    /// Checkboxes (`CheckboxView`).
    public let checkbox: CheckboxViewStyle
    /// The picker of select fields (`TextPickerView`).
    public let textPicker: TextPickerViewStyle
    /// Tabs (`TabView`).
    public let tabView: TabViewStyle
    /// The banner over the screen (`NotificationBannerView`).
    public let notificationBanner: NotificationBannerViewStyle
    /// The header (`HeaderView`).
    public let header: HeaderViewStyle

    /// The shared styles of `theme`.
    /// - Throws: ``ThemeError`` naming the section and key at fault.
    public init(theme: Theme) throws(ThemeError) {
        func message(_ attribute: MessageStyleAttribute) throws(ThemeError) -> MessageViewStyle {
            try theme.style(MessageViewStyle.self, named: attribute.themeSection)
        }
        messageViewStyles = try MessageViewStyles(
            error: message(.error), warn: message(.warn), info: message(.info),
            recipientOfCommunication: message(.recipientofcommunication),
            content: message(.content), heading: message(.heading), username: message(.username), userCode: message(.usercode))
        primaryButton = try theme.style(ActionableButtonStyle.self, named: "ActionableButton.Primary")
        secondaryButton = try theme.style(ActionableButtonStyle.self, named: "ActionableButton.Secondary")
        textButton = try theme.style(ActionableButtonStyle.self, named: "ActionableButton.Text")
        linkView = try theme.style(LinkViewStyle.self, named: "LinkView")
        inputTextField = try theme.style(InputTextFieldStyle.self, named: theme.textFieldSection)
        checkbox = try theme.style(CheckboxViewStyle.self, named: "CheckboxView")
        textPicker = try theme.style(TextPickerViewStyle.self, named: "TextPickerView")
        tabView = try theme.style(TabViewStyle.self, named: "TabView")
        notificationBanner = try theme.style(NotificationBannerViewStyle.self, named: "NotificationBannerView")
        header = try theme.style(HeaderViewStyle.self, named: "HeaderView")
    }
}

/// A screen style with a stack of content (`contentStyle`), which ``BaseViewController`` applies.
protocol ContentStackStyled {
    var contentStyle: StackViewStyle { get }
}

extension FormViewControllerStyle: ContentStackStyled {}
extension SelectorViewControllerStyle: ContentStackStyled {}
extension PollingViewControllerStyle: ContentStackStyled {}
extension BankIdViewControllerStyle: ContentStackStyled {}
extension WebAuthnViewControllerStyle: ContentStackStyled {}

/// A screen style with its own look for texts between the elements (`contentTextAppearance`,
/// `contentTextColorName`), which ``BaseViewController`` draws them in.
protocol ContentTextStyled {
    var contentTextAppearance: TextAppearance { get }
    var contentTextColorName: String { get }
}

extension FormViewControllerStyle: ContentTextStyled {}
extension BankIdViewControllerStyle: ContentTextStyled {}
extension WebAuthnViewControllerStyle: ContentTextStyled {}

/// A screen style with its own spinner for a wait (`loadingIndicatorViewStyle`,
/// `loadingIndicatorSideDimension`), which ``BaseViewController`` draws.
protocol LoadingIndicatorStyled {
    var loadingIndicatorViewStyle: LoadingIndicatorViewStyle { get }
    var loadingIndicatorSideDimension: Double { get }
}

extension PollingViewControllerStyle: LoadingIndicatorStyled {}
extension WebAuthnViewControllerStyle: LoadingIndicatorStyled {}
