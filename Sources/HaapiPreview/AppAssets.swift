import Foundation
import HaapiUI
import OAuthCore

/// The colours and images a preview draws with, by their `hui_*` names: an app's asset catalog
/// first (as on iOS, where a colour or image set of the kit's name wins), then the kit's
/// (``Colors``, and for images the SF Symbol each stands for, drawn as a ``Glyphs`` outline).
public struct AppAssets: Sendable {
    /// The app's colours, from its asset catalog.
    public let appColors: [String: Colors.Value]
    /// The app's images, from its asset catalog.
    public let appImages: [String: AssetImage]

    /// The kit's colours and images, with the colour and image sets of the asset catalog at
    /// `catalog` over them (none: `nil`).
    /// - Throws: ``PreviewError`` when a colour or image set cannot be read.
    public init(catalog: URL? = nil) throws {
        appColors = try catalog.map(AssetCatalog.colors(in:)) ?? [:]
        appImages = try catalog.map(AssetCatalog.images(in:)) ?? [:]
    }

    /// The image `name` as HTML: the app's (light and dark), else the outline of the kit's
    /// symbol for it; `nil` when neither has one.
    package func imageHTML(named name: String?) -> Markup? {
        guard let name, !name.isEmpty else { return nil }
        if let image = appImages[name] { return image.html }
        return Images.symbol(for: name).flatMap(Glyphs.svg(symbol:))
    }

    /// The colour `name`, light and dark (`nil`: no colour of that name).
    public func color(named name: String?) -> Colors.Value? {
        guard let name, !name.isEmpty else { return nil }
        return appColors[name] ?? Colors.kit[name]
    }

    /// Every name, for the style sheet's variables.
    public var names: [String] { Array(Set(appColors.keys).union(Colors.kit.keys)).sorted() }

    /// `rgba` as a CSS colour.
    package static func css(_ rgba: UInt32) -> Markup {
        let alpha = Colors.Value.components(rgba).alpha
        return
            "rgba(\(text: rgba >> 24 & 0xFF), \(text: rgba >> 16 & 0xFF), \(text: rgba >> 8 & 0xFF), \(text: String(format: "%.3f", alpha)))"
    }
}

/// What a preview cannot do with what it was given, said clearly.
public struct PreviewError: Error, CustomStringConvertible, Sendable {
    /// What the preview cannot do, in one sentence for the user.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// An Xcode asset catalog's colour sets (`Name.colorset/Contents.json`), read as Xcode writes
/// them: components as `0xFF`, `255` or `1.000`, with an optional dark appearance.
package enum AssetCatalog {
    static func colors(in folder: URL) throws -> [String: Colors.Value] {
        var colors: [String: Colors.Value] = [:]
        for set in try sets(in: folder, kind: "colorset") {
            guard let data = try contents(of: set, in: folder) else { continue }
            colors[set.deletingPathExtension().lastPathComponent] = try color(data, file: set.appendingPathComponent("Contents.json").path)
        }
        return colors
    }

    /// The image sets (`Name.imageset/Contents.json`): for each, its largest PNG, JPEG, GIF or
    /// SVG, light and dark, read only from inside the catalog (``OutsideFile``: a link or a `../`
    /// out of it is refused) and only if its bytes are an image of a kind a browser shows. A set
    /// with only PDFs or HEICs is left out, so the kit's symbol is drawn instead.
    static func images(in folder: URL) throws -> [String: AssetImage] {
        var images: [String: AssetImage] = [:]
        for set in try sets(in: folder, kind: "imageset") {
            guard let data = try contents(of: set, in: folder),
                let chosen = try chosenImages(data, file: set.appendingPathComponent("Contents.json").path)
            else { continue }
            images[set.deletingPathExtension().lastPathComponent] = AssetImage(
                light: try AssetImage.link(set.appendingPathComponent(chosen.light), in: folder),
                dark: try chosen.dark.map { try AssetImage.link(set.appendingPathComponent($0), in: folder) })
        }
        return images
    }

    /// The files an image set's `Contents.json` (`data`, read from `file`) names for light and
    /// dark: the largest of a kind a browser shows (by extension), the dark one standing in for
    /// light when there is no other; `nil` when it names none. Names only: the caller reads them
    /// from inside the catalog.
    /// - Throws: ``PreviewError`` when it is not an image set's `Contents.json`.
    package static func chosenImages(_ data: Data, file: String) throws -> (light: String, dark: String?)? {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let entries = root["images"] as? [[String: Any]]
        else {
            throw PreviewError("\(file) is not an image set's Contents.json (no \"images\")")
        }
        func largest(dark: Bool) -> String? {
            entries.filter { entry in
                let appearances = entry["appearances"] as? [[String: Any]] ?? []
                return appearances.contains { $0["value"] as? String == "dark" } == dark && (dark || appearances.isEmpty)
            }.compactMap { entry -> (scale: Int, file: String)? in
                guard let file = entry["filename"] as? String, AssetImage.mediaType(of: file) != nil else { return nil }
                return (Int((entry["scale"] as? String ?? "1x").dropLast()) ?? 1, file)
            }.max(by: { $0.scale < $1.scale })?.file
        }
        guard let light = largest(dark: false) ?? largest(dark: true) else { return nil }
        return (light, largest(dark: true))
    }

    /// The sets of `kind` (`colorset`, `imageset`) under `folder`, by name.
    private static func sets(in folder: URL, kind: String) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            throw PreviewError("cannot read the asset catalog \(folder.path)")
        }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == kind }.sorted { $0.path < $1.path }
    }

    /// A set's `Contents.json`, read from inside the catalog; `nil` when the set has none.
    private static func contents(of set: URL, in folder: URL) throws -> Data? {
        let file = set.appendingPathComponent("Contents.json")
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do { return try OutsideFile.read(file.path, in: folder, limit: 256 << 10) } catch let refusal as OutsideFile.Refusal {
            throw PreviewError(refusal.description)
        }
    }

    /// A colour set's `Contents.json` (`data`, read from `file`): its light and dark colours.
    /// - Throws: ``PreviewError`` naming what is wrong.
    package static func color(_ data: Data, file: String) throws -> Colors.Value {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let entries = root["colors"] as? [[String: Any]]
        else {
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

/// An image of an app's asset catalog, as `data:` URLs a page embeds (light, and dark when it has one).
public struct AssetImage: Sendable, Hashable {
    /// The image in light mode.
    package let light: PageLink
    /// The image in dark mode, when the set has one.
    package let dark: PageLink?

    /// The image as HTML that follows the page's light or dark appearance.
    var html: Markup {
        let image: Markup = "<img class=\"asset\" alt=\"\" src=\"\(link: light)\">"
        guard let dark else { return image }
        return "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"\(link: dark)\">\(markup: image)</picture>"
    }

    /// The largest image a page embeds: asset images are icons and logos.
    static let sizeLimit = 1 << 20

    /// The media type of an image file a browser shows, by its extension.
    package static func mediaType(of file: String) -> String? {
        switch (file as NSString).pathExtension.lowercased() {
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "svg": return "image/svg+xml"
        default: return nil
        }
    }

    /// The image file at `url` inside the catalog `folder`, as a link a page embeds.
    /// - Throws: ``PreviewError`` when it leads out of the catalog, cannot be read, is larger
    ///   than ``sizeLimit``, or its bytes are not a PNG, JPEG, GIF or SVG image.
    static func link(_ url: URL, in folder: URL) throws -> PageLink {
        let data: Data
        do { data = try OutsideFile.read(url.path, in: folder, limit: sizeLimit) } catch let refusal as OutsideFile.Refusal {
            throw PreviewError("cannot read the image \(refusal.path): \(refusal.reason)")
        }
        guard case .image(let bytes, let type) = RemoteImages.check(data) else {
            throw PreviewError("the image \(url.path) is not a PNG, JPEG, GIF or SVG image")
        }
        return .image(bytes, mediaType: type)
    }
}
