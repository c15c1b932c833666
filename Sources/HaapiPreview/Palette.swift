import Foundation
import HaapiUI

/// The colours a preview draws with, by their `hui_*` names: an app's asset catalog first (as
/// on iOS, where a colour set of the kit's name wins), then the kit's palette (``Colors``).
public struct Palette: Sendable {
    /// The app's colours, from its asset catalog.
    public let appColors: [String: Colors.Value]

    /// The kit's palette, with the colour sets of the asset catalog at `assets` over it (none: `nil`).
    /// - Throws: ``PreviewError`` when a colour set cannot be read.
    public init(assets: URL? = nil) throws {
        appColors = try assets.map(AssetCatalog.colors(in:)) ?? [:]
    }

    /// The colour `name`, light and dark (`nil`: no colour of that name).
    public func color(named name: String?) -> Colors.Value? {
        guard let name, !name.isEmpty else { return nil }
        return appColors[name] ?? Colors.kit[name]
    }

    /// Every name, for the style sheet's variables.
    public var names: [String] { Array(Set(appColors.keys).union(Colors.kit.keys)).sorted() }

    /// `rgba` as a CSS colour.
    public static func css(_ rgba: UInt32) -> String {
        let alpha = Colors.Value.components(rgba).alpha
        return "rgba(\(rgba >> 24 & 0xFF), \(rgba >> 16 & 0xFF), \(rgba >> 8 & 0xFF), \(String(format: "%.3f", alpha)))"
    }
}

/// What a preview cannot do with what it was given, said clearly.
public struct PreviewError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// An Xcode asset catalog's colour sets (`Name.colorset/Contents.json`), read as Xcode writes
/// them: components as `0xFF`, `255` or `1.000`, with an optional dark appearance.
enum AssetCatalog {
    static func colors(in folder: URL) throws -> [String: Colors.Value] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            throw PreviewError("cannot read the asset catalog \(folder.path)")
        }
        var colors: [String: Colors.Value] = [:]
        for case let url as URL in walker where url.pathExtension == "colorset" {
            let contents = url.appendingPathComponent("Contents.json")
            guard let data = try? Data(contentsOf: contents) else { continue }
            colors[url.deletingPathExtension().lastPathComponent] = try color(data, file: contents.path)
        }
        return colors
    }

    static func color(_ data: Data, file: String) throws -> Colors.Value {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let entries = root["colors"] as? [[String: Any]] else {
            throw PreviewError("\(file) is not a colour set's Contents.json (no \"colors\")")
        }
        var light: UInt32?
        var dark: UInt32?
        for entry in entries {
            guard let color = entry["color"] as? [String: Any], let components = color["components"] as? [String: Any] else { continue }
            let value = try rgba(components, file: file)
            let appearances = entry["appearances"] as? [[String: Any]] ?? []
            if appearances.contains(where: { $0["value"] as? String == "dark" }) {
                dark = value
            } else if appearances.isEmpty {
                light = value
            }
        }
        guard let light = light ?? dark else { throw PreviewError("\(file) has no colour") }
        return Colors.Value(light: light, dark: dark ?? light)
    }

    /// The colour's components as `0xRRGGBBAA`: each `0xFF`, `255`, or a fraction `0.5` / `1.000`.
    static func rgba(_ components: [String: Any], file: String) throws -> UInt32 {
        func byte(_ key: String, default fallback: UInt32? = nil) throws -> UInt32 {
            guard let raw = components[key] else {
                if let fallback { return fallback }
                throw PreviewError("\(file): the colour has no \(key)")
            }
            let text = "\(raw)".trimmingCharacters(in: .whitespaces)
            if text.lowercased().hasPrefix("0x"), let value = UInt32(text.dropFirst(2), radix: 16), value <= 255 { return value }
            // Xcode writes alpha as a fraction always ("1", "1.000"); red, green and blue as a
            // fraction with a point, or as a byte without one.
            if key != "alpha", !text.contains("."), let value = UInt32(text), value <= 255 { return value }
            if let fraction = Double(text), fraction >= 0, fraction <= 1 { return UInt32((fraction * 255).rounded()) }
            throw PreviewError("\(file): the \(key) \"\(text)\" is not 0-255, 0x00-0xFF or 0-1")
        }
        return try byte("red") << 24 | byte("green") << 16 | byte("blue") << 8 | byte("alpha", default: 255)
    }
}
