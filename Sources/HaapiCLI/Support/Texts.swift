import Foundation
import HaapiUI
import OAuthCore

/// The command line's own texts in the user's language (English or Swedish, from `LANGUAGE`,
/// `LC_ALL`, `LC_MESSAGES` or `LANG`): the `haapi_*` keys of the kit's string tables. Loaded at
/// the first text needed, so a `haapi token` that prints only its token never reads them.
enum Texts {
    static let strings = LocalizableStrings(appTable: { _ in nil })

    /// The text of `key` with `arguments` in place of its placeholders: our own words, with
    /// arguments already printable (escaped where they came from outside).
    static func line(_ key: LocalizableStrings.Key, _ arguments: PrintableText...) -> PrintableText {
        PrintableText(own: Placeholders.fill(strings.string(key), arguments.map(\.description)))
    }

    /// Writes a warning to standard error, prefixed as every warning of the command line is
    /// (`haapi: warning: `, in the user's language).
    static func warn(_ text: PrintableText) { Stderr.line(line(.commandWarning, text)) }
}
