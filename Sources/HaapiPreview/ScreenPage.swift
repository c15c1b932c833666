import Foundation
import HaapiUI

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
    public let qrCode: (@Sendable (String) -> String?)?

    /// Pages for `theme` in the language of `strings`, with `assets`'s colours; QR codes drawn by `qrCode`.
    /// - Throws: ``ThemeError`` when the theme lacks a style the screens need.
    public init(theme: Theme, assets: AppAssets, strings: LocalizableStrings, qrCode: (@Sendable (String) -> String?)? = nil) throws {
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
    public func html(_ screen: Screen, title: String, images: [String: RemoteImages.Outcome] = [:]) -> String {
        guard let layout = try? ScreenLayout(screen, theme: theme) else { return document(title: title, body: "<main class=\"screen\"></main>\n") }
        let e = Self.escape
        var body = "<div class=\"safe-area top\" aria-hidden=\"true\"></div>\n" + navigationBarHTML(layout.navigationBar)
        let padding = PaddingStyle(
            top: layout.flowPadding.top + layout.padding.top, right: layout.flowPadding.right + layout.padding.right,
            bottom: layout.flowPadding.bottom + layout.padding.bottom, left: layout.flowPadding.left + layout.padding.left)
        let background = color(layout.backgroundColorName).map { "background: \($0); " } ?? ""
        body += "<main class=\"screen\" data-kind=\"\(screen.kind.rawValue)\" data-style=\"\(e(screen.kind.themeSection))\" style=\"\(background)padding: \(cssPadding(padding))\">\n"
        if let header = headerHTML() { body += header }
        for (name, items, stack) in [("messages", screen.messages, layout.messages), ("content", screen.content, layout.content), ("links", screen.links, layout.links)]
        where !items.isEmpty {
            body += "<section class=\"\(name)\" style=\"\(cssStack(stack))\">\n" + items.map { html($0, in: screen, images: images) }.joined(separator: "\n") + "\n</section>\n"
        }
        body += "</main>\n<div class=\"safe-area bottom\" aria-hidden=\"true\"></div>\n"
        return document(title: title, body: body)
    }

    /// The bar over the screen: the way out (✕, or Back) at the leading end, the title in the middle.
    private func navigationBarHTML(_ bar: ScreenLayout.NavigationBar) -> String {
        let e = Self.escape
        let tint = color(bar.tintColorName).map { "color: \($0); " } ?? ""
        let size = "min-width: \(px(bar.targetWidth)); min-height: \(px(bar.targetHeight))"
        let leave: String
        switch bar.leave {
        case .close:
            let glyph = assets.imageHTML(named: bar.closeImageName) ?? "&#x2715;"
            leave = "<button class=\"leave\" type=\"button\" aria-label=\"\(e(builder.strings.string(.cancel)))\" style=\"\(tint)\(size)\">\(glyph)</button>"
        case .back:
            leave = "<button class=\"leave\" type=\"button\" style=\"\(tint)\(size)\">\(e(builder.strings.string(.back)))</button>"
        }
        let title = bar.title.map { "<span class=\"title\">\(e($0))</span>" } ?? "<span class=\"title\"></span>"
        return "<nav class=\"navigation-bar\" data-style=\"HaapiFlowViewController\">\(leave)\(title)<span class=\"balance\" aria-hidden=\"true\" style=\"\(size)\"></span></nav>\n"
    }

    /// A stack's CSS: a column, its spacing, alignment, padding and background.
    private func cssStack(_ stack: ScreenLayout.Stack) -> String {
        let align: String
        switch stack.alignment {
        case .fill: align = "stretch"
        case .leading, .top: align = "flex-start"
        case .center: align = "center"
        case .trailing, .bottom: align = "flex-end"
        case .firstBaseline, .lastBaseline: align = "baseline"
        }
        let background = color(stack.backgroundColorName).map { "; background: \($0)" } ?? ""
        return "gap: \(px(stack.spacing)); align-items: \(align); padding: \(cssPadding(stack.padding))\(background)"
    }

    /// An index of pages: each `(title, file)` a link.
    /// An index of pages, in the kit's look: each `(title, file)` a card with what it shows
    /// (`caption`: a screen's ``ScreenKind/title`` in the page's language, or another text).
    public func index(_ pages: [(title: String, file: String, caption: String)], title: String) -> String {
        let e = Self.escape
        let rows = pages.map { page in
            "<li><a class=\"card\" href=\"\(e(page.file))\"><span class=\"name\">\(e(page.title))</span><span class=\"caption\">\(e(page.caption))</span></a></li>"
        }
        let body = "<div class=\"safe-area top\" aria-hidden=\"true\"></div>\n<nav class=\"navigation-bar\"><span class=\"title\">\(e(title))</span></nav>\n"
            + "<main class=\"screen index\" data-kind=\"index\">\n<ul>\n" + rows.joined(separator: "\n") + "\n</ul>\n</main>\n"
        return document(title: title, body: body)
    }

    /// The `generator` of the pages written: `haapi preview` removes from its folder the pages
    /// it wrote before, and only those.
    public static let generator = "haapi preview"

    private func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="\(Self.escape(builder.strings.language))">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="\(Self.generator)">
        <title>\(Self.escape(title))</title>
        <style>
        \(styleSheet)
        </style>
        </head>
        <body>
        \(body)</body>
        </html>

        """
    }

    // MARK: Elements

    private func html(_ item: ScreenItem, in screen: Screen, images: [String: RemoteImages.Outcome]) -> String {
        let style = item.themeSection.map { " data-style=\"\(Self.escape($0))\"" } ?? ""
        let said = builder.accessibility(of: item)
        let e = Self.escape
        switch item {
        case .message(let text, _):
            // A heading is one to a screen reader, and an error is said as it appears, as on iOS.
            let role = said.isHeader ? " role=\"heading\" aria-level=\"2\"" : said.announcement != nil ? " role=\"alert\"" : ""
            return "<div class=\"item item-message\"\(style)\(role)>\(icon(for: item))<span>\(e(text))</span></div>"
        case .text(let text):
            return "<p class=\"item item-text\">\(e(text))</p>"
        case .section(let title):
            return "<h2 class=\"item item-section\">\(e(title))</h2>"
        case .textField(let field):
            var input = "<input type=\"\(field.isSecure ? "password" : Self.inputType(field.keyboard))\" name=\"\(e(field.name))\""
            input += " autocomplete=\"\(Self.autocomplete(field.contentType))\" enterkeyhint=\"\(field.returnKey.rawValue)\""
            input += " inputmode=\"\(Self.inputMode(field.keyboard))\" aria-label=\"\(e(said.label ?? field.label))\""
            if let placeholder = field.placeholder { input += " placeholder=\"\(e(placeholder))\"" }
            if let value = field.value { input += " value=\"\(e(value))\"" }
            if let maxLength = field.maxLength { input += " maxlength=\"\(maxLength)\"" }
            if field.isRequired { input += " required" }
            if field.name == screen.focus { input += " autofocus" }
            if field.error != nil { input += " aria-invalid=\"true\"" }
            input += ">"
            if field.showsSecureEntryToggle {
                // The kit's eye (Images.revealPassword), or the app's image of that name.
                let eye = assets.imageHTML(named: Images.revealPassword) ?? ""
                input += "<button type=\"button\" class=\"reveal\" aria-label=\"\(e(builder.strings.string(.showPassword)))\" data-image=\"\(Images.revealPassword)\">\(eye)</button>"
            }
            let error = field.error.map { "<span class=\"error\" role=\"alert\">\(e($0))</span>" } ?? ""
            return "<label class=\"item item-textField\"\(style)><span class=\"title\">\(e(field.label))</span><span class=\"box\">\(input)</span>\(error)</label>"
        case .checkbox(let box):
            let state = (box.isChecked ? " checked" : "") + (box.isReadonly ? " disabled" : "")
            let error = box.error.map { "<span class=\"error\" role=\"alert\">\(e($0))</span>" } ?? ""
            return "<label class=\"item item-checkbox\"\(style)><input type=\"checkbox\" name=\"\(e(box.name))\"\(state)><span>\(e(box.label))</span>\(error)</label>"
        case .picker(let picker):
            let options = picker.options.map { "<option value=\"\(e($0.value))\"\($0.isSelected ? " selected" : "")>\(e($0.label))</option>" }
            // As the kit's picker: a field that shows the chosen value, and a chevron that opens the choices.
            let chevron = assets.imageHTML(named: "hui_ic_chevron_right") ?? ""
            return "<label class=\"item item-picker\"\(style)><span class=\"title\">\(e(picker.label))</span>"
                + "<span class=\"box\"><select name=\"\(e(picker.name))\">\(options.joined())</select><span class=\"chevron\" aria-hidden=\"true\">\(chevron)</span></span></label>"
        case .button(let button):
            let icon = button.icon.flatMap { name in assets.imageHTML(named: name).map { "<span class=\"icon\" aria-hidden=\"true\" data-image=\"\(e(name))\">\($0)</span>" } } ?? ""
            return "<button class=\"item item-button role-\(button.role.rawValue)\"\(style) type=\"button\">\(icon)<span>\(e(button.title))</span></button>"
        case .tabs(let titles, let selected):
            let tabs = titles.enumerated().map { index, title in
                "<button type=\"button\" role=\"tab\" aria-selected=\"\(index == selected)\"\(index == selected ? " class=\"selected\"" : "")>\(e(title))</button>"
            }
            return "<div class=\"item item-tabs\"\(style) role=\"tablist\">\(tabs.joined())</div>"
        case .loadingIndicator:
            return "<div class=\"item item-loadingIndicator\"\(style) role=\"progressbar\" aria-label=\"\(e(said.label ?? ""))\"><span class=\"spinner\"></span></div>"
        case .countdown(let countdown):
            let bar = countdown.showsProgress ? countdown.fractionLeft.map { "<progress max=\"1\" value=\"\(String(format: "%.3f", $0))\"></progress>" } ?? "" : ""
            return "<div class=\"item item-countdown\" aria-live=\"polite\">\(bar)<span>\(e(countdown.text))</span></div>"
        case .qrCode(let data, let image):
            if data == nil, let image {
                return serverImage(image, outcome: images[image.href], label: said.label ?? "", kind: "qrCode")
            }
            let drawn = data.flatMap { qrCode?($0) } ?? placeholder(.notLoaded)
            return "<div class=\"item item-qrCode\" role=\"img\" aria-label=\"\(e(said.label ?? ""))\">\(drawn)</div>"
        case .serverImage(let image):
            return serverImage(image, outcome: images[image.href], label: said.label ?? "", kind: "serverImage")
        case .image(let name, let label):
            // The app's image of that name, else its label (the kit has no logo of its own).
            let drawn = assets.imageHTML(named: name) ?? "<span>\(e(label))</span>"
            return "<div class=\"item item-image\"\(style) role=\"img\" aria-label=\"\(e(label))\" data-image=\"\(e(name))\">\(drawn)</div>"
        case .expandable(let title, let body):
            return "<details class=\"item item-expandable\"\(style)><summary>\(e(title))</summary><p>\(e(body).replacingOccurrences(of: "\n", with: "<br>"))</p></details>"
        case .link(let title, _):
            return "<a class=\"item item-link\"\(style) href=\"#\">\(e(title))</a>"
        }
    }

    /// A server's image: a `data:` one decoded here, another as loaded (`outcome`); where there
    /// is none, a placeholder that says why.
    private func serverImage(_ image: KitLinkItem, outcome: RemoteImages.Outcome?, label: String, kind: String) -> String {
        let loaded = image.href.lowercased().hasPrefix("data:") ? RemoteImages.decodeDataURL(image.href) : outcome ?? .unavailable(.notLoaded)
        switch loaded {
        case .image:
            return "<div class=\"item item-\(kind)\"><img alt=\"\(Self.escape(label))\" src=\"\(Self.escape(loaded.dataURL ?? ""))\"></div>"
        case .unavailable(let reason):
            return "<div class=\"item item-\(kind)\" role=\"img\" aria-label=\"\(Self.escape(label))\">\(placeholder(reason))</div>"
        }
    }

    /// What stands in for an image that is not shown: a framed box saying why.
    private func placeholder(_ reason: RemoteImages.Reason) -> String {
        "<span class=\"placeholder\" data-reason=\"\(reason)\">\(Self.escape(builder.strings.string(reason.text)))</span>"
    }

    /// A message's icon from its style (`imageName`): the app's image, else the kit's symbol's outline.
    private func icon(for item: ScreenItem) -> String {
        guard case .message(_, let section) = item, let name = common.messageViewStyles.style(section: section).imageName,
            let image = assets.imageHTML(named: name)
        else { return "" }
        return "<span class=\"icon\" aria-hidden=\"true\" data-image=\"\(Self.escape(name))\">\(image)</span>"
    }

    /// The header: the app's logo (the style's `imageName`) and title, when the theme names them.
    private func headerHTML() -> String? {
        let header = common.header
        let logo = assets.imageHTML(named: header.imageName).map { "<span class=\"logo\" data-image=\"\(Self.escape(header.imageName ?? ""))\">\($0)</span>" }
        guard logo != nil || header.titleText != nil else { return nil }
        let title = header.titleText.map { "<span>\(Self.escape(builder.strings.string(forKey: $0)))</span>" } ?? ""
        return "<header class=\"item item-header\" data-style=\"HeaderView\">\(logo ?? "")\(title)</header>\n"
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

    /// `text` with HTML's special characters escaped, for element content and attribute values.
    public static func escape(_ text: String) -> String {
        text.escaped { scalar in
            switch scalar {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            case "'": return "&#39;"
            default: return nil
            }
        }
    }
}
