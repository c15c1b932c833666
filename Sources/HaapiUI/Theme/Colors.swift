/// The kit's colours by their `hui_*` names, for light and dark appearance. The theme names
/// colours; an app that has a colour set of the same name in its asset catalog overrides the
/// kit's, so the whole kit is recoloured without a theme plist.
public enum Colors {
    /// A colour in light and dark appearance, each `0xRRGGBBAA` in sRGB.
    public struct Value: Sendable, Hashable {
        /// The colour in light appearance, `0xRRGGBBAA`.
        public let light: UInt32
        /// The colour in dark appearance, `0xRRGGBBAA`.
        public let dark: UInt32

        /// A colour that differs between light and dark appearance.
        public init(light: UInt32, dark: UInt32) {
            self.light = light
            self.dark = dark
        }

        /// A colour that is the same in both.
        public init(_ both: UInt32) { self.init(light: both, dark: both) }

        /// The red, green, blue and alpha components of `rgba`, each from 0 to 1.
        public static func components(_ rgba: UInt32) -> (red: Double, green: Double, blue: Double, alpha: Double) {
            func channel(_ shift: UInt32) -> Double { Double((rgba >> shift) & 0xFF) / 255 }
            return (channel(24), channel(16), channel(8), channel(0))
        }
    }

    /// The kit's palette: Curity's UI kit 5.4 colour sets (their names and values, light and
    /// dark), except where one of its text and background pairs falls below WCAG AA contrast:
    /// there the nearest colour of the same hue and saturation that passes (lighter or darker),
    /// each marked below and listed in docs/PORTING.md. `ThemeContrast` holds the whole default
    /// theme to AA. `*_immutable` colours are meant not to change with the appearance; two take
    /// a dark variant to stay readable on the dark background.
    public static let kit: [String: Value] = [
        "hui_background": Value(light: 0xFFFF_FFFF, dark: 0x4249_5BFF),
        "hui_button_background_primary": Value(0x646E_85FF),
        "hui_button_background_secondary": Value(0xFFFF_FFFF),
        "hui_button_loading_indicator_tint_primary": Value(0xFFFF_FFFF),
        "hui_button_loading_indicator_tint_secondary": Value(0x646E_85FF),
        "hui_button_loading_indicator_tint_text": Value(0x1517_1DFF),
        "hui_button_stroke_secondary": Value(0xC6C6_C6FF),
        "hui_button_text": Value(0xFFFF_FFFF),
        "hui_checkbox_off_background": Value(0xFFFF_FFFF),
        "hui_checkbox_on_background": Value(0xD55B_A0FF),
        "hui_checkbox_stroke": Value(light: 0x9494_94FF, dark: 0xC6C6_C6FF),  // Curity: C6C6C6FF; WCAG non-text contrast (ThemeContrast)
        "hui_close_button_tint": Value(light: 0x1517_1DFF, dark: 0xFFFF_FFFF),
        "hui_curity_logo": Value(0x636E_88FF),
        "hui_error_immutable": Value(light: 0xCA2E_2BFF, dark: 0xECA6_A4FF),  // Curity: CA2E2BFF; WCAG AA (ThemeContrast)
        "hui_grey_immutable": Value(0xC6C6_C6FF),
        "hui_grey_light_background_immutable": Value(0xF6F6_F6FF),
        "hui_input_text_view_background": Value(0xFFFF_FFFF),
        "hui_input_text_view_stroke": Value(0x646E_85FF),
        "hui_message_view_content_text": Value(light: 0x6666_66FF, dark: 0xFFFF_FFFF),
        "hui_message_view_error_background": Value(light: 0xCA2E_2B14, dark: 0xCA2E_2BFF),
        "hui_message_view_error_text": Value(light: 0xCA2E_2BFF, dark: 0xFFFF_FFFF),
        "hui_message_view_heading_text": Value(light: 0x6666_66FF, dark: 0xFFFF_FFFF),
        // Curity: 70BBE114 / 70BBE1FF; WCAG AA (ThemeContrast)
        "hui_message_view_info_background": Value(light: 0x70BB_E114, dark: 0x247E_ACFF),
        "hui_message_view_info_text": Value(light: 0x237A_A6FF, dark: 0xFFFF_FFFF),  // Curity: 70BBE1FF / FFFFFFFF; WCAG AA (ThemeContrast)
        "hui_message_view_roc_text": Value(light: 0x1111_11FF, dark: 0xC6C6_C6FF),
        // Curity: E0C01C14 / E0C01CFF; WCAG AA (ThemeContrast)
        "hui_message_view_warning_background": Value(light: 0xE0C0_1C14, dark: 0x8976_11FF),
        // Curity: E0C01CFF / FFFFFFFF; WCAG AA (ThemeContrast)
        "hui_message_view_warning_text": Value(light: 0x8572_11FF, dark: 0xFFFF_FFFF),
        "hui_notification_banner_text": Value(light: 0xFFFF_FFFF, dark: 0x1517_1DFF),  // Curity: FFFFFFFF; WCAG AA (ThemeContrast)
        "hui_placeholder_immutable": Value(0x7676_76FF),  // Curity: B3B3B3FF; WCAG AA (ThemeContrast)
        "hui_primary_immutable": Value(0x646E_85FF),
        "hui_spot_magenta_immutable": Value(light: 0xCD3D_8FFF, dark: 0xE8A3_CAFF),  // Curity: D55BA0FF; WCAG AA (ThemeContrast)
        "hui_success_immutable": Value(light: 0x3982_7CFF, dark: 0x48A6_9EFF),  // Curity: 48A69EFF; WCAG AA (ThemeContrast)
        "hui_text": Value(light: 0x6666_66FF, dark: 0xFFFF_FFFF),
        "hui_text_headings": Value(light: 0x1111_11FF, dark: 0xFFFF_FFFF),
        "hui_text_immutable": Value(0x6666_66FF),
        "hui_text_paragraphs": Value(light: 0x6666_66FF, dark: 0xFFFF_FFFF),
        "hui_transparent": Value(0x0000_0000),
    ]
}

/// The kit's images by their `hui_*` names (Curity's UI kit's names), drawn with SF Symbols (the
/// symbol each stands for); an app's image of the same name in its asset catalog wins.
public enum Images {
    /// The SF Symbol of each of the kit's image names.
    public static let kitSymbols: [String: String] = [
        "hui_ic_warning": "exclamationmark.triangle.fill",
        "hui_ic_warning_circle": "exclamationmark.circle",
        "hui_ic_email": "envelope",
        "hui_ic_cb_checked": "checkmark.square.fill",
        "hui_ic_cb_unchecked": "square",
        "hui_ic_chevron_right": "chevron.right",
        "hui_ic_eye": "eye",
        "hui_ic_eye_crossed": "eye.slash",
        "hui_ic_bankid_login_symbol": "person.crop.rectangle",
        "xmark": "xmark",
    ]

    /// The image of the button that shows a password (Curity's name).
    public static let revealPassword = "hui_ic_eye"
    /// The image of the button that hides it again (Curity's name).
    public static let hidePassword = "hui_ic_eye_crossed"

    /// The SF Symbol drawn for the image `name` when the app has no image of that name: the
    /// kit's images and authenticators' icons (``AuthenticatorIcons``); `nil` for another name.
    public static func symbol(for name: String) -> String? {
        kitSymbols[name] ?? AuthenticatorIcons.symbol(for: name)
    }
}
