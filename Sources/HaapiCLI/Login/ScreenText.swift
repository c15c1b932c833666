import Foundation
import HaapiCLICore
import HaapiUI
import OAuthCore

/// A ``Screen`` as terminal lines: the elements the kit's screens show, in their order, drawn
/// as text. What a person acts on (fields, buttons, links, tabs) is drawn by the terminal's
/// prompts and menu (``TerminalRenderer``), and the spinner and countdown by its status line;
/// a field the server complained about shows its complaint here, where the screen shows it.
/// Every text is the screen's, so neutralised before it reaches the terminal.
struct ScreenText {
    let strings: LocalizableStrings
    /// Whether lines carry ANSI colours.
    let colour: Bool
    /// Draws a QR code's data as block characters; `nil` when it cannot (no `qrencode`).
    var qrCode: (String) -> PrintableText? = QRCodeText.render

    /// The lines of `screen`'s messages and content. A button that opens a URL shows the URL
    /// `opening` gives (the terminal's own redirect for an external browser). A form's heading
    /// that the menu shows as an entry (`menuTitles`: BankID's "on this device" and "on another
    /// device") is left to the menu, so that no choice is printed twice.
    func lines(_ screen: Screen, menuTitles: Set<String> = [], opening: (URL) -> URL = { $0 }) -> [PrintableText] {
        (screen.messages + screen.content).flatMap { item -> [PrintableText] in
            if case .section(let title) = item, menuTitles.contains(title) { return [] }
            return lines(item, on: screen.kind, opening: opening)
        }
    }

    /// The lines of one element of a screen of `kind` (a QR code on BankID's is for its app).
    func lines(_ item: ScreenItem, on kind: ScreenKind = .generic, opening: (URL) -> URL = { $0 }) -> [PrintableText] {
        switch item {
        case .message(let text, let section):
            return [message(text, MessageStyleAttribute(themeSection: section))]
        case .text(let text):
            return [PrintableText(text)]
        case .section(let title):
            return [styled(PrintableText(title), .bold)]
        case .textField(let field):
            return field.error.map { [message(complaint(field.label, $0), .error)] } ?? []
        case .picker(let picker):
            return picker.error.map { [message(complaint(picker.label, $0), .error)] } ?? []
        case .checkbox(let box):
            let line: PrintableText = "  \(box.isChecked ? "[x]" : "[ ]") \(box.label)"
            let required = box.isReadonly ? styled(" (\(strings.string(.required)))", .dim) : ""
            return [line + required] + (box.error.map { [message(complaint(box.label, $0), .error)] } ?? [])
        case .button(let button):
            guard case .open(var url) = button.action else { return [] }
            // A terminal is no app for BankID to come back to: it returns to nothing.
            if url.scheme?.lowercased() == "bankid" { url = BankIdClientOperationActionModel.url(url, returningTo: nil) ?? url }
            return ["\(button.title):", "  " + styled(PrintableText(opening(url).absoluteString), .bold)]
        case .qrCode(let data, let image):
            let heading: PrintableText =
                kind == .bankID ? "\(Texts.string(.bankIDScanOnOtherDevice)):" : "\(Texts.string(.qrCodeShown)):"
            if let data {
                if let code = qrCode(data) { return [heading, code] }
                return [
                    heading, "  " + styled(PrintableText(data), .bold), styled(PrintableText(Texts.string(.qrCodeNeedsQrencode)), .dim),
                ]
            }
            // An image: a link can be opened in a browser; a data: image is named by its text.
            guard let image else { return [] }
            return [
                heading, "  " + styled(PrintableText(image.href.lowercased().hasPrefix("data:") ? image.text ?? "" : image.href), .bold),
            ]
        case .serverImage(let image):
            // A picture: its address, to open in a browser (a data: image is named by its text).
            let shown = image.href.lowercased().hasPrefix("data:") ? image.text : image.href
            return shown.map { [styled(PrintableText($0), .dim)] } ?? []
        case .expandable(let title, let body):
            return [styled(PrintableText(title + ": " + body.replacingOccurrences(of: "\n", with: " ")), .dim)]
        case .image, .link, .tabs, .loadingIndicator, .countdown:
            // A logo has no text; links and tabs are the menu's; the wait is the status line's.
            return []
        }
    }

    /// A line of text in a message style: a heading stands out, a warning or error says so.
    func message(_ unsafeText: String, _ style: MessageStyleAttribute) -> PrintableText {
        let text = PrintableText(unsafeText)
        switch style {
        case .heading: return styled(text, .bold, .blue)
        case .info: return styled(text, .cyan)
        case .warn: return styled(PrintableText(Texts.string(.warningLabel) + " "), .yellow, .bold) + styled(text, .yellow)
        case .error: return styled(PrintableText(Texts.string(.errorLabel) + " "), .red, .bold) + styled(text, .red)
        case .username, .recipientofcommunication: return styled(text, .bold)
        case .content, .usercode: return text
        }
    }

    private func complaint(_ label: String, _ error: String) -> String {
        "\(label): \(error.isEmpty ? strings.string(.fieldInvalid) : error)"
    }

    private func styled(_ text: PrintableText, _ styles: Terminal.Style...) -> PrintableText {
        Terminal.styled(text, styles, colour: colour)
    }
}
