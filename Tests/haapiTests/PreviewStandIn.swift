import Foundation

/// Pages written to the `haapi preview` contract, for testing the browser checks before that
/// command exists on this branch (see ``PreviewBrowserTests/usesHaapiPreview``). Deliberately
/// plain: it decides what `haapi preview` would show only as far as the checks need (a kind,
/// items of the contract's types, the primary button in the theme's colour, the kit's
/// BankID help title in the chosen language). Nothing here is the UI kit's real layout.
enum PreviewStandIn {
    /// Why a page could not be written.
    enum Failure: Error, CustomStringConvertible {
        case notAResponse(URL)
        case unreadableTheme(URL)
        case unreadableColour(URL, String)

        var description: String {
            switch self {
            case .notAResponse(let file): "\(file.lastPathComponent) is not a HAAPI response (a JSON object)"
            case .unreadableTheme(let file): "\(file.path) is not a property list of theme sections"
            case .unreadableColour(let file, let why): "\(file.path): \(why)"
            }
        }
    }

    /// Writes `out/index.html` and `out/<name>.html` for each response file, as the contract says.
    static func render(files: [URL], theme: URL?, assets: URL?, lang: String?, out: URL) throws {
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let primary = try primaryColour(theme: theme, assets: assets)
        let texts = kitTexts(lang: lang ?? "en")
        var names: [String] = []
        for file in files {
            guard let response = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] else {
                throw Failure.notAResponse(file)
            }
            let name = file.deletingPathExtension().lastPathComponent
            names.append(name)
            let page = page(title: name, lang: lang ?? "en", primary: primary, body: screen(response, texts: texts))
            try Data(page.utf8).write(to: out.appendingPathComponent("\(name).html"))
        }
        let links = names.map { "<li><a href=\"\(escape($0)).html\">\(escape($0))</a></li>" }.joined()
        let index = page(
            title: "haapi preview", lang: lang ?? "en", primary: primary,
            body: "<main class=\"index\"><h1>Screens</h1><ul>\(links)</ul></main>")
        try Data(index.utf8).write(to: out.appendingPathComponent("index.html"))
    }

    /// A CSS colour, `#RRGGBB` or `rgba(…)`, light and dark.
    struct Colour: Equatable {
        var light: String
        var dark: String
    }

    /// The colour the theme's `ActionableButton.Primary` section names in `backgroundColorName`:
    /// from the asset catalog if it has that colorset, else the kit's default blue.
    static func primaryColour(theme: URL?, assets: URL?) throws -> Colour {
        let kitBlue = Colour(light: "#2F5FD0", dark: "#4A78E6")
        guard let theme else { return kitBlue }
        guard let sections = try PropertyListSerialization.propertyList(from: Data(contentsOf: theme), format: nil) as? [String: Any] else {
            throw Failure.unreadableTheme(theme)
        }
        guard let name = (sections["ActionableButton.Primary"] as? [String: Any])?["backgroundColorName"] as? String, let assets else {
            return kitBlue
        }
        let colorset = assets.appendingPathComponent("\(name).colorset/Contents.json")
        guard FileManager.default.fileExists(atPath: colorset.path) else { return kitBlue }
        return try colour(colorset: colorset)
    }

    /// Reads an Xcode colorset: the entry without `appearances` is light, `luminosity: dark` is dark.
    static func colour(colorset: URL) throws -> Colour {
        guard let contents = try JSONSerialization.jsonObject(with: Data(contentsOf: colorset)) as? [String: Any],
            let colours = contents["colors"] as? [[String: Any]]
        else { throw Failure.unreadableColour(colorset, "no \"colors\" array") }
        var light: String?, dark: String?
        for entry in colours {
            guard let components = (entry["color"] as? [String: Any])?["components"] as? [String: String] else { continue }
            let css = try cssColour(components, in: colorset)
            let appearances = entry["appearances"] as? [[String: String]] ?? []
            if appearances.contains(where: { $0["appearance"] == "luminosity" && $0["value"] == "dark" }) {
                dark = css
            } else if appearances.isEmpty {
                light = css
            }
        }
        guard let light else { throw Failure.unreadableColour(colorset, "no colour for the light appearance") }
        return Colour(light: light, dark: dark ?? light)
    }

    /// Xcode writes a component as hex ("0xFF"), a fraction ("1.000") or 0-255 ("255").
    static func cssColour(_ components: [String: String], in colorset: URL) throws -> String {
        func byte(_ key: String) throws -> Int {
            guard let text = components[key]?.trimmingCharacters(in: .whitespaces) else {
                throw Failure.unreadableColour(colorset, "no \(key) component")
            }
            let value: Double?
            if text.lowercased().hasPrefix("0x") {
                value = Int(text.dropFirst(2), radix: 16).map(Double.init)
            } else if text.contains(".") {
                value = Double(text).map { $0 * 255 }
            } else {
                value = Double(text)
            }
            guard let value, value >= 0, value <= 255 else { throw Failure.unreadableColour(colorset, "\(key) \"\(text)\" is not a colour component") }
            return Int(value.rounded())
        }
        let alpha = components["alpha"].flatMap { Double($0) } ?? 1
        let (red, green, blue) = (try byte("red"), try byte("green"), try byte("blue"))
        guard alpha < 1 else {
            return "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
        }
        return "rgba(\(red), \(green), \(blue), \(alpha))"
    }

    /// The kit's own texts in `lang`, from HaapiUI's Localizable-<lang>.strings (read, not
    /// built: the test target does not link HaapiUI's resources); English when there is none.
    static func kitTexts(lang: String) -> [String: String] {
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/HaapiUI/Resources")
        let table = (try? String(contentsOf: resources.appendingPathComponent("Localizable-\(lang).strings"), encoding: .utf8))
            ?? (try? String(contentsOf: resources.appendingPathComponent("Localizable-en.strings"), encoding: .utf8)) ?? ""
        var texts: [String: String] = [:]
        for line in table.split(separator: "\n") where line.hasPrefix("\"") {
            // "key" = "value";
            let parts = line.split(separator: "\"", omittingEmptySubsequences: false)
            if parts.count >= 5 { texts[String(parts[1])] = String(parts[3]) }
        }
        return texts
    }

    /// The contract's `<main class="screen" data-kind=…>` with one item per thing shown.
    static func screen(_ response: [String: Any], texts: [String: String]) -> String {
        let type = response["type"] as? String ?? ""
        let actions = response["actions"] as? [[String: Any]] ?? []
        let operations = actions.compactMap { ($0["model"] as? [String: Any])?["name"] as? String }
        let kind: String
        if type.hasPrefix("https://curity.se/problems/") {
            kind = "problem"
        } else if operations.contains("bankid") {
            kind = "bankID"
        } else if type == "polling-step" {
            kind = "polling"
        } else if operations.contains(where: { $0.hasPrefix("webauthn") }) {
            kind = "webAuthn"
        } else if actions.first?["template"] as? String == "selector" {
            kind = "selector"
        } else if actions.first?["template"] as? String == "form" {
            kind = "form"
        } else {
            kind = "generic"
        }

        var items: [String] = []
        func item(_ type: String, style: String, _ html: String) {
            items.append("<div class=\"item item-\(type)\" data-style=\"\(style)\">\(html)</div>")
        }
        if let title = response["title"] as? String ?? actions.first?["title"] as? String {
            item("message", style: "TextAppearance.Title", "<h1>\(escape(title))</h1>")
        }
        if kind == "bankID" {
            item("message", style: "TextAppearance.Body.Bold", "<p>\(escape(texts["hui_bankid_instruction_title_1"] ?? "Scan the QR code"))</p>")
            item("qrCode", style: "QRCodeView", "<div class=\"qr\" role=\"img\" aria-label=\"QR code\"></div>")
        }
        for message in response["messages"] as? [[String: Any]] ?? [] {
            let error = (message["classList"] as? [String] ?? []).contains("error")
            item("message", style: error ? "MessageView.Error" : "MessageView.Info", "<p>\(escape(message["text"] as? String ?? ""))</p>")
        }
        for invalid in response["invalidFields"] as? [[String: Any]] ?? [] {
            item("message", style: "MessageView.Error", "<p>\(escape(invalid["detail"] as? String ?? ""))</p>")
        }
        var primaryTaken = false
        func button(_ title: String) {
            let role = primaryTaken ? "secondary" : "primary"
            primaryTaken = true
            let style = role == "primary" ? "ActionableButton.Primary" : "ActionableButton.Secondary"
            items.append("<button class=\"item item-button role-\(role)\" data-style=\"\(style)\">\(escape(title))</button>")
        }
        for action in actions {
            let model = action["model"] as? [String: Any] ?? [:]
            switch action["template"] as? String {
            case "form":
                // Polling is the screen's own business, not a button.
                if action["kind"] as? String == "poll" { continue }
                for field in model["fields"] as? [[String: Any]] ?? [] where field["type"] as? String != "hidden" {
                    let label = field["label"] as? String ?? field["name"] as? String ?? ""
                    let input = field["type"] as? String == "password" ? "password" : "text"
                    item("textField", style: "TextField", "<label>\(escape(label))<input type=\"\(input)\"></label>")
                }
                button(model["actionTitle"] as? String ?? action["title"] as? String ?? texts["hui_continue"] ?? "Continue")
            case "selector":
                for option in model["options"] as? [[String: Any]] ?? [] {
                    button(option["title"] as? String ?? "")
                }
            case "client-operation":
                button(action["title"] as? String ?? "")
            default:
                continue
            }
        }
        for link in response["links"] as? [[String: Any]] ?? [] where link["rel"] as? String != "qr-code" {
            item("link", style: "ActionableButton.LinkView", "<a href=\"#\">\(escape(link["title"] as? String ?? link["rel"] as? String ?? ""))</a>")
        }
        if items.isEmpty {
            // Nothing for a person to read or press (a redirect, an authorization response): say what it is.
            item("message", style: "TextAppearance.Body", "<p>\(escape(type.isEmpty ? "An empty response" : type))</p>")
        }
        return "<main class=\"screen\" data-kind=\"\(kind)\">\(items.joined(separator: "\n"))</main>"
    }

    /// A standalone page: inline CSS, a phone viewport, the primary colour light and dark.
    static func page(title: String, lang: String, primary: Colour, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(escape(lang))"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        :root { --primary: \(primary.light); --text: #1B1B1F; --page: #FFFFFF; }
        @media (prefers-color-scheme: dark) { :root { --primary: \(primary.dark); --text: #F2F2F7; --page: #121214; } }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--page); color: var(--text); font: 16px/1.4 sans-serif; overflow-wrap: anywhere; }
        .screen, .index { display: flex; flex-direction: column; gap: 12px; padding: 24px 16px; }
        h1 { font-size: 24px; margin: 0; }
        p { margin: 0; }
        [data-style="MessageView.Error"] { color: #B3261E; background: #FDECEA; padding: 8px 12px; border-radius: 8px; }
        .item-textField label { display: flex; flex-direction: column; gap: 4px; font-size: 14px; }
        .item-textField input { height: 44px; border: 1px solid #8A8A99; border-radius: 8px; padding: 0 12px; font-size: 16px; width: 100%; }
        .item-button { min-height: 50px; border-radius: 10px; border: 1px solid var(--primary); font: bold 16px sans-serif; width: 100%; }
        .role-primary { background: var(--primary); color: #FFFFFF; }
        .role-secondary { background: transparent; color: var(--primary); border-color: #C5C8D4; }
        .item-link a { color: var(--primary); }
        .qr { width: 180px; height: 180px; margin: 0 auto; background: repeating-conic-gradient(#000 0 25%, #FFF 0 50%) 0 0 / 30px 30px; }
        </style></head>
        <body>\(body)</body></html>
        """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
