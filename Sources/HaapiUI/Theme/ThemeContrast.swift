import Foundation

/// How readable a theme's texts and controls are: the WCAG 2 contrast ratio of each text, icon and
/// border colour a theme names against what it is drawn on, in light and dark appearance, with
/// the level it must reach (AA: 4.5:1 for text, 3:1 for large text, 18 pt and up or 14 pt bold and
/// up, and 3:1 for an icon, or for a border that is what shows where a control is).
///
/// The pairs are read from the theme's sections by their keys, as the kit's views draw them: a
/// section's text colours (`textColorName`, `headerTextColorName`, `textFieldColorName`...) on its
/// `backgroundColorName`, laid over the screen's background (`HaapiFlowViewController`); a text
/// field's title and error on the screen itself. An icon's tint is measured as a text (a clear
/// tint draws none); a text field's or a checkbox's border against the screen around it, unless
/// the field's own background already stands out from the screen by 3:1. Colours with transparency are composited
/// first (a transparent background is the screen's).
/// Only the text field section the theme uses (`huiTextField`) is read of the `InputTextField`
/// variants.
///
/// `haapi preview` warns for each pair an app's theme and colours bring below AA, naming the
/// keys; a test holds the kit's default theme to AA.
public struct ThemeContrast: Sendable, Hashable {
    /// The appearance a pair is measured in.
    public enum Appearance: String, Sendable, CaseIterable {
        /// Light.
        case light
        /// Dark.
        case dark
    }

    /// The section that draws the text (`MessageView.Info`).
    public let section: String
    /// The key naming the text, icon or border colour (`textColorName`, `imageTintColorName`, `borderColorName`).
    public let textKey: String
    /// That colour's name (`hui_message_view_info_text`).
    public let textColor: String
    /// The colour the text is drawn on, as a key of the theme (`MessageView.Info.backgroundColorName`).
    public let backgroundKey: String
    /// That colour's name.
    public let backgroundColor: String
    /// The appearance measured.
    public let appearance: Appearance
    /// The contrast ratio, from 1 to 21.
    public let ratio: Double
    /// The ratio WCAG AA asks of this text: 4.5, or 3 for large text.
    public let required: Double

    /// Whether the pair reaches WCAG AA.
    public var passes: Bool { ratio >= required }

    /// What the pair is, as a line: keys, colours, ratio and what AA asks.
    public var description: String {
        let measured = (ratio * 100).rounded(.down) / 100
        return "\(section).\(textKey) (\(textColor)) on \(backgroundKey) (\(backgroundColor)), \(appearance.rawValue): "
            + "\(String(format: "%.2f", measured)):1, AA asks \(required == 3 ? "3" : "4.5"):1"
    }

    /// The text colour keys the kit's views draw, each with the key of its text appearance.
    static let textKeys: [(color: String, appearance: String)] = [
        ("textColorName", "textAppearance"), ("headerTextColorName", "headerTextAppearance"),
        ("contentTextColorName", "contentTextAppearance"),
        ("titleTextColorName", "titleTextAppearance"), ("titleColorName", "titleTextAppearance"),
        ("textFieldColorName", "textFieldTextAppearance"),
        ("textFieldPlaceholderColorName", "textFieldTextAppearance"), ("errorColorName", "errorTextAppearance"),
        ("highlightTextColorName", "textAppearance"), ("actionTextColorName", "actionTextAppearance"),
        ("toolbarTextTintColorName", "textAppearance"),
    ]
    /// Text colour keys drawn beside their section's box, on the screen: a text field's title and error.
    static let drawnOnScreen: Set = ["titleColorName", "errorColorName"]
    /// The icon colour keys the kit's views draw, on their section's background (3:1).
    static let iconKeys = [
        "imageTintColorName", "tintColorName", "iconTintColorName", "textFieldPasswordImageTintColorName", "closeButtonTintColorName",
        "selectedTabIndicatorColorName",
    ]

    /// Every text pair of `theme`, with colours resolved by `color` (the kit's palette with an
    /// app's colour sets over it); a pair whose colours do not resolve is left out.
    public static func pairs(of theme: Theme, color: (String) -> Colors.Value?) -> [ThemeContrast] {
        guard case .dictionary(let flow)? = theme.values["HaapiFlowViewController"],
            case .string(let screenName)? = flow["backgroundColorName"],
            let screen = color(screenName)
        else { return [] }
        var found: [ThemeContrast] = []
        for (name, value) in theme.values.sorted(by: { $0.key < $1.key }) {
            guard case .dictionary(let section) = value else { continue }
            if name.hasPrefix("InputTextField"), name != theme.textFieldSection { continue }
            // What the section's box is filled with, over the screen (the screen where it is clear).
            var box: (key: String, name: String, value: Colors.Value?) = ("HaapiFlowViewController.backgroundColorName", screenName, nil)
            if case .string(let backgroundName)? = section["backgroundColorName"], !backgroundName.isEmpty {
                guard let value = color(backgroundName) else { continue }
                box = ("\(name).backgroundColorName", backgroundName, value)
            }
            func measure(
                _ key: String, _ colourName: String, _ colour: Colors.Value, on behind: (key: String, name: String, value: Colors.Value?),
                required: Double
            ) {
                for appearance in Appearance.allCases {
                    let screenColor = appearance == .light ? screen.light : screen.dark
                    let background = behind.value.map { over($0[appearance], screenColor) } ?? opaque(screenColor)
                    found.append(
                        ThemeContrast(
                            section: name, textKey: key, textColor: colourName, backgroundKey: behind.key, backgroundColor: behind.name,
                            appearance: appearance,
                            ratio: ratio(over(colour[appearance], background), background), required: required))
                }
            }
            for (key, appearanceKey) in textKeys {
                guard case .string(let textName)? = section[key], !textName.isEmpty, let text = color(textName) else { continue }
                var behind = box
                if key == "toolbarTextTintColorName" {
                    guard case .string(let toolbarName)? = section["toolbarBackgroundColorName"], let toolbar = color(toolbarName) else {
                        continue
                    }
                    behind = ("\(name).toolbarBackgroundColorName", toolbarName, toolbar)
                } else if drawnOnScreen.contains(key) {
                    behind = ("HaapiFlowViewController.backgroundColorName", screenName, nil)
                }
                measure(key, textName, text, on: behind, required: isLarge(section[appearanceKey], in: theme) ? 3.0 : 4.5)
            }
            for key in iconKeys {
                // A clear tint draws no icon.
                guard case .string(let iconName)? = section[key], !iconName.isEmpty, let icon = color(iconName),
                    icon.light & 0xFF != 0 || icon.dark & 0xFF != 0
                else { continue }
                measure(key, iconName, icon, on: box, required: 3)
            }
            // A border must stand out where it is what shows the control: a text field's or a
            // checkbox's, unless its fill already does (a button, a box of text, is shown by its words).
            if name.hasPrefix("InputTextField") || name == "CheckboxView",
                case .string(let borderName)? = section["borderColorName"], !borderName.isEmpty, let border = color(borderName),
                { if case .number(let width)? = section["borderWidth"] { width > 0 } else { true } }(),
                box.value.map({ fill in Appearance.allCases.contains { ratio(over(fill[$0], screen[$0]), opaque(screen[$0])) < 3 } })
                    ?? true
            {
                measure(
                    "borderColorName", borderName, border, on: ("HaapiFlowViewController.backgroundColorName", screenName, nil), required: 3
                )
            }
        }
        return found
    }

    /// The pairs of `theme` below WCAG AA.
    public static func failures(of theme: Theme, color: (String) -> Colors.Value?) -> [ThemeContrast] {
        pairs(of: theme, color: color).filter { !$0.passes }
    }

    /// The WCAG 2 contrast ratio of two opaque colours (`0xRRGGBBAA`, alpha ignored).
    public static func ratio(_ one: UInt32, _ other: UInt32) -> Double {
        let (lighter, darker) = (max(luminance(one), luminance(other)), min(luminance(one), luminance(other)))
        return (lighter + 0.05) / (darker + 0.05)
    }

    /// WCAG 2's relative luminance of an sRGB colour.
    static func luminance(_ rgba: UInt32) -> Double {
        let (red, green, blue, _) = Colors.Value.components(rgba)
        func linear(_ channel: Double) -> Double { channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// `top` laid over the opaque `bottom` by its alpha: an opaque colour.
    static func over(_ top: UInt32, _ bottom: UInt32) -> UInt32 {
        let (red, green, blue, alpha) = Colors.Value.components(top)
        let under = Colors.Value.components(opaque(bottom))
        func channel(_ value: Double, _ below: Double) -> UInt32 { UInt32(((value * alpha + below * (1 - alpha)) * 255).rounded()) }
        return channel(red, under.red) << 24 | channel(green, under.green) << 16 | channel(blue, under.blue) << 8 | 0xFF
    }

    /// `rgba` made opaque: over black, as a window with nothing behind it shows it.
    static func opaque(_ rgba: UInt32) -> UInt32 {
        guard rgba & 0xFF != 0xFF else { return rgba }
        let (red, green, blue, alpha) = Colors.Value.components(rgba)
        func channel(_ value: Double) -> UInt32 { UInt32((value * alpha * 255).rounded()) }
        return channel(red) << 24 | channel(green) << 16 | channel(blue) << 8 | 0xFF
    }

    /// Whether a text appearance (a value naming a `TextAppearance.*` section) is large text for
    /// WCAG: its point size at least 18, or at least 14 when bold.
    static func isLarge(_ appearance: ThemeValue?, in theme: Theme) -> Bool {
        guard case .string(let name)? = appearance, case .dictionary(let section)? = theme.values[name],
            case .string(let style)? = section["fontStyleName"], let size = theme.pointSize(of: style)
        else { return false }
        let bold: Bool = { if case .string(let trait)? = section["fontSymbolicTrait"] { trait == "traitBold" } else { false } }()
        return size >= 18 || (bold && size >= 14)
    }
}

extension Colors.Value {
    /// The colour in `appearance`.
    subscript(appearance: ThemeContrast.Appearance) -> UInt32 { appearance == .light ? light : dark }
}
