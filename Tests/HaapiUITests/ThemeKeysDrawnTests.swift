import Foundation
import HaapiTesting
import Testing

/// Every key the theme's styles read changes what the UIKit screens draw: the stored properties
/// of the style types in `Sources/HaapiUI/Theme` (the keys read) must each be used by the code in
/// `Sources/HaapiUI/Apple` (the keys drawn), or by `Screens/ScreenLayout.swift`, the layout those
/// screens draw. Both sides are read from the source, so a key added
/// to a style, or a use deleted from a view, fails here, naming the key.
///
/// The check is by name (`.cornerRadius`), so a name several styles share proves little on its
/// own: each element's style is looked for only in its own view's file (``drawnIn``), where a use
/// of the name is a use of that style's key. Other styles are looked for in all of `Apple/`.
@Suite struct ThemeKeysDrawnTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/HaapiUI")

    /// The file (under `Apple/`) that draws each element's style.
    static let drawnIn: [String: String] = [
        "MessageViewStyle": "Views/MessageView.swift",
        "HeaderViewStyle": "Views/HeaderView.swift",
        "InputTextFieldStyle": "Views/TextFieldView.swift",
        "CheckboxViewStyle": "Views/CheckboxView.swift",
        "TextPickerViewStyle": "Views/PickerView.swift",
        "ActionableButtonStyle": "Views/ButtonView.swift",
        "LinkViewStyle": "Views/ButtonView.swift",
        "TabViewStyle": "Views/TabsView.swift",
        "ExpandableViewStyle": "Views/ExpandableView.swift",
        "NotificationBannerViewStyle": "Views/NotificationBannerView.swift",
        "HaapiFlowViewControllerStyle": "HaapiFlowViewController.swift",
    ]

    /// Keys read that no UIKit code can draw, each with its reason in docs/PORTING.md. Empty:
    /// every key is drawn. Add a key here only with its paragraph there.
    static let notDrawable: Set<String> = []

    /// Each style type's keys read: `Type.property`, from the `public let`s of the types that
    /// are styles (`UIStyle`, `UIViewControllerStyle`, and the parts they decode: padding and
    /// the screens' common keys). Not keys of drawing, so left out: `commonUIStyle` and
    /// `commonVCStyle` (the same section's shared keys, checked as `CommonUIStyle`'s and
    /// `CommonViewControllerStyle`'s own), and the `hui_*` text keys (`…Key`, `textualKeys`), which
    /// choose texts, not looks.
    static func keysRead() throws -> [(type: String, key: String)] {
        var keys: [(type: String, key: String)] = []
        for file in try swiftFiles(in: sources.appendingPathComponent("Theme")) {
            var types: [(name: String, depth: Int, isStyle: Bool)] = []
            var depth = 0
            for line in SwiftSourceText.code(try String(contentsOf: file, encoding: .utf8)).split(
                separator: "\n", omittingEmptySubsequences: false)
            {
                let code = String(line)
                if let declaration = code.firstMatch(of: #/^\s*public (?:final class|struct|enum) (\w+)\s*:?([^{]*)\{/#) {
                    let name = String(declaration.1)
                    let conformances = String(declaration.2)
                    let isStyle =
                        conformances.contains("UIStyle") || conformances.contains("UIViewControllerStyle")
                        || ["CommonViewControllerStyle", "PaddingStyle"].contains(name)
                    types.append((name, depth + 1, isStyle))
                } else if let property = code.firstMatch(of: #/^\s*public let (\w+)\s*:/#), let type = types.last, type.isStyle,
                    type.depth == depth
                {
                    let key = String(property.1)
                    if !["commonUIStyle", "commonVCStyle", "textualKeys"].contains(key) && !key.hasSuffix("Key") {
                        keys.append((type.name, key))
                    }
                }
                depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
                while let type = types.last, depth < type.depth { types.removeLast() }
            }
        }
        return keys
    }

    /// The code of `Apple/` (or of one file of it), without comments and string literals.
    static func appleCode(_ file: String? = nil) throws -> String {
        let apple = sources.appendingPathComponent("Apple")
        let files = try file.map { [apple.appendingPathComponent($0)] } ?? swiftFiles(in: apple)
        return try files.map { SwiftSourceText.code(try String(contentsOf: $0, encoding: .utf8)) }.joined(separator: "\n")
    }

    /// Whether `code` reads the property `key` of a value: `receiver.key` (a style's own
    /// extension writes `self.key`), not the start of a longer name. Four look-alikes are not
    /// reads of a style's key, so they do not count: an assignment to a property of that name
    /// (`column.spacing = 8`: UIKit's own member, set), an implicit member (`case .top`,
    /// `row.alignment = .center`: an enum case of UIKit's), a call (`view.top()`), and a read of
    /// a UIKit geometry value (`insets.top`, where `insets` is bound to a style's
    /// `directionalInsets` or declared `NSDirectionalEdgeInsets`, `UIEdgeInsets`, `CGRect`...).
    static func uses(_ code: String, _ key: String) -> Bool {
        let uikitValues = Set(code.matches(of: Self.uikitGeometryBinding).map { String($0.output.1) })
        let read = try! Regex("([A-Za-z0-9_]+|[)\\]?!])\\.\(key)(?![A-Za-z0-9_])(?!\\s*(=(?!=)|\\())")
        return code.matches(of: read).contains { match in
            guard let receiver = match.output[1].substring else { return false }
            return !uikitValues.contains(String(receiver))
        }
    }

    /// `let insets = style.directionalInsets`, `let padding = flowStyle?.directionalInsets ?? .zero`,
    /// `var frame: CGRect`: a name that holds one of UIKit's geometry values, not a style.
    nonisolated(unsafe) static let uikitGeometryBinding =
        #/(?:let|var)\s+(\w+)\s*(?::\s*(?:NSDirectionalEdgeInsets|UIEdgeInsets|CGRect|CGSize|CGPoint)\b|=[^\n]*\.directionalInsets\b)/#

    /// The matcher itself: UIKit's members and cases of the same names are not reads of a key,
    /// and each way the views read one is.
    @Test func onlyAReadOfAStyleCountsAsAUse() {
        let lookAlikes = """
            column.spacing = 8
            row.alignment = .center
            label.textAlignment = .natural
            switch edge { case .top: break; case .left, .bottom, .right: break }
            view.top()
            let insets = style.directionalInsets
            let padding = flowStyle?.directionalInsets ?? .zero
            var margins: UIEdgeInsets = .zero
            f(insets.top, padding.left, margins.bottom, margins.right)
            """
        for key in ["spacing", "alignment", "textAlignment", "top", "left", "bottom", "right"] {
            #expect(!Self.uses(SwiftSourceText.code(lookAlikes), key), "\(key) counted in UIKit's own members")
        }
        #expect(
            !Self.uses(SwiftSourceText.code("// reads style.spacing\nlet text = \"style.spacing\""), "spacing"),
            "a comment or a literal counted")
        for read in [
            "stack.spacing = self.spacing", "row.alignment = style.alignment.uiAlignment", "Insets(top: padding.top)",
            "x = style?.top ?? 0", "f(values[0].left)",
        ] {
            let key =
                read.contains("spacing") ? "spacing" : read.contains("alignment") ? "alignment" : read.contains("top") ? "top" : "left"
            #expect(Self.uses(SwiftSourceText.code(read), key), "\(read) is a read of \(key)")
        }
    }

    @Test func everyKeyReadIsDrawn() throws {
        let read = try Self.keysRead()
        // The parse found the styles: a broken parse must not pass by finding nothing.
        #expect(read.count > 100)
        #expect(read.contains { $0 == ("InputTextFieldStyle", "errorImageName") })
        #expect(read.contains { $0 == ("PaddingStyle", "top") })
        #expect(!read.contains { $0.key == "textMinutesKey" })
        // The UIKit screens draw the screen's layout (stacks, bar) as ScreenLayout resolves it: its reads are theirs.
        let layout = SwiftSourceText.code(
            try String(contentsOf: Self.sources.appendingPathComponent("Screens/ScreenLayout.swift"), encoding: .utf8))
        let everywhere = try Self.appleCode() + "\n" + layout
        var notDrawn: [String] = []
        for (type, key) in read where !Self.notDrawable.contains("\(type).\(key)") {
            let code = try Self.drawnIn[type].map { try Self.appleCode($0) } ?? everywhere
            if !Self.uses(code, key) { notDrawn.append("\(type).\(key) (looked for in \(Self.drawnIn[type] ?? "Apple/"))") }
        }
        #expect(notDrawn.isEmpty, "theme keys read and not drawn by the UIKit code: \(notDrawn.joined(separator: ", "))")
        // Each element's view draws its section's padding and background too.
        for (type, file) in Self.drawnIn {
            let code = try Self.appleCode(file)
            #expect(Self.uses(code, "directionalInsets") || Self.uses(code, "paddingStyle"), "\(type)'s padding is not drawn in \(file)")
            #expect(Self.uses(code, "backgroundColorName"), "\(type)'s backgroundColorName is not drawn in \(file)")
        }
    }

    @Test func theAllowListNamesOnlyKeysReadAndDocumented() throws {
        let read = Set(try Self.keysRead().map { "\($0.type).\($0.key)" })
        let porting = try String(contentsOf: Self.sources.appendingPathComponent("../../docs/PORTING.md").standardized, encoding: .utf8)
        for key in Self.notDrawable {
            #expect(read.contains(key), "\(key) is allowed but not read")
            #expect(porting.contains(key), "\(key) is allowed but docs/PORTING.md does not say why")
        }
    }

    /// The Swift files under `directory`, sorted.
    static func swiftFiles(in directory: URL) throws -> [URL] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }.sorted()
        return paths.map { directory.appendingPathComponent($0) }
    }
}
