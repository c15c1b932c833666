import Foundation
import HaapiUI
import Testing

/// The kit's default look is Curity's: every value of Curity's `Theme.plist` and every colour
/// set of its asset catalog (UI kit 5.4.0, read as facts into `Fixtures/curity-kit-5.4-defaults.json`)
/// is the kit's default, but for the differences listed here, each with its reason in
/// docs/PORTING.md; and the default theme's texts reach WCAG AA contrast, light and dark.
@Suite struct ThemeDefaultsTests {
    static let fixture = Documents.packageRoot.appendingPathComponent("Tests/HaapiUITests/Fixtures/curity-kit-5.4-defaults.json")
    static let porting = Documents.packageRoot.appendingPathComponent("docs/PORTING.md")

    /// Theme values kept different on purpose (`Section.key`): why, in a word; PORTING.md says more.
    static let themeDifferences: [String: String] = [
        "fontName": "the system font at Curity's sizes (Roboto is Curity's to ship)",
        "HeaderView.imageName": "no Curity logo",
        "ExpandableView.titleTextColorName": "contrast on the dark background",
        "ExpandableView.contentTextColorName": "contrast on the dark background",
        "ExpandableView.iconTintColorName": "contrast on the dark background",
        "TabView.textColorName": "contrast on the dark background",
        "InputTextField.borderColorName": "a text field's outline shows where it is: 3:1 on white",
        "InputTextField.Curity.borderColorName": "a text field's outline shows where it is: 3:1 on white",
        "InputTextField.Outlined.borderColorName": "a text field's outline shows where it is: 3:1 on white",
    ]
    /// Colours kept different on purpose: the nearest of the same hue that reaches WCAG AA.
    static let colourDifferences: Set = [
        "hui_spot_magenta_immutable", "hui_placeholder_immutable", "hui_message_view_info_text", "hui_message_view_info_background",
        "hui_message_view_warning_text", "hui_message_view_warning_background", "hui_error_immutable", "hui_success_immutable",
        "hui_notification_banner_text", "hui_checkbox_stroke",
    ]

    /// Curity's theme and palette, from the fixture.
    static func curity() throws -> (theme: Theme, colours: [String: Colors.Value]) {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [String: Any])
        let theme = try Theme(
            plist: PropertyListSerialization.data(fromPropertyList: try #require(json["theme"]), format: .xml, options: 0),
            source: "Curity's Theme.plist")
        let colours = try #require(json["colours"] as? [String: [String]]).mapValues { Colors.Value(light: rgba($0[0]), dark: rgba($0[1])) }
        return (theme, colours)
    }

    /// A theme's values, flattened: `Section.key` for a section's, `key` for a top-level one.
    static func flattened(_ theme: Theme) -> [String: ThemeValue] {
        var flat: [String: ThemeValue] = [:]
        for (name, value) in theme.values {
            if case .dictionary(let members) = value {
                for (key, member) in members { flat["\(name).\(key)"] = member }
            } else {
                flat[name] = value
            }
        }
        return flat
    }

    static func rgba(_ hex: String) -> UInt32 { UInt32(hex, radix: 16) ?? 0 }

    @Test func theDefaultThemeIsCuritysButWhereListed() throws {
        let (curity, kit) = (Self.flattened(try Self.curity().theme), Self.flattened(try Theme.kit))
        #expect(curity.count > 500, "the fixture was read")
        var differences: [String] = []
        for (key, value) in curity.sorted(by: { $0.key < $1.key }) where kit[key] != value {
            differences.append(key)
            #expect(
                Self.themeDifferences[key] != nil,
                "\(key): Curity's \(value), the kit's \(String(describing: kit[key])), and the difference is not listed")
        }
        #expect(
            Set(differences) == Set(Self.themeDifferences.keys),
            "listed but not different: \(Set(Self.themeDifferences.keys).subtracting(differences))")
        let porting = try String(contentsOf: Self.porting, encoding: .utf8)
        for key in Self.themeDifferences.keys { #expect(porting.contains("`\(key)`"), "docs/PORTING.md does not say why \(key) differs") }
    }

    @Test func theDefaultColoursAreCuritysButWhereListed() throws {
        let curity = try Self.curity().colours
        #expect(curity.count == 37)
        var differences: Set<String> = []
        for (name, value) in curity {
            let ours = try #require(Colors.kit[name], "the kit has no colour \(name)")
            if ours != value { differences.insert(name) }
        }
        #expect(differences == Self.colourDifferences)
        let porting = try String(contentsOf: Self.porting, encoding: .utf8)
        for name in Self.colourDifferences { #expect(porting.contains("`\(name)`"), "docs/PORTING.md does not say why \(name) differs") }
    }

    /// Every text, icon and text field outline of the default theme reaches WCAG AA on what it is
    /// drawn on, light and dark (4.5:1 for text, 3:1 for large text and the rest).
    @Test func theDefaultThemeReachesWCAGAA() throws {
        let pairs = ThemeContrast.pairs(of: try Theme.kit) { Colors.kit[$0] }
        #expect(pairs.count > 60, "the pairs were found")
        #expect(pairs.contains { $0.section == "ActionableButton.LinkView" && $0.textKey == "textColorName" })
        let failures = pairs.filter { !$0.passes }
        #expect(failures.isEmpty, "\(failures.map(\.description).joined(separator: "\n"))")
    }

    /// The check fails where Curity's own defaults fall short (its link colour on white is 3.6:1):
    /// Curity's theme and colours, measured, give these failures, among others.
    @Test func curitysOwnDefaultsFallShortWhereTheKitDiffers() throws {
        let curity = try Self.curity()
        let failures = ThemeContrast.failures(of: curity.theme) { curity.colours[$0] }
        let found = Set(failures.map { "\($0.section).\($0.textKey) \($0.appearance.rawValue) \(String(format: "%.1f", $0.ratio))" })
        for expected in [
            "ActionableButton.LinkView.textColorName light 3.6", "MessageView.Info.textColorName light 2.0",
            "MessageView.Warn.textColorName light 1.7",
            "InputTextField.Curity.textFieldPlaceholderColorName light 2.1", "NotificationBannerView.Success.textColorName light 2.9",
            "ExpandableView.titleTextColorName dark 1.6", "TabView.textColorName light 2.1",
            "InputTextField.Curity.borderColorName light 1.7",
        ] {
            #expect(found.contains(expected), "\(expected) not among \(found.sorted())")
        }
    }

    /// WCAG's own examples: black on white is 21:1, a colour on itself 1:1, and #767676 on white
    /// the lightest grey that reaches 4.5:1.
    @Test func theRatioIsWCAGs() {
        #expect(abs(ThemeContrast.ratio(0x0000_00FF, 0xFFFF_FFFF) - 21) < 0.001)
        #expect(abs(ThemeContrast.ratio(0x646E_85FF, 0x646E_85FF) - 1) < 0.001)
        #expect(ThemeContrast.ratio(0x7676_76FF, 0xFFFF_FFFF) >= 4.5 && ThemeContrast.ratio(0x7777_77FF, 0xFFFF_FFFF) < 4.5)
    }
}
