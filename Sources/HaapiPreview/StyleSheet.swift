import Foundation
import HaapiUI
import OAuthCore

extension ScreenPage {
    /// The page's CSS, made from the theme: a variable per colour (its dark value under
    /// `prefers-color-scheme: dark`), and a rule per theme section the screens use, selected by
    /// `data-style` as each UIKit view reads its section.
    package var styleSheet: Markup {
        func variables(dark: Bool) -> Markup {
            Markup.joined(
                assets.names.compactMap { name in
                    assets.color(named: name).map { value -> Markup in
                        "  --\(markup: Self.variable(name)): \(markup: AppAssets.css(dark ? value.dark : value.light));"
                    }
                }, separator: "\n")
        }
        var css: Markup = ":root {\n\(markup: variables(dark: false))\n}\n"
        css += "@media (prefers-color-scheme: dark) {\n:root {\n\(markup: variables(dark: true))\n}\n}\n"
        css += Self.layout
        // The screens' header text (their background, padding and stacks are the page's layout: ScreenLayout).
        for kind in ScreenKind.allCases {
            guard let screen = screenStyle(kind) else { continue }
            css += rule(
                "main[data-style=\(cssString: kind.themeSection)] .item-section",
                text(screen.headerTextAppearance, screen.headerTextColorName))
        }
        let flow = try? theme.style(HaapiFlowViewControllerStyle.self, named: HaapiFlowViewControllerStyle.themeSection)
        css += rule("body", ["background": color(flow?.backgroundColorName ?? "hui_background") ?? "white"])
        css += rule(".navigation-bar .title", ["color": color("hui_text_headings") ?? "inherit"])
        // The index's cards, as the kit's secondary buttons.
        let card = common.secondaryButton
        css += rule(
            "main.index .card",
            [
                "background": color(card.backgroundColorName) ?? "transparent", "border": border(card.borderWidth, card.borderColorName),
                "border-radius": px(card.cornerRadius), "color": color(card.textColorName) ?? "inherit",
            ])
        css += rule("main.index .caption", ["color": color("hui_text_paragraphs") ?? "inherit"])
        // Messages, by class.
        for attribute in MessageStyleAttribute.allCases {
            let message = common.messageViewStyles.style(for: attribute)
            css += rule(
                "[data-style=\(cssString: attribute.themeSection)]",
                text(message.textAppearance, message.textColorName).merging([
                    "background": message.backgroundColorName.flatMap(color) ?? "transparent", "gap": px(message.iconTextPadding),
                    "padding": cssPadding(message.commonUIStyle.paddingStyle), "border-radius": px(message.cornerRadius),
                    "border": border(message.borderWidth, message.borderColorName),
                ]) { $1 })
            // The icon in its own tint, as UIKit tints the image.
            if let tint = color(message.imageTintColorName) {
                css += rule("[data-style=\(cssString: attribute.themeSection)] .icon", ["color": tint])
            }
        }
        // Buttons, by role, and links.
        for (section, button) in [
            ("ActionableButton.Primary", common.primaryButton), ("ActionableButton.Secondary", common.secondaryButton),
            ("ActionableButton.Text", common.textButton),
        ] {
            css += rule(
                "[data-style=\(cssString: section)]",
                text(button.textAppearance, button.textColorName).merging([
                    "background": button.backgroundColorName.flatMap(color) ?? "transparent",
                    "min-height": px(max(button.minHeight, ScreenAccessibility.minimumTarget)),
                    "border-radius": px(button.cornerRadius), "border": border(button.borderWidth, button.borderColorName),
                    "gap": px(button.iconTextPadding),
                    "text-align": "center",
                ]) { $1 })
        }
        let link = common.linkView.actionableButtonStyle
        css += rule(
            "[data-style=\"LinkView\"]",
            text(link.textAppearance, link.textColorName).merging(["min-height": px(max(link.minHeight, ScreenAccessibility.minimumTarget))]
            ) { $1 })
        // Text fields: the section the theme's `huiTextField` names.
        let field = common.inputTextField
        let fieldSelector: Markup = "[data-style=\(cssString: builder.textFieldStyle)]"
        css += rule(
            fieldSelector + " .title",
            text(field.titleTextAppearance, field.titleColorName).merging([
                "min-height": px(field.titleMinimumHeight),
                "padding": "0 \(markup: px(field.titlePaddingRight)) 0 \(markup: px(field.titlePaddingLeft))",
            ]) { $1 })
        css += rule(
            fieldSelector + " .box",
            [
                "background": color(field.backgroundColorName) ?? "transparent", "border": border(field.borderWidth, field.borderColorName),
                "border-radius": px(field.cornerRadius), "min-height": px(field.textFieldMinimumHeight),
            ])
        css += rule(
            fieldSelector + " input",
            text(field.textFieldTextAppearance, field.textFieldColorName).merging([
                "padding": cssPadding(field.textFieldContentPadding), "caret-color": color(field.tintColorName) ?? "auto",
            ]) { $1 })
        css += rule(fieldSelector + " input::placeholder", ["color": color(field.textFieldPlaceholderColorName) ?? "gray"])
        css += rule(
            fieldSelector + " .reveal",
            ["color": color(field.textFieldPasswordImageTintColorName) ?? "inherit", "padding": "0 \(markup: px(field.iconPadding))"])
        css += rule(fieldSelector + " .error", text(field.errorTextAppearance, field.errorColorName))
        css += rule(fieldSelector + " .box:has(input[aria-invalid])", ["border-color": color(field.errorColorName) ?? "red"])
        // Checkboxes, pickers, tabs, the help box.
        let checkbox = common.checkbox
        css += rule(
            "[data-style=\"CheckboxView\"]",
            text(checkbox.textAppearance, checkbox.textColorName).merging(["gap": px(checkbox.iconTextPadding)]) { $1 })
        css += rule(
            "[data-style=\"CheckboxView\"] input",
            [
                "width": px(checkbox.checkboxWidth), "height": px(checkbox.checkboxHeight),
                "accent-color": color("hui_primary_immutable") ?? "auto",
            ])
        // The picker looks like the theme's text field (its box), showing the chosen value.
        let picker = common.textPicker
        css += rule("[data-style=\"TextPickerView\"] .title", text(field.titleTextAppearance, field.titleColorName))
        css += rule(
            "[data-style=\"TextPickerView\"] .box",
            [
                "background": color(field.backgroundColorName) ?? "transparent", "border": border(field.borderWidth, field.borderColorName),
                "border-radius": px(field.cornerRadius),
                "min-height": px(max(field.textFieldMinimumHeight, ScreenAccessibility.minimumTarget)),
            ])
        css += rule(
            "[data-style=\"TextPickerView\"] select",
            text(field.textFieldTextAppearance, picker.textColorName).merging([
                "padding": cssPadding(field.textFieldContentPadding)
            ]) { $1 })
        let tabs = common.tabView
        css += rule("[data-style=\"TabView\"] button", text(tabs.textAppearance, tabs.textColorName))
        css += rule(
            "[data-style=\"TabView\"] button.selected",
            [
                "color": color(tabs.highlightTextColorName) ?? "inherit",
                "border-bottom": "3px solid \(markup: color(tabs.selectedTabIndicatorColorName) ?? "currentColor")",
            ])
        if let help = try? theme.style(ExpandableViewStyle.self, named: "ExpandableView") {
            css += rule(
                "[data-style=\"ExpandableView\"]",
                [
                    "border": border(help.borderWidth, help.borderColorName), "border-radius": px(help.cornerRadius),
                    "padding": cssPadding(help.commonUIStyle.paddingStyle),
                ])
            css += rule("[data-style=\"ExpandableView\"] summary", text(help.titleTextAppearance, help.titleTextColorName))
            css += rule("[data-style=\"ExpandableView\"] p", text(help.contentTextAppearance, help.contentTextColorName))
        }
        let header = common.header
        css += rule(
            "[data-style=\"HeaderView\"]",
            text(header.textAppearance, header.textColorName).merging([
                "background": color(header.backgroundColorName) ?? "transparent", "padding": cssPadding(header.commonUIStyle.paddingStyle),
            ]) { $1 })
        if let spinner = try? theme.style(LoadingIndicatorViewStyle.self, named: "LoadingIndicatorView") {
            css += rule(".spinner", ["border-top-color": color(spinner.strokeColorName) ?? "currentColor"])
        }
        css += rule(".item-countdown progress", ["accent-color": color(common.primaryButton.backgroundColorName) ?? "auto"])
        return css
    }

    /// What every page shares, whatever the theme: a phone-wide column that never overflows.
    static let layout: Markup = """
        * { box-sizing: border-box; }
        html, body { margin: 0; padding: 0; }
        body { font-family: -apple-system, "SF Pro Text", system-ui, "Segoe UI", Roboto, sans-serif; overflow-wrap: anywhere; min-height: 100vh; display: flex; flex-direction: column; }
        .safe-area { flex: none; }
        .safe-area.top { height: 47px; }
        .safe-area.bottom { height: 34px; margin-top: auto; }
        .navigation-bar { flex: none; display: flex; align-items: center; height: 44px; padding: 0 8px; }
        .navigation-bar .title { flex: 1; text-align: center; font-size: 17px; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        .navigation-bar .leave { display: inline-flex; align-items: center; justify-content: center; border: 0; background: transparent; padding: 0; font: inherit; font-size: 17px; cursor: pointer; }
        .navigation-bar .leave .glyph { width: 22px; height: 22px; }
        main.screen { width: 100%; max-width: 480px; margin: 0 auto; display: flex; flex-direction: column; }
        main.screen section { display: flex; flex-direction: column; }
        .item { max-width: 100%; margin: 0; }
        .item-message, .item-button { display: flex; align-items: center; }
        .item-button { width: 100%; justify-content: center; cursor: pointer; font: inherit; }
        .item-link { display: flex; align-items: center; justify-content: center; text-decoration: none; }
        .item-textField, .item-picker { display: flex; flex-direction: column; gap: 4px; }
        .item-textField .box, .item-picker .box { display: flex; align-items: center; overflow: hidden; position: relative; }
        .item-picker select { flex: 1; min-width: 0; align-self: stretch; border: 0; background: transparent; outline: none; appearance: none; -webkit-appearance: none; font: inherit; cursor: pointer; }
        .item-picker .chevron { position: absolute; right: 12px; pointer-events: none; display: inline-flex; transform: rotate(90deg); }
        .item-picker .chevron .glyph { width: 18px; height: 18px; }
        .reveal { display: inline-flex; align-items: center; justify-content: center; }
        .reveal .glyph { width: 22px; height: 22px; }
        .item-textField input { flex: 1; min-width: 0; border: 0; background: transparent; outline: none; }
        .item-textField .reveal { border: 0; background: transparent; font-size: 18px; cursor: pointer; }
        .item-checkbox { display: flex; align-items: center; min-height: 44px; cursor: pointer; }
        .item-button, .item-link, .item-tabs button, .reveal { min-height: 44px; min-width: 44px; }
        .item-tabs { display: flex; }
        .item-tabs button { flex: 1; border: 0; background: transparent; padding: 10px 4px; font: inherit; }
        .item-loadingIndicator { display: flex; justify-content: center; padding: 8px; }
        .spinner { width: 32px; height: 32px; border: 4px solid rgba(128, 128, 128, 0.25); border-radius: 50%; animation: spin 1s linear infinite; }
        @keyframes spin { to { transform: rotate(360deg); } }
        .item-countdown { display: flex; flex-direction: column; align-items: center; gap: 6px; }
        .item-countdown progress { width: 100%; }
        .item-qrCode { display: flex; justify-content: center; }
        .item-qrCode img, .item-qrCode svg { width: 220px; height: 220px; image-rendering: pixelated; background: #fff; }
        .item-serverImage { display: flex; justify-content: center; }
        .item-serverImage img { max-width: 100%; max-height: 240px; }
        .placeholder { display: flex; align-items: center; justify-content: center; text-align: center; width: 220px; min-height: 120px; padding: 12px; border: 1px dashed currentColor; border-radius: 6px; font-size: 14px; opacity: 0.8; }
        .item-image { display: flex; justify-content: center; font-weight: 700; font-size: 28px; padding: 8px; }
        .item-image .glyph { width: 64px; height: 64px; stroke-width: 1.5; }
        .icon { display: inline-flex; align-items: center; justify-content: center; flex: none; }
        .icon .glyph, .icon img.asset { width: 1.4em; height: 1.4em; object-fit: contain; }
        .item-image img.asset { max-width: 100%; max-height: 96px; }
        .item-header { display: flex; align-items: center; justify-content: center; gap: 8px; }
        .item-header .logo { display: flex; max-width: 100%; }
        .item-header img.asset { height: 48px; width: auto; max-width: 100%; }
        .item-expandable summary { cursor: pointer; }
        main.index { padding: 8px 16px 16px; }
        main.index ul { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
        main.index .card { display: flex; flex-direction: column; gap: 2px; min-height: 44px; padding: 10px 14px; text-decoration: none; }
        main.index .name { font-size: 17px; }
        main.index .caption { font-size: 13px; }

        """

    /// Rules that give a plain HTML page (`<main class="page">` with headings, paragraphs,
    /// labelled inputs, buttons and links, as the development server's pages are) the look of the
    /// kit's form screen: the same theme sections, the same values.
    package var plainPageRules: Markup {
        var css: Markup = .empty
        if let form = screenStyle(.form) {
            css += rule(
                "main.page",
                [
                    "background": color(form.commonUIStyle.backgroundColorName) ?? "transparent",
                    "padding": cssPadding(form.commonUIStyle.paddingStyle),
                ])
        }
        let heading = common.messageViewStyles.heading
        let error = common.messageViewStyles.error
        let info = common.messageViewStyles.info
        let content = common.messageViewStyles.content
        css += rule("main.page h1", text(heading.textAppearance, heading.textColorName))
        css += rule("main.page p, main.page li", text(content.textAppearance, content.textColorName))
        for (selector, message) in [("main.page .error", error), ("main.page .info", info)] as [(Markup, MessageViewStyle)] {
            css += rule(
                selector,
                text(message.textAppearance, message.textColorName).merging([
                    "background": message.backgroundColorName.flatMap(color) ?? "transparent",
                    "padding": cssPadding(message.commonUIStyle.paddingStyle),
                    "border-radius": px(message.cornerRadius),
                ]) { $1 })
        }
        let field = common.inputTextField
        css += rule(
            "main.page label",
            text(field.titleTextAppearance, field.titleColorName).merging(["display": "flex", "flex-direction": "column", "gap": "4px"]) {
                $1
            })
        css += rule(
            "main.page input:not([type=hidden]):not([type=checkbox])",
            text(field.textFieldTextAppearance, field.textFieldColorName).merging([
                "background": color(field.backgroundColorName) ?? "transparent", "border": border(field.borderWidth, field.borderColorName),
                "border-radius": px(field.cornerRadius), "min-height": px(field.textFieldMinimumHeight),
                "padding": cssPadding(field.textFieldContentPadding),
                "width": "100%",
            ]) { $1 })
        for (selector, button) in [("main.page button", common.primaryButton), ("main.page button ~ button", common.secondaryButton)]
            as [(Markup, ActionableButtonStyle)]
        {
            css += rule(
                selector,
                text(button.textAppearance, button.textColorName).merging([
                    "background": button.backgroundColorName.flatMap(color) ?? "transparent",
                    "min-height": px(max(button.minHeight, ScreenAccessibility.minimumTarget)),
                    "border-radius": px(button.cornerRadius), "border": border(button.borderWidth, button.borderColorName), "width": "100%",
                    "margin-top": "12px", "cursor": "pointer",
                ]) { $1 })
        }
        let link = common.linkView.actionableButtonStyle
        css += rule(
            "main.page a", text(link.textAppearance, link.textColorName).merging(["display": "inline-block", "padding": "8px 0"]) { $1 })
        let checkbox = common.checkbox
        css += rule(
            "main.page label:has(input[type=checkbox])",
            text(checkbox.textAppearance, checkbox.textColorName).merging(["flex-direction": "row", "align-items": "center"]) { $1 })
        css += "main.page form { display: flex; flex-direction: column; gap: 12px; }\n"
        return css
    }

    /// What every screen style has, for the screen of `kind`.
    private func screenStyle(_ kind: ScreenKind) -> CommonViewControllerStyle? {
        switch kind {
        case .form: return (try? theme.style(FormViewControllerStyle.self))?.commonVCStyle
        case .selector: return (try? theme.style(SelectorViewControllerStyle.self))?.commonVCStyle
        case .polling: return (try? theme.style(PollingViewControllerStyle.self))?.commonVCStyle
        case .bankID: return (try? theme.style(BankIdViewControllerStyle.self))?.commonVCStyle
        case .webAuthn: return (try? theme.style(WebAuthnViewControllerStyle.self))?.commonVCStyle
        case .problem: return (try? theme.style(ProblemViewControllerStyle.self))?.commonVCStyle
        case .generic: return (try? theme.style(GenericViewControllerStyle.self))?.commonVCStyle
        }
    }

    // MARK: CSS parts

    private func rule(_ selector: Markup, _ declarations: [String: Markup]) -> Markup {
        let body = declarations.sorted { $0.key < $1.key }.map { key, value -> Markup in "\(cssIdentifier: key): \(markup: value);" }
        return "\(markup: selector) { \(markup: Markup.joined(body, separator: " ")) }\n"
    }

    func color(_ name: String?) -> Markup? {
        guard let name, assets.color(named: name) != nil else { return nil }
        return "var(--\(markup: Self.variable(name)))"
    }

    private func text(_ appearance: TextAppearance, _ colorName: String?) -> [String: Markup] {
        var declarations = ["font-size": px(appearance.pointSize), "letter-spacing": px(appearance.kern)]
        // The theme's font family first, when it names one (the system's stands in where the browser lacks it).
        if let family = appearance.fontName { declarations["font-family"] = "\(cssString: family), -apple-system, system-ui, sans-serif" }
        if let color = color(colorName) { declarations["color"] = color }
        if appearance.lineHeightMultiple > 0 {
            declarations["line-height"] = "\(number: (appearance.lineHeightMultiple * 100).rounded() / 100)"
        }
        switch appearance.symbolicTrait {
        case .bold?: declarations["font-weight"] = "700"
        case .italic?: declarations["font-style"] = "italic"
        case .monoSpace?: declarations["font-family"] = "ui-monospace, Menlo, monospace"
        case .condensed?: declarations["font-stretch"] = "condensed"
        case nil: break
        }
        switch appearance.alignment {
        case .left: declarations["text-align"] = "left"
        case .center:
            declarations["text-align"] = "center"
            declarations["justify-content"] = "center"
        case .right: declarations["text-align"] = "right"
        case .justified: declarations["text-align"] = "justify"
        case .natural: break
        }
        return declarations
    }

    func cssPadding(_ padding: PaddingStyle) -> Markup {
        "\(markup: px(padding.top)) \(markup: px(padding.right)) \(markup: px(padding.bottom)) \(markup: px(padding.left))"
    }

    private func border(_ width: Double, _ colorName: String?) -> Markup {
        guard width > 0, let color = color(colorName) else { return "0" }
        return "\(markup: px(width)) solid \(markup: color)"
    }

    func px(_ value: Double) -> Markup {
        value.isFinite ? "\(number: value)px" : "0"
    }

    /// A CSS custom property's name for a colour name (letters, digits, `_` and `-` kept).
    static func variable(_ name: String) -> Markup { "c-\(cssIdentifier: name)" }
}
