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

    /// The kit's palette. `*_immutable` colours do not change with the appearance.
    public static let kit: [String: Value] = [
        "hui_transparent": Value(0x0000_0000),
        "hui_background": Value(light: 0xFFFF_FFFF, dark: 0x1212_14FF),
        "hui_text": Value(light: 0x1B1D_22FF, dark: 0xF2F3_F5FF),
        "hui_text_headings": Value(light: 0x1021_3AFF, dark: 0xE6EC_F5FF),
        "hui_text_paragraphs": Value(light: 0x454B_57FF, dark: 0xC3C8_D1FF),
        "hui_text_immutable": Value(0x1B1D_22FF),
        "hui_primary_immutable": Value(0x2F5F_D0FF),
        "hui_spot_magenta_immutable": Value(0xB02A_78FF),
        "hui_grey_immutable": Value(0xC5CA_D3FF),
        "hui_placeholder_immutable": Value(0x8A90_9BFF),
        "hui_error_immutable": Value(0xC62F_2FFF),
        "hui_success_immutable": Value(0x2E7D_4FFF),
        "hui_button_background_primary": Value(light: 0x2F5F_D0FF, dark: 0x4A78_E6FF),
        "hui_button_background_secondary": Value(light: 0xFFFF_FFFF, dark: 0xE9EC_F1FF),
        "hui_button_stroke_secondary": Value(light: 0xC5CA_D3FF, dark: 0x8A90_9BFF),
        "hui_button_text": Value(0xFFFF_FFFF),
        "hui_button_loading_indicator_tint_primary": Value(0xFFFF_FFFF),
        "hui_button_loading_indicator_tint_secondary": Value(0x2F5F_D0FF),
        "hui_button_loading_indicator_tint_text": Value(0x2F5F_D0FF),
        "hui_checkbox_stroke": Value(light: 0x8A90_9BFF, dark: 0xC5CA_D3FF),
        "hui_close_button_tint": Value(light: 0x454B_57FF, dark: 0xC3C8_D1FF),
        "hui_input_text_view_background": Value(0xFFFF_FFFF),
        "hui_message_view_error_background": Value(light: 0xFDEC_ECFF, dark: 0x4A1C_1CFF),
        "hui_message_view_error_text": Value(light: 0x9B1C_1CFF, dark: 0xFFD4_D4FF),
        "hui_message_view_warning_background": Value(light: 0xFFF4_DCFF, dark: 0x4A3A_12FF),
        "hui_message_view_warning_text": Value(light: 0x7A4B_00FF, dark: 0xFFE6_B0FF),
        "hui_message_view_info_background": Value(light: 0xE8F0_FDFF, dark: 0x1A2C_4DFF),
        "hui_message_view_info_text": Value(light: 0x1F45_9EFF, dark: 0xD6E3_FFFF),
        "hui_message_view_heading_text": Value(light: 0x1021_3AFF, dark: 0xE6EC_F5FF),
        "hui_message_view_roc_text": Value(light: 0x1B1D_22FF, dark: 0xF2F3_F5FF),
        "hui_notification_banner_text": Value(0xFFFF_FFFF),
    ]
}

/// The kit's images by their `hui_*` names, drawn with SF Symbols (the symbol each stands for);
/// an app's image of the same name in its asset catalog wins.
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
        "hui_ic_eye_slash": "eye.slash",
        "xmark": "xmark",
    ]

    /// The SF Symbol drawn for the image `name` when the app has no image of that name: the
    /// kit's images and authenticators' icons (``AuthenticatorIcons``); `nil` for another name.
    public static func symbol(for name: String) -> String? {
        kitSymbols[name] ?? AuthenticatorIcons.symbol(for: name)
    }
}
