import HaapiPreview
import HaapiUI
import OAuthTransportNIO

/// The page a browser shows when it comes back to `haapi`: in the kit's look (the preview's
/// style sheet) and the user's language, saying that the login goes on in the terminal.
enum ReturnPage {
    /// The page maker for the loopback listener, in the language of `strings`.
    static func make(strings: LocalizableStrings) -> LoopbackRedirectListener.ReturnPage {
        let drawn = (try? Theme.kit).flatMap { theme in try? ScreenPage(theme: theme, assets: AppAssets(), strings: strings) }
        return { parameters in
            let (title, text): (LocalizableStrings.Key, LocalizableStrings.Key)
            switch LoopbackRedirectListener.Return(parameters) {
            case .signedIn: (title, text) = (.returnSignedInTitle, .returnSignedIn)
            case .failed: (title, text) = (.returnFailedTitle, .returnFailed)
            case .signedOut: (title, text) = (.returnSignedOutTitle, .returnSignedOut)
            }
            guard let drawn else { return LoopbackRedirectListener.defaultPage(parameters) }
            let screen = Screen(
                kind: .generic,
                messages: [
                    .message(text: strings.string(title), style: MessageStyleAttribute.heading.themeSection),
                    .message(text: strings.string(text), style: MessageStyleAttribute.content.themeSection),
                ], content: [], links: [])
            return drawn.html(screen, title: strings.string(title)).description
        }
    }
}
