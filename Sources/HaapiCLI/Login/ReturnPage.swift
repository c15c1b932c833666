import HaapiCLICore
import HaapiPreview
import HaapiUI
import OAuthTransportNIO

/// The page a browser shows when it comes back to `haapi`: in the kit's look (the preview's
/// style sheet) and the user's language, saying that the login goes on in the terminal.
enum ReturnPage {
    /// The page maker for the loopback listener, in `language` (default: the user's).
    static func make(language: String = Texts.language) -> LoopbackRedirectListener.ReturnPage {
        let strings = LocalizableStrings(languages: [language], appTable: { _ in nil })
        @Sendable func said(_ key: Texts.Key) -> String { Texts.string(key, in: strings.language) }
        let drawn = (try? Theme.kit).flatMap { theme in try? ScreenPage(theme: theme, assets: AppAssets(), strings: strings) }
        return { parameters in
            let (title, text): (Texts.Key, Texts.Key)
            switch LoopbackRedirectListener.Return(parameters) {
            case .signedIn: (title, text) = (.returnSignedInTitle, .returnSignedIn)
            case .failed: (title, text) = (.returnFailedTitle, .returnFailed)
            case .signedOut: (title, text) = (.returnSignedOutTitle, .returnSignedOut)
            }
            guard let drawn else { return LoopbackRedirectListener.defaultPage(parameters) }
            let screen = Screen(
                kind: .generic,
                messages: [
                    .message(text: said(title), style: MessageStyleAttribute.heading.themeSection),
                    .message(text: said(text), style: MessageStyleAttribute.content.themeSection),
                ], content: [], links: [])
            return drawn.html(screen, title: said(title)).description
        }
    }
}
