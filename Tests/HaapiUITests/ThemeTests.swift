import Foundation
import HaapiUI
import Testing

/// The kit's theme: every style resolves from the kit's `Theme.plist`, an app's plist is merged
/// over it key by key, and a bad plist is a `ThemeError` naming the section and key.
@Suite struct ThemeTests {
    /// A theme from a property list written here as a dictionary.
    static func plist(_ values: [String: Any], source: String = "App.plist") throws -> Theme {
        try Theme(plist: PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0), source: source)
    }

    @Test func everyScreenAndSharedStyleResolvesFromTheKitTheme() throws {
        let theme = try Theme.kit
        let form = try theme.style(FormViewControllerStyle.self)
        #expect(form.contentStyle.stackAlignment == .fill)
        #expect(form.headerTextAppearance.textStyleName == "UICTFontTextStyleTitle2")
        // Curity's defaults (UI kit 5.4's Theme.plist; ThemeDefaultsTests holds every value).
        #expect(form.headerTextAppearance.pointSize == 24 && form.headerTextAppearance.alignment == .center)
        #expect(form.contentTextAppearance.lineHeightMultiple == 1.28 && form.contentTextAppearance.paddingTop == 16)
        #expect(form.messagesStyle.stackAlignment == .center && form.linksStyle.spacing == 0)
        #expect(form.backgroundColorName == "hui_transparent" && form.paddingLeft == 8)

        let polling = try theme.style(PollingViewControllerStyle.self)
        #expect(polling.loadingIndicatorViewStyle.strokeColorName == "hui_primary_immutable")
        let bankID = try theme.style(BankIdViewControllerStyle.self)
        #expect(bankID.expandableViewStyle.iconImageName == "hui_ic_chevron_right")
        #expect(bankID.textMinutesRemainingKey == "hui_polling_minutes_remaining")
        let webAuthn = try theme.style(WebAuthnViewControllerStyle.self)
        #expect(webAuthn.textualKeys.passkeysNotSupportedMessageTextKey == "hui_webauth_passkeys_not_supported")
        // Each key's text too (Curity's `passkeysNotSupportedMessageText`), as the screen shows it.
        let strings = LocalizableStrings()
        #expect(webAuthn.textualKeys.passkeysNotSupportedMessageText == strings.string(forKey: "hui_webauth_passkeys_not_supported"))
        #expect(webAuthn.textualKeys.platformButtonText == strings.string(forKey: webAuthn.textualKeys.platformButtonTextKey))
        #expect(webAuthn.textualKeys.platformButtonText != webAuthn.textualKeys.platformButtonTextKey)
        #expect(webAuthn.successNotificationBannerViewStyle.backgroundColorName == "hui_success_immutable")
        _ = try theme.style(SelectorViewControllerStyle.self)
        _ = try theme.style(ProblemViewControllerStyle.self)
        let generic = try theme.style(GenericViewControllerStyle.self)
        #expect(generic.paddingTop == 0)
        let flow = try theme.style(HaapiFlowViewControllerStyle.self, named: HaapiFlowViewControllerStyle.themeSection)
        #expect(flow.backgroundColorName == "hui_background" && flow.closeButtonImageName == "xmark")

        let common = try HaapiUIViewControllerStyle(theme: theme)
        #expect(common.primaryButton.loadingIndicatorViewStyle.strokeColorName == "hui_button_loading_indicator_tint_primary")
        #expect(common.primaryButton.textAppearance.symbolicTrait == nil && common.primaryButton.cornerRadius == 6)
        #expect(common.messageViewStyles.userCode.textAppearance.symbolicTrait == .monoSpace)
        #expect(common.linkView.actionableButtonStyle.minHeight == 36)
        #expect(common.inputTextField.textFieldContentPadding.left == 16)
        #expect(common.header.imageName == nil && common.header.titleText == nil)
        #expect(theme.fontName == nil)
    }

    @Test func messagesTakeTheStyleOfTheirFirstKnownClass() throws {
        let styles = try HaapiUIViewControllerStyle(theme: .kit).messageViewStyles
        func style(_ classes: [String]) -> MessageViewStyle {
            styles.style(
                for: KitInfoMessage(text: "x", messageStyleAttribute: MessageStyleAttribute(classList: classes), classList: classes))
        }
        #expect(style(["error"]) === styles.error)
        #expect(style(["heading", "error"]) === styles.heading)
        #expect(style(["recipientOfCommunication"]) === styles.recipientOfCommunication)
        #expect(style(["userCode"]) === styles.userCode)
        #expect(style([]) === styles.content)
        #expect(style(["p"]) === styles.content)
    }

    /// A section read twice makes two styles of the same values, and changing any key a style reads
    /// (or a section it names) makes another: each style reads every key of its section.
    @Test func aStyleEqualsOnlyAStyleOfTheSameValues() throws {
        let kit = try Theme.kit
        /// `value` at `key` changed: a number plus one, another case, another text style, a copy of
        /// the section it names with other padding (added to `theme`), or another name.
        func changed(_ key: String, _ value: ThemeValue, in theme: inout [String: ThemeValue]) -> ThemeValue {
            func other<E: RawRepresentable & CaseIterable>(_: E.Type, than raw: String) -> ThemeValue where E.RawValue == String {
                .string(E.allCases.map(\.rawValue).first { $0 != raw } ?? raw)
            }
            switch (key, value) {
            case (_, .number(let number)): return .number(number + 1)
            case ("alignment", .string(let raw)): return other(StackViewStyle.Alignment.self, than: raw)
            case ("textAlignment", .string(let raw)): return other(TextAppearance.Alignment.self, than: raw)
            case ("fontSymbolicTrait", .string(let raw)): return other(TextAppearance.SymbolicTrait.self, than: raw)
            case ("fontStyleName", .string(let raw)):
                return .string(theme.keys.sorted().first { $0.hasPrefix("UICTFontTextStyle") && $0 != raw } ?? raw)
            case (_, .string(let name)):
                guard case .dictionary(var section)? = theme[name] else { return .string(name + "_changed") }
                section["paddingTop"] = .number(1_000)
                theme[name + ".Changed"] = .dictionary(section)
                return .string(name + ".Changed")
            default: return value
            }
        }
        /// The keys of `section` whose change leaves its style equal: the keys the style does not read.
        func unreadKeys<S: UIStyle & AnyObject>(_ type: S.Type, _ section: String) throws -> [String] {
            let style = try kit.style(type, named: section)
            let again = try kit.style(type, named: section)
            #expect(sameValues(again, style) && again !== style, "\(section)")
            guard case .dictionary(var keys)? = kit.values[section] else {
                Issue.record("no section \(section)")
                return []
            }
            // Every style reads the common keys; the ones a section leaves out are added at their defaults.
            for key in ["paddingTop", "paddingRight", "paddingBottom", "paddingLeft"] where keys[key] == nil { keys[key] = .number(0) }
            if keys["backgroundColorName"] == nil { keys["backgroundColorName"] = .string("") }
            var unread: [String] = []
            for (key, value) in keys {
                var values = kit.values
                var changedKeys = keys
                changedKeys[key] = changed(key, value, in: &values)
                values[section] = .dictionary(changedKeys)
                let changedStyle = try Theme(values: values, source: "Changed.plist").style(type, named: section)
                if sameValues(changedStyle, style) { unread.append(key) }
            }
            return unread.sorted()
        }
        #expect(try unreadKeys(TextAppearance.self, "TextAppearance.Content") == [])
        #expect(try unreadKeys(StackViewStyle.self, "StackView.Interactions") == [])
        #expect(try unreadKeys(MessageViewStyle.self, "MessageView.Error") == [])
        #expect(try unreadKeys(ActionableButtonStyle.self, "ActionableButton.Primary") == [])
        #expect(try unreadKeys(LoadingIndicatorViewStyle.self, "LoadingIndicatorView") == [])
        #expect(try unreadKeys(LinkViewStyle.self, "LinkView") == [])
        #expect(try unreadKeys(InputTextFieldStyle.self, "InputTextField") == [])
        #expect(try unreadKeys(CheckboxViewStyle.self, "CheckboxView") == [])
        #expect(try unreadKeys(TextPickerViewStyle.self, "TextPickerView") == ["itemViewClassName"])
        #expect(try unreadKeys(NotificationBannerViewStyle.self, "NotificationBannerView.Success") == [])
        #expect(try unreadKeys(TabViewStyle.self, "TabView") == [])
        #expect(try unreadKeys(ExpandableViewStyle.self, "ExpandableView") == [])
        #expect(try unreadKeys(HeaderViewStyle.self, "HeaderView") == [])
        #expect(try unreadKeys(HaapiFlowViewControllerStyle.self, HaapiFlowViewControllerStyle.themeSection) == [])
        #expect(try unreadKeys(FormViewControllerStyle.self, FormViewControllerStyle.themeSection) == [])
        #expect(try unreadKeys(SelectorViewControllerStyle.self, SelectorViewControllerStyle.themeSection) == [])
        #expect(try unreadKeys(PollingViewControllerStyle.self, PollingViewControllerStyle.themeSection) == [])
        #expect(try unreadKeys(BankIdViewControllerStyle.self, BankIdViewControllerStyle.themeSection) == [])
        #expect(try unreadKeys(WebAuthnViewControllerStyle.self, WebAuthnViewControllerStyle.themeSection) == [])
        #expect(try unreadKeys(ProblemViewControllerStyle.self, ProblemViewControllerStyle.themeSection) == [])
        #expect(try unreadKeys(GenericViewControllerStyle.self, GenericViewControllerStyle.themeSection) == [])
        // A text appearance also reads the theme's font and its text style's point size.
        let content = try kit.style(TextAppearance.self, named: "TextAppearance.Content")
        var values = kit.values
        values["fontName"] = .string("Avenir Next")
        #expect(try Theme(values: values, source: "Font.plist").style(TextAppearance.self, named: "TextAppearance.Content") != content)
        values = kit.values
        values[content.textStyleName] = .number(content.pointSize + 1)
        #expect(try Theme(values: values, source: "Size.plist").style(TextAppearance.self, named: "TextAppearance.Content") != content)
        #expect(sameValues(try HaapiUIViewControllerStyle(theme: kit), try HaapiUIViewControllerStyle(theme: kit)))
    }

    @Test func everyColourAndImageTheKitThemeNamesIsInTheKitsPalette() throws {
        let theme = try Theme.kit
        var colours: Set<String> = []
        var images: Set<String> = []
        for case .dictionary(let section) in theme.values.values {
            for (key, value) in section {
                guard case .string(let name) = value, !name.isEmpty else { continue }
                if key.hasSuffix("ColorName") { colours.insert(name) }
                if key.lowercased().contains("imagename") { images.insert(name) }
            }
        }
        #expect(colours.count > 20 && !images.isEmpty)
        #expect(colours.subtracting(Colors.kit.keys).isEmpty, "colours with no value: \(colours.subtracting(Colors.kit.keys).sorted())")
        #expect(
            images.subtracting(Images.kitSymbols.keys).isEmpty,
            "images with no symbol: \(images.subtracting(Images.kitSymbols.keys).sorted())")
        #expect(Colors.Value.components(0x3366_99FF) == (0.2, 0.4, 0.6, 1.0))
    }

    @Test func anAppsPlistIsMergedOverTheKitsKeyByKey() throws {
        let app = try Self.plist([
            "fontName": "Avenir Next",
            "UICTFontTextStyleTitle2": 28,
            "FormViewController": ["headerTextColorName": "brand_ink", "paddingLeft": 24],
            "TextAppearance.Title2.Center": ["fontSymbolicTrait": "traitBold"],
            // A section of the app's own, for a custom screen.
            "MyBrandedButton": [
                "backgroundColorName": "brand", "textAppearance": "TextAppearance.Body", "textColorName": "hui_button_text",
                "loadingIndicatorViewStyle": "LoadingIndicatorView.ButtonPrimary",
            ],
        ])
        let theme = try Theme.kit.merging(app)
        let form = try theme.style(FormViewControllerStyle.self)
        #expect(form.headerTextColorName == "brand_ink" && form.paddingLeft == 24)
        // The keys the app left out are the kit's.
        #expect(form.paddingTop == 8 && form.contentStyle.stackAlignment == .fill && form.contentTextColorName == "hui_text_paragraphs")
        #expect(form.headerTextAppearance.symbolicTrait == .bold && form.headerTextAppearance.alignment == .center)
        #expect(form.headerTextAppearance.pointSize == 28 && form.headerTextAppearance.fontName == "Avenir Next")
        let button = try theme.style(ActionableButtonStyle.self, named: "MyBrandedButton")
        #expect(button.backgroundColorName == "brand" && button.minHeight == 44)
        // The kit's theme itself is unchanged.
        #expect(try Theme.kit.style(FormViewControllerStyle.self).headerTextColorName == "hui_text")
    }

    @Test func aBadThemeIsAnErrorNamingTheSectionAndTheKey() throws {
        func error(_ values: [String: Any], style: (Theme) throws -> Void) throws -> ThemeError {
            let theme = try Theme.kit.merging(Self.plist(values))
            do {
                try style(theme)
            } catch let error as ThemeError {
                return error
            }
            Issue.record("no error for \(values)")
            return ThemeError(source: "", reason: "none")
        }
        let form: (Theme) throws -> Void = { _ = try $0.style(FormViewControllerStyle.self) }

        var failure = try error(["FormViewController": ["contentStyle": "StackView.Nope"]], style: form)
        #expect(failure.section == "FormViewController" && failure.reason.contains("\"StackView.Nope\""))
        #expect(failure.source == "the kit's Theme.plist + App.plist")

        failure = try error(["MessageView.Error": ["textColorName": 3]]) { _ = try HaapiUIViewControllerStyle(theme: $0) }
        #expect(failure.section == "MessageView.Error" && failure.key == "textColorName" && failure.reason == "is not a string")

        failure = try error(["TextAppearance.Content": ["textAlignment": "middle"]], style: form)
        #expect(failure.section == "TextAppearance.Content" && failure.key == "textAlignment")
        #expect(failure.reason.contains("\"middle\" is not one of") && failure.reason.contains("\"center\""))

        failure = try error(["TextAppearance.Content": ["fontStyleName": "UICTFontTextStyleHuge"]], style: form)
        #expect(failure.key == "fontStyleName" && failure.reason.contains("no point size for \"UICTFontTextStyleHuge\""))

        failure = try error(
            [
                "StackView.Interactions": [
                    "alignment": "fill", "spacing": 8, "backgroundColorName": "StackView.Interactions", "paddingTop": "x",
                ]
            ], style: form)
        #expect(failure.section == "StackView.Interactions" && failure.key == "paddingTop" && failure.reason == "is not a number")

        // A merge cannot remove a key: a theme edited by hand can.
        var values = try Theme.kit.values
        values["LoadingIndicatorView"] = .dictionary([:])
        #expect {
            try Theme(values: values, source: "Edited.plist").style(PollingViewControllerStyle.self)
        } throws: {
            ($0 as? ThemeError)
                == ThemeError(source: "Edited.plist", section: "LoadingIndicatorView", key: "strokeColorName", reason: "missing")
        }

        failure = try error(["A": ["textAppearance": "B", "textColorName": "x", "loadingIndicatorViewStyle": "A"]]) {
            _ = try $0.style(ActionableButtonStyle.self, named: "A")
        }
        #expect(failure.reason.contains("no such section") || failure.reason.contains("\"B\""))

        failure = try error(["A": ["actionableButtonStyle": "A"]]) { _ = try $0.style(LinkViewStyle.self, named: "A") }
        #expect(failure.reason.contains("sections name each other: A -> A"))

        failure = try error([:]) { _ = try $0.style(FormViewControllerStyle.self, named: "MyScreen") }
        #expect(failure.section == "MyScreen" && failure.reason == "no such section")
        #expect(failure.errorDescription == "the kit's Theme.plist + App.plist, section \"MyScreen\": no such section")

        #expect(throws: ThemeError.self) { try Theme(plist: Data("not a plist".utf8), source: "Broken.plist") }
        #expect(throws: ThemeError.self) {
            try Theme(plist: PropertyListSerialization.data(fromPropertyList: [1, 2], format: .xml, options: 0), source: "Array.plist")
        }
    }
}

/// `HaapiUIKitApplicationBuilder`: the app's theme plist from its bundle, checked in full by
/// `buildOrThrow()`.
@Suite struct ApplicationThemeTests {
    static let configuration: HaapiUIKitConfiguration = {
        let base = URL(string: "https://idsvr.example")!
        return HaapiUIKitConfigurationBuilder(
            clientId: "c", baseUrl: base, tokenEndpointUrl: base.appendingPathComponent("token"),
            authorizationEndpointUrl: base.appendingPathComponent("authorize"), appRedirect: "app://cb"
        ).build()
    }()

    /// A bundle (a directory) holding `files`.
    static func bundle(_ files: [String: [String: Any]]) throws -> (Bundle, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("theme-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, values) in files {
            try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0).write(
                to: directory.appendingPathComponent(name))
        }
        return (try #require(Bundle(path: directory.path)), directory)
    }

    @Test func theAppsPlistIsLaidOverTheKitsAndEveryStyleIsReadAtBuild() throws {
        let (bundle, directory) = try Self.bundle([
            "CompanyTheme.plist": ["ActionableButton.Primary": ["backgroundColorName": "company_blue"]]
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let built =
            try HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: Self.configuration)
            .setThemingPlistFileName("CompanyTheme", and: bundle)
            .setLocalizableStrings(LocalizableStrings(languages: ["sv"], appTable: { _ in nil }))
            .buildOrThrow() as? KitApplication
        let application = try #require(built)
        #expect(application.commonStyle.primaryButton.backgroundColorName == "company_blue")
        #expect(application.commonStyle.primaryButton.minHeight == 48)
        #expect(application.screenBuilder.strings.language == "sv")
        // `.plist` may be named too.
        let named = try HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: Self.configuration)
            .setThemingPlistFileName("CompanyTheme.plist", and: bundle).buildOrThrow()
        #expect(named.theme.source == "the kit's Theme.plist + CompanyTheme.plist")
    }

    @Test func aMissingOrWrongPlistFailsTheBuildNamingTheFileSectionAndKey() throws {
        let (bundle, directory) = try Self.bundle(["Wrong.plist": ["FormViewController": ["contentStyle": 12]]])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect {
            try HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: Self.configuration).setThemingPlistFileName("Wrong", and: bundle)
                .buildOrThrow()
        } throws: {
            ($0 as? ThemeError)
                == ThemeError(
                    source: "the kit's Theme.plist + Wrong.plist", section: "FormViewController", key: "contentStyle",
                    reason: "is not a string")
        }
        #expect {
            try HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: Self.configuration).setThemingPlistFileName("Absent", and: bundle)
                .buildOrThrow()
        } throws: {
            ($0 as? ThemeError)?.source == "Absent.plist" && ($0 as? ThemeError)?.reason.hasPrefix("no such file") == true
        }
        // build() shows the flow in the kit's theme rather than fail.
        let fallback = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: Self.configuration).setThemingPlistFileName(
            "Wrong", and: bundle
        ).build()
        #expect(fallback.theme.source == "the kit's Theme.plist")
    }
}

/// An app's own style, declared as Curity's kit lets an app declare one: `Decodable` and
/// `Sendable`, with no `==` (the kit's `UIStyle` asks no more than Curity's).
final class CompanyBannerStyle: UIStyle {
    let commonUIStyle: CommonUIStyle
    let titleColorName: String

    private enum CodingKeys: String, CodingKey { case titleColorName }

    init(from decoder: any Decoder) throws {
        commonUIStyle = try CommonUIStyle(from: decoder)
        titleColorName = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .titleColorName)
    }
}

@Suite struct AppStyleTests {
    @Test func anAppsOwnStyleIsReadFromItsSectionWithoutBeingEquatable() throws {
        var values = try Theme.kit.values
        values["CompanyBanner"] = .dictionary(["titleColorName": .string("company_red"), "paddingTop": .number(12)])
        let style = try Theme(values: values, source: "App.plist").style(CompanyBannerStyle.self, named: "CompanyBanner")
        #expect(style.titleColorName == "company_red" && style.paddingTop == 12 && style.backgroundColorName == nil)
    }
}
