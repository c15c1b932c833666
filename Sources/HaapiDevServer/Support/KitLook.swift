import HaapiPreview
import HaapiUI
import OAuthCore

/// The look of the server's browser pages: the UI kit's default theme, as `haapi preview` draws
/// the kit's screens, so a login in the browser looks like the same login in the app.
enum KitLook {
    /// The style sheet, made once (the kit's theme never changes while the server runs).
    static let styleSheet: Markup = {
        guard let theme = try? Theme.kit, let page = try? ScreenPage(theme: theme, assets: try AppAssets(), strings: LocalizableStrings(languages: ["en"])) else {
            return "body { font-family: system-ui, sans-serif; max-width: 28em; margin: 2em auto; padding: 0 16px; }"
        }
        return page.styleSheet + page.plainPageRules
    }()
}
