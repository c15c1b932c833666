import HaapiUI
import OAuthCore

extension ScreenPage {
    /// The style sheet of the development server's browser pages (login, consent, `/device`,
    /// approvals): the UI kit's default theme, as `haapi preview` draws the kit's screens, so a
    /// login in the browser looks like the same login in the app. The command line hands it to
    /// the server (``DevServerConfiguration/pageStyle``), which knows nothing of the kit.
    /// Made once: the kit's theme never changes while a process runs.
    package static let kitStyleForServerPages: Markup? = {
        guard let theme = try? Theme.kit,
            let page = try? ScreenPage(theme: theme, assets: try AppAssets(), strings: LocalizableStrings(languages: ["en"]))
        else {
            return nil
        }
        return page.styleSheet + page.plainPageRules
    }()
}
