import Foundation
import HaapiPreview
import HaapiUI
import OAuthCore
import SecretService

// What another program or person hands the client as bytes: a D-Bus peer's messages, an app's
// theme plist and an asset catalog's Contents.json. Each reader gives a value or a typed error,
// costs what the client needs, and what it makes of the bytes cannot escape where it lands.

extension FuzzHarness {
    /// A D-Bus message from the bus: decoded whole, or with its body left for later and then
    /// decoded; both ways agree, and a decoded message written again reads back the same.
    static func dbusMessage(_ data: Data) -> [String] {
        #if os(Linux)
            var violations: [String] = []
            let bytes = [UInt8](data)
            let whole: DBusMessage?
            do { whole = try DBusMessage(decoding: bytes) } catch is DBusFormatError { whole = nil } catch {
                return ["an untyped error: \(error)"]
            }
            // The connection's way: the header first, the body only when someone waits for it.
            do {
                var later = try DBusMessage(decoding: bytes, decodesBody: false)
                try later.decodeBody()
                if let whole, !same(whole, later) { violations.append("decoding the body later gave another message") }
                if whole == nil { violations.append("decoding the body later accepted what decoding it whole refused") }
            } catch is DBusFormatError {
                if whole != nil { violations.append("decoding the body later refused what decoding it whole accepted") }
            } catch {
                violations.append("an untyped error: \(error)")
            }
            if let whole {
                do {
                    let again = try DBusMessage(decoding: try whole.encoded())
                    if !same(whole, again) { violations.append("written and read again, the message changed") }
                } catch {
                    violations.append("a decoded message that cannot be written and read again: \(error)")
                }
            }
            return violations
        #else
            return []
        #endif
    }

    #if os(Linux)
        private static func same(_ a: DBusMessage, _ b: DBusMessage) -> Bool {
            a.kind == b.kind && a.serial == b.serial && a.path == b.path && a.interface == b.interface && a.member == b.member
                && a.errorName == b.errorName && a.replySerial == b.replySerial && a.destination == b.destination && a.body == b.body
        }
    #endif

    /// An app's theme plist, laid over the kit's as `haapi preview --theme` does: a theme or a
    /// typed error; no value of the theme puts `<` in a page's style sheet (so none can end its
    /// style element: every page embeds this sheet), and the theme check and contrast never trap.
    static func themePlist(_ data: Data) -> [String] {
        let theme: Theme
        do { theme = try Theme.kit.merging(try Theme(plist: data, source: "fuzz.plist")) } catch { return [] }
        guard let page = try? ScreenPage(theme: theme, assets: try AppAssets(), strings: LocalizableStrings(languages: ["en"])) else {
            return []
        }
        var violations: [String] = []
        let css = page.styleSheet.description + page.plainPageRules.description
        if css.contains("<") { violations.append("a theme value put < in the style sheet, which could end the style element") }
        _ = ThemeContrast.failures(of: theme, color: { page.assets.color(named: $0) })
        if let app = try? Theme(plist: data, source: "fuzz.plist") {
            _ = ThemeCheck.problems(of: app, over: theme, colorExists: { page.assets.color(named: $0) != nil })
        }
        return violations
    }

    /// An asset catalog's `Contents.json`, read as a colour set and as an image set: a value or
    /// a typed error; the files an image set names are only names (the catalog's reader reads
    /// them from inside the catalog), each of a kind a browser shows.
    static func assetContents(_ data: Data) -> [String] {
        var violations: [String] = []
        do { _ = try AssetCatalog.color(data, file: "fuzz.colorset/Contents.json") } catch is PreviewError {} catch {
            violations.append("an untyped error from a colour set: \(error)")
        }
        do {
            if let chosen = try AssetCatalog.chosenImages(data, file: "fuzz.imageset/Contents.json") {
                for name in [chosen.light] + (chosen.dark.map { [$0] } ?? []) where AssetImage.mediaType(of: name) == nil {
                    violations.append("an image set chose \"\(name)\", which a browser does not show")
                }
            }
        } catch is PreviewError {} catch {
            violations.append("an untyped error from an image set: \(error)")
        }
        return violations
    }
}
