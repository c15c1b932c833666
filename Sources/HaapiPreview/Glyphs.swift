import Foundation
import HaapiUI
import OAuthCore

/// Outlines of the SF Symbols the kit draws (``Images/symbol(for:)``), for pages: a browser has
/// no SF Symbols, so each is drawn as a simple 24-point SVG of the same meaning, in the text's
/// colour. A symbol without an outline here is drawn by no glyph (the page shows the text alone).
public enum Glyphs {
    /// The outline of `symbol`, as an inline SVG element; `nil` when there is none.
    package static func svg(symbol: String) -> Markup? {
        guard let shapes = outlines[symbol] else { return nil }
        return
            "<svg class=\"glyph\" viewBox=\"0 0 24 24\" width=\"20\" height=\"20\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\""
            + " stroke-linecap=\"round\" stroke-linejoin=\"round\" aria-hidden=\"true\" data-symbol=\"\(text: symbol)\">\(markup: shapes)</svg>"
    }

    /// Every symbol that has an outline.
    public static var symbols: [String] { outlines.keys.sorted() }

    private static let shield: Markup = "<path d=\"M12 3l8 3v6c0 5-4 8-8 9-4-1-8-4-8-9V6z\"/>"

    private static let outlines: [String: Markup] = [
        "exclamationmark.triangle.fill": "<path d=\"M12 3L22 20H2z\" fill=\"currentColor\"/><path d=\"M12 9v5M12 17v.5\" stroke=\"#fff\"/>",
        "exclamationmark.circle": "<circle cx=\"12\" cy=\"12\" r=\"9\"/><path d=\"M12 7v6M12 16.5v.5\"/>",
        "envelope": "<rect x=\"3\" y=\"6\" width=\"18\" height=\"12\" rx=\"2\"/><path d=\"M3 7l9 6 9-6\"/>",
        "checkmark.square.fill":
            "<rect x=\"4\" y=\"4\" width=\"16\" height=\"16\" rx=\"3\" fill=\"currentColor\"/><path d=\"M8 12l3 3 5-6\" stroke=\"#fff\"/>",
        "square": "<rect x=\"4\" y=\"4\" width=\"16\" height=\"16\" rx=\"3\"/>",
        "chevron.right": "<path d=\"M9 5l7 7-7 7\"/>",
        "eye": "<path d=\"M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z\"/><circle cx=\"12\" cy=\"12\" r=\"3\"/>",
        "eye.slash":
            "<path d=\"M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z\"/><circle cx=\"12\" cy=\"12\" r=\"3\"/><path d=\"M4 4l16 16\"/>",
        "xmark": "<path d=\"M6 6l12 12M18 6L6 18\"/>",
        "person.text.rectangle":
            "<rect x=\"2\" y=\"5\" width=\"20\" height=\"14\" rx=\"2\"/><circle cx=\"8\" cy=\"11\" r=\"2\"/><path d=\"M5 16c1-2 5-2 6 0M14 10h5M14 14h4\"/>",
        "message": "<path d=\"M4 5h16v11H9l-5 4z\"/>",
        "clock.arrow.circlepath": "<path d=\"M4 12a8 8 0 1 0 2.3-5.7M4 4v4h4\"/><path d=\"M12 8v4l3 2\"/>",
        "number.square": "<rect x=\"3\" y=\"3\" width=\"18\" height=\"18\" rx=\"3\"/><path d=\"M10 7l-1 10M15 7l-1 10M7 10h11M6 14h11\"/>",
        "iphone.radiowaves.left.and.right":
            "<rect x=\"8\" y=\"3\" width=\"8\" height=\"18\" rx=\"2\"/><path d=\"M4 8c-1 2-1 6 0 8M20 8c1 2 1 6 0 8\"/>",
        "safari": "<circle cx=\"12\" cy=\"12\" r=\"9\"/><path d=\"M15.5 8.5l-2 5-5 2 2-5z\"/>",
        "checkmark.shield": "\(markup: shield)<path d=\"M8.5 12l2.5 2.5 4.5-5\"/>",
        "person.crop.rectangle":
            "<rect x=\"3\" y=\"4\" width=\"18\" height=\"16\" rx=\"2\"/><circle cx=\"12\" cy=\"10\" r=\"3\"/><path d=\"M7 18c1-3 9-3 10 0\"/>",
        "person.crop.circle.badge.checkmark":
            "<circle cx=\"11\" cy=\"12\" r=\"8\"/><circle cx=\"11\" cy=\"10\" r=\"3\"/><path d=\"M6 17c2-3 8-3 10 0M17 4l2 2 3-3\"/>",
        "chevron.left.forwardslash.chevron.right": "<path d=\"M8 7l-5 5 5 5M16 7l5 5-5 5M14 4l-4 16\"/>",
        "globe": "<circle cx=\"12\" cy=\"12\" r=\"9\"/><path d=\"M3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18\"/>",
        "building.columns": "<path d=\"M3 9l9-5 9 5zM5 10v8M9.5 10v8M14.5 10v8M19 10v8M3 20h18\"/>",
        "lock.shield":
            "\(markup: shield)<rect x=\"9\" y=\"11\" width=\"6\" height=\"5\" rx=\"1\"/><path d=\"M10 11V9.5a2 2 0 0 1 4 0V11\"/>",
        "key": "<circle cx=\"8\" cy=\"12\" r=\"4\"/><path d=\"M12 12h9M18 12v3M21 12v2\"/>",
    ]
}
