import Foundation
import HaapiUI
import OAuthCore

/// Draws a kit ``Screen`` as a web page, with the theme applied as the UIKit screens apply it:
/// the same value, the same theme sections (`data-style` on each element), colours light and
/// dark, fonts, sizes, paddings and corner radii. Every text is escaped: a server's words never
/// become markup.
public struct ScreenPage: Sendable {
    /// The theme (the kit's, with an app's laid over it).
    public let theme: Theme
    /// The colours, the app's first.
    public let assets: AppAssets
    /// What decides the screens, in the language asked.
    public let builder: ScreenBuilder
    /// The styles every screen shares.
    public let common: HaapiUIViewControllerStyle
    /// Draws a QR code's data as an SVG element (`nil`: a placeholder is drawn).
    package let qrCode: (@Sendable (String) -> Markup?)?

    /// Pages for `theme` in the language of `strings`, with `assets`'s colours; QR codes drawn by `qrCode`.
    /// - Throws: ``ThemeError`` when the theme lacks a style the screens need.
    package init(theme: Theme, assets: AppAssets, strings: LocalizableStrings, qrCode: (@Sendable (String) -> Markup?)? = nil) throws {
        self.theme = theme
        self.assets = assets
        self.qrCode = qrCode
        builder = ScreenBuilder(strings: strings, theme: theme)
        common = try HaapiUIViewControllerStyle(theme: theme)
    }

    // MARK: Pages

    /// The page of `screen`, titled `title`, as the kit lays it out (``ScreenLayout``): the
    /// phone's safe area, the navigation bar with the screen's title and the way out, the
    /// screen's padding and background, its header, and its three stacks with their spacing,
    /// alignment and padding. The server's images as `images` holds them by `href`
    /// (``Screen/serverImages``, loaded by ``RemoteImages``); `data:` images are decoded here.
    package func html(_ screen: Screen, title: String, images: [String: RemoteImages.Outcome] = [:]) -> Markup {
        guard let layout = try? ScreenLayout(screen, theme: theme) else {
            return document(title: title, body: "<main class=\"screen\"></main>\n")
        }
        var body: Markup = "<div class=\"safe-area top\" aria-hidden=\"true\"></div>\n\(markup: navigationBarHTML(layout.navigationBar))"
        let padding = PaddingStyle(
            top: layout.flowPadding.top + layout.padding.top, right: layout.flowPadding.right + layout.padding.right,
            bottom: layout.flowPadding.bottom + layout.padding.bottom, left: layout.flowPadding.left + layout.padding.left)
        let background: Markup = color(layout.backgroundColorName).map { "background: \(markup: $0); " } ?? .empty
        body +=
            "<main class=\"screen\" data-kind=\"\(text: screen.kind.rawValue)\" data-style=\"\(text: screen.kind.themeSection)\" style=\"\(markup: background)padding: \(markup: cssPadding(padding))\">\n"
        if let header = headerHTML() { body += header }
        for (name, items, stack) in [
            ("messages", screen.messages, layout.messages), ("content", screen.content, layout.content),
            ("links", screen.links, layout.links),
        ]
        where !items.isEmpty {
            body +=
                "<section class=\"\(text: name)\" style=\"\(markup: cssStack(stack))\">\n\(markup: Markup.joined(items.map { html($0, in: screen, images: images) }, separator: "\n"))\n</section>\n"
        }
        body += "</main>\n<div class=\"safe-area bottom\" aria-hidden=\"true\"></div>\n"
        return document(title: title, body: body)
    }

    /// The bar over the screen: the way out (✕, or Back) at the leading end, the title in the middle.
    private func navigationBarHTML(_ bar: ScreenLayout.NavigationBar) -> Markup {
        let tint: Markup = color(bar.tintColorName).map { "color: \(markup: $0); " } ?? .empty
        let size: Markup = "min-width: \(markup: px(bar.targetWidth)); min-height: \(markup: px(bar.targetHeight))"
        let leave: Markup
        switch bar.leave {
        case .close:
            let glyph = assets.imageHTML(named: bar.closeImageName) ?? "&#x2715;"
            leave =
                "<button class=\"leave\" type=\"button\" aria-label=\"\(text: builder.strings.string(.cancel))\" style=\"\(markup: tint)\(markup: size)\">\(markup: glyph)</button>"
        case .back:
            leave =
                "<button class=\"leave\" type=\"button\" style=\"\(markup: tint)\(markup: size)\">\(text: builder.strings.string(.back))</button>"
        }
        let title: Markup = "<span class=\"title\">\(text: bar.title ?? "")</span>"
        return
            "<nav class=\"navigation-bar\" data-style=\"HaapiFlowViewController\">\(markup: leave)\(markup: title)<span class=\"balance\" aria-hidden=\"true\" style=\"\(markup: size)\"></span></nav>\n"
    }

    /// A stack's CSS: a column, its spacing, alignment, padding and background.
    private func cssStack(_ stack: ScreenLayout.Stack) -> Markup {
        let align: Markup
        switch stack.alignment {
        case .fill: align = "stretch"
        case .leading, .top: align = "flex-start"
        case .center: align = "center"
        case .trailing, .bottom: align = "flex-end"
        case .firstBaseline, .lastBaseline: align = "baseline"
        }
        let background: Markup = color(stack.backgroundColorName).map { "; background: \(markup: $0)" } ?? .empty
        return
            "gap: \(markup: px(stack.spacing)); align-items: \(markup: align); padding: \(markup: cssPadding(stack.padding))\(markup: background)"
    }

    /// An index of pages, in the kit's look: each `(title, link, caption)` a card with what it
    /// shows (`caption`: a screen's ``ScreenKind/title`` in the page's language, or another text).
    /// A card's link is a ``PageLink``: a page this program wrote, never a name taken as a URL.
    package func index(_ pages: [(title: String, link: PageLink, caption: String)], title: String) -> Markup {
        let rows = pages.map { page -> Markup in
            "<li><a class=\"card\" href=\"\(link: page.link)\"><span class=\"name\">\(text: page.title)</span><span class=\"caption\">\(text: page.caption)</span></a></li>"
        }
        let body: Markup =
            "<div class=\"safe-area top\" aria-hidden=\"true\"></div>\n<nav class=\"navigation-bar\"><span class=\"title\">\(text: title)</span></nav>\n"
            + "<main class=\"screen index\" data-kind=\"index\">\n<ul>\n\(markup: Markup.joined(rows, separator: "\n"))\n</ul>\n</main>\n"
        return document(title: title, body: body)
    }

    /// The `generator` of the pages written: `haapi preview` removes from its folder the pages
    /// it wrote before, and only those.
    public static let generator = "haapi preview"

    private func document(title: String, body: Markup) -> Markup {
        """
        <!doctype html>
        <html lang="\(text: builder.strings.language)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="\(text: Self.generator)">
        <title>\(text: title)</title>
        <style>
        \(markup: styleSheet)
        </style>
        </head>
        <body>
        \(markup: body)</body>
        </html>

        """
    }

    // MARK: Elements

    private func html(_ item: ScreenItem, in screen: Screen, images: [String: RemoteImages.Outcome]) -> Markup {
        let style: Markup = item.themeSection.map { " data-style=\"\(text: $0)\"" } ?? .empty
        let said = builder.accessibility(of: item)
        switch item {
        case .message(let text, _):
            // A heading is one to a screen reader, and an error is said as it appears, as on iOS.
            let role: Markup = said.isHeader ? " role=\"heading\" aria-level=\"2\"" : said.announcement != nil ? " role=\"alert\"" : .empty
            return
                "<div class=\"item item-message\"\(markup: style)\(markup: role)>\(markup: icon(for: item))<span>\(text: text)</span></div>"
        case .text(let text):
            return "<p class=\"item item-text\">\(text: text)</p>"
        case .section(let title):
            return "<h2 class=\"item item-section\">\(text: title)</h2>"
        case .textField(let field):
            var input: Markup =
                "<input type=\"\(text: field.isSecure ? "password" : Self.inputType(field.keyboard))\" name=\"\(text: field.name)\""
            input += " autocomplete=\"\(text: Self.autocomplete(field.contentType))\" enterkeyhint=\"\(text: field.returnKey.rawValue)\""
            input += " inputmode=\"\(text: Self.inputMode(field.keyboard))\" aria-label=\"\(text: said.label ?? field.label)\""
            if let placeholder = field.placeholder { input += " placeholder=\"\(text: placeholder)\"" }
            if let value = field.value { input += " value=\"\(text: value)\"" }
            if let maxLength = field.maxLength { input += " maxlength=\"\(text: maxLength)\"" }
            if field.isRequired { input += " required" }
            if field.name == screen.focus { input += " autofocus" }
            if field.error != nil { input += " aria-invalid=\"true\"" }
            input += ">"
            if field.showsSecureEntryToggle {
                // The kit's eye (Images.revealPassword), or the app's image of that name.
                let eye = assets.imageHTML(named: Images.revealPassword) ?? .empty
                input +=
                    "<button type=\"button\" class=\"reveal\" aria-label=\"\(text: builder.strings.string(.showPassword))\" data-image=\"\(text: Images.revealPassword)\">\(markup: eye)</button>"
            }
            let error: Markup = field.error.map { "<span class=\"error\" role=\"alert\">\(text: $0)</span>" } ?? .empty
            return
                "<label class=\"item item-textField\"\(markup: style)><span class=\"title\">\(text: field.label)</span><span class=\"box\">\(markup: input)</span>\(markup: error)</label>"
        case .checkbox(let box):
            let state: Markup = (box.isChecked ? " checked" : .empty) + (box.isReadonly ? " disabled" : .empty)
            let error: Markup = box.error.map { "<span class=\"error\" role=\"alert\">\(text: $0)</span>" } ?? .empty
            return
                "<label class=\"item item-checkbox\"\(markup: style)><input type=\"checkbox\" name=\"\(text: box.name)\"\(markup: state)><span>\(text: box.label)</span>\(markup: error)</label>"
        case .picker(let picker):
            let options = picker.options.map { option -> Markup in
                "<option value=\"\(text: option.value)\"\(markup: option.isSelected ? " selected" : .empty)>\(text: option.label)</option>"
            }
            // As the kit's picker: a field that shows the chosen value, and a chevron that opens the choices.
            let chevron = assets.imageHTML(named: "hui_ic_chevron_right") ?? .empty
            return "<label class=\"item item-picker\"\(markup: style)><span class=\"title\">\(text: picker.label)</span>"
                + "<span class=\"box\"><select name=\"\(text: picker.name)\">\(markup: Markup.joined(options))</select><span class=\"chevron\" aria-hidden=\"true\">\(markup: chevron)</span></span></label>"
        case .button(let button):
            let icon: Markup =
                button.icon.flatMap { name in
                    assets.imageHTML(named: name).map { image -> Markup in
                        "<span class=\"icon\" aria-hidden=\"true\" data-image=\"\(text: name)\">\(markup: image)</span>"
                    }
                } ?? .empty
            return
                "<button class=\"item item-button role-\(cssIdentifier: button.role.rawValue)\"\(markup: style) type=\"button\">\(markup: icon)<span>\(text: button.title)</span></button>"
        case .tabs(let titles, let selected):
            let tabs = titles.enumerated().map { index, title -> Markup in
                "<button type=\"button\" role=\"tab\" aria-selected=\"\(text: index == selected)\"\(markup: index == selected ? " class=\"selected\"" : .empty)>\(text: title)</button>"
            }
            return "<div class=\"item item-tabs\"\(markup: style) role=\"tablist\">\(markup: Markup.joined(tabs))</div>"
        case .loadingIndicator:
            return
                "<div class=\"item item-loadingIndicator\"\(markup: style) role=\"progressbar\" aria-label=\"\(text: said.label ?? "")\"><span class=\"spinner\"></span></div>"
        case .countdown(let countdown):
            let bar: Markup =
                countdown.showsProgress
                ? countdown.fractionLeft.map { "<progress max=\"1\" value=\"\(number: $0)\"></progress>" } ?? .empty : .empty
            return "<div class=\"item item-countdown\" aria-live=\"polite\">\(markup: bar)<span>\(text: countdown.text)</span></div>"
        case .qrCode(let data, let image):
            if data == nil, let image {
                return serverImage(image, outcome: images[image.href], label: said.label ?? "", kind: "qrCode")
            }
            let drawn = data.flatMap { qrCode?($0) } ?? placeholder(.notLoaded)
            return "<div class=\"item item-qrCode\" role=\"img\" aria-label=\"\(text: said.label ?? "")\">\(markup: drawn)</div>"
        case .serverImage(let image):
            return serverImage(image, outcome: images[image.href], label: said.label ?? "", kind: "serverImage")
        case .image(let name, let label):
            // The app's image of that name, else its label (the kit has no logo of its own).
            let drawn = assets.imageHTML(named: name) ?? "<span>\(text: label)</span>"
            return
                "<div class=\"item item-image\"\(markup: style) role=\"img\" aria-label=\"\(text: label)\" data-image=\"\(text: name)\">\(markup: drawn)</div>"
        case .expandable(let title, let body):
            let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Markup in "\(text: line)" }
            return
                "<details class=\"item item-expandable\"\(markup: style)><summary>\(text: title)</summary><p>\(markup: Markup.joined(lines, separator: "<br>"))</p></details>"
        case .link(let title, _):
            return "<a class=\"item item-link\"\(markup: style) href=\"\(link: .none)\">\(text: title)</a>"
        }
    }

    /// A server's image: a `data:` one decoded here, another as loaded (`outcome`); where there
    /// is none, a placeholder that says why.
    private func serverImage(_ image: KitLinkItem, outcome: RemoteImages.Outcome?, label: String, kind: String) -> Markup {
        let loaded =
            image.href.lowercased().hasPrefix("data:") ? RemoteImages.decodeDataURL(image.href) : outcome ?? .unavailable(.notLoaded)
        switch loaded {
        case .image(let data, let mediaType):
            return
                "<div class=\"item item-\(cssIdentifier: kind)\"><img alt=\"\(text: label)\" src=\"\(link: .image(data, mediaType: mediaType))\"></div>"
        case .unavailable(let reason):
            return
                "<div class=\"item item-\(cssIdentifier: kind)\" role=\"img\" aria-label=\"\(text: label)\">\(markup: placeholder(reason))</div>"
        }
    }

    /// What stands in for an image that is not shown: a framed box saying why.
    private func placeholder(_ reason: RemoteImages.Reason) -> Markup {
        "<span class=\"placeholder\" data-reason=\"\(text: String(describing: reason))\">\(text: builder.strings.string(reason.text))</span>"
    }

    /// A message's icon from its style (`imageName`): the app's image, else the kit's symbol's outline.
    private func icon(for item: ScreenItem) -> Markup {
        guard case .message(_, let section) = item, let name = common.messageViewStyles.style(section: section).imageName,
            let image = assets.imageHTML(named: name)
        else { return .empty }
        return "<span class=\"icon\" aria-hidden=\"true\" data-image=\"\(text: name)\">\(markup: image)</span>"
    }

    /// The header: the app's logo (the style's `imageName`) and title, when the theme names them.
    private func headerHTML() -> Markup? {
        let header = common.header
        let logo = assets.imageHTML(named: header.imageName).map { image -> Markup in
            "<span class=\"logo\" data-image=\"\(text: header.imageName ?? "")\">\(markup: image)</span>"
        }
        guard logo != nil || header.titleText != nil else { return nil }
        let title: Markup = header.titleText.map { "<span>\(text: builder.strings.string(forKey: $0))</span>" } ?? .empty
        return "<header class=\"item item-header\" data-style=\"HeaderView\">\(markup: logo)\(markup: title)</header>\n"
    }

    // MARK: Mappings

    static func inputType(_ keyboard: InputTextConfiguration.Keyboard) -> String {
        switch keyboard {
        case .email: return "email"
        case .phone: return "tel"
        case .url: return "url"
        case .text, .number: return "text"
        }
    }

    static func inputMode(_ keyboard: InputTextConfiguration.Keyboard) -> String {
        switch keyboard {
        case .text: return "text"
        case .number: return "numeric"
        case .email: return "email"
        case .phone: return "tel"
        case .url: return "url"
        }
    }

    static func autocomplete(_ contentType: ScreenItem.TextField.ContentType) -> String {
        switch contentType {
        case .username: return "username"
        case .password: return "current-password"
        case .newPassword: return "new-password"
        case .oneTimeCode: return "one-time-code"
        case .emailAddress: return "email"
        case .telephoneNumber: return "tel"
        case .url: return "url"
        case .none: return "off"
        }
    }
}
