import Foundation
import OAuthCore

/// The kit's look, as a property list of named sections (the keys of Curity's `Theme.plist`):
/// each screen, view and text appearance is a section (`FormViewController`,
/// `ActionableButton.Primary`, `TextAppearance.Body`, ...) whose values are numbers, `hui_*`
/// colour and image names, `hui_*` string keys, or the names of other sections.
///
/// ``Theme/kit`` is the kit's own theme (`Resources/Theme.plist`). An app's plist, set with
/// ``HaapiUIKitApplicationBuilder/setThemingPlistFileName(_:and:)``, is merged over it key by
/// key (``merging(_:)``): an app restyles one button by naming only the keys it changes, and adds
/// sections of its own for its custom screens.
///
/// Styles are read with ``style(_:named:)``, which follows the references between sections and
/// throws a ``ThemeError`` naming the section and key at fault.
public struct Theme: Sendable {
    /// The sections, and the top-level values (`fontName`, the text styles' point sizes).
    public let values: [String: ThemeValue]
    /// Where the values came from, for errors (`Theme.plist`, or `kit + MyTheme.plist`).
    public let source: String

    /// A theme read from property-list data (XML or binary).
    /// - Throws: ``ThemeError`` when `data` is not a property list whose root is a dictionary.
    public init(plist data: Data, source: String) throws(ThemeError) {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw ThemeError(source: source, reason: "not a property list (\(error.localizedDescription))")
        }
        guard case .dictionary(let values)? = ThemeValue(plistObject: root) else {
            throw ThemeError(source: source, reason: "the root is not a dictionary")
        }
        self.init(values: values, source: source)
    }

    /// A theme of `values`.
    public init(values: [String: ThemeValue], source: String) {
        self.values = values
        self.source = source
    }

    /// The kit's own theme.
    public static var kit: Theme {
        get throws(ThemeError) {
            switch kitResult {
            case .success(let theme): return theme
            case .failure(let error): throw error
            }
        }
    }

    private static let kitResult: Result<Theme, ThemeError> = {
        do throws(ThemeError) {
            return .success(try Theme(plist: Data(PackageResources.Theme_plist), source: "the kit's Theme.plist"))
        } catch {
            return .failure(error)
        }
    }()

    /// This theme with `other` laid over it: `other`'s sections add keys to this theme's
    /// sections of the same name, or replace their values; its other values replace this one's.
    public func merging(_ other: Theme) -> Theme {
        var merged = values
        for (name, value) in other.values {
            if case .dictionary(let over) = value, case .dictionary(let under)? = merged[name] {
                merged[name] = .dictionary(under.merging(over) { $1 })
            } else {
                merged[name] = value
            }
        }
        return Theme(values: merged, source: "\(source) + \(other.source)")
    }

    /// The style of type `S` described by the section `name`, with the sections it names resolved.
    /// - Throws: ``ThemeError`` naming the section and key: a section missing, a key missing or
    ///   of the wrong type, a reference to a missing section, or sections that name each other.
    public func style<S: UIStyle>(_ type: S.Type, named name: String) throws(ThemeError) -> S {
        try ThemeResolution(theme: self, chain: []).style(type, named: name)
    }

    /// The style of a screen, from the section its style type names (``UIViewControllerStyle/themeSection``).
    public func style<S: UIViewControllerStyle>(_ type: S.Type) throws(ThemeError) -> S {
        try style(type, named: S.themeSection)
    }

    /// The font family the text appearances use; `nil` for the system font.
    public var fontName: String? {
        guard case .string(let name)? = values["fontName"], !name.isEmpty else { return nil }
        return name
    }

    /// The name of the section that styles text fields (`huiTextField`).
    public var textFieldSection: String {
        guard case .string(let name)? = values["huiTextField"], !name.isEmpty else { return "InputTextField" }
        return name
    }

    /// The point size of a text style (`UICTFontTextStyleBody`, ...) before Dynamic Type scales it.
    public func pointSize(of textStyle: String) -> Double? {
        guard case .number(let size)? = values[textStyle] else { return nil }
        return size
    }
}

/// A value of a ``Theme``: what a property list holds.
public enum ThemeValue: Sendable, Hashable {
    /// A text: a name of a section, a colour or an image, or a text.
    case string(String)
    /// A number: a size, a padding, a point size.
    case number(Double)
    /// A flag.
    case bool(Bool)
    /// A list.
    case array([ThemeValue])
    /// A section, or any dictionary.
    case dictionary([String: ThemeValue])

    /// The value of a property-list object, or `nil` for a kind themes do not use (dates, data).
    init?(plistObject: Any) {
        switch plistObject {
        case let string as String: self = .string(string)
        case let bool as Bool where type(of: plistObject) == Bool.self: self = .bool(bool)
        case let number as Double: self = .number(number)
        case let number as Int: self = .number(Double(number))
        case let array as [Any]: self = .array(array.compactMap(ThemeValue.init(plistObject:)))
        case let dictionary as [String: Any]: self = .dictionary(dictionary.compactMapValues(ThemeValue.init(plistObject:)))
        default: return nil
        }
    }

    var plistObject: Any {
        switch self {
        case .string(let string): return string
        case .number(let number): return number
        case .bool(let bool): return bool
        case .array(let array): return array.map(\.plistObject)
        case .dictionary(let dictionary): return dictionary.mapValues(\.plistObject)
        }
    }
}

/// A theme that cannot give a style: where (file, section, key) and why.
public struct ThemeError: IdsvrError, Equatable {
    /// The theme's source (the plist file).
    public let source: String
    /// The section at fault, if one is.
    public let section: String?
    /// The key at fault in that section, if one is.
    public let key: String?
    /// What is wrong.
    public let reason: String

    /// An error about `key` of `section` in `source`.
    public init(source: String, section: String? = nil, key: String? = nil, reason: String) {
        self.source = source
        self.section = section
        self.key = key
        self.reason = reason
    }

    /// Always `invalid_theme`.
    public var error: String { "invalid_theme" }

    /// Where (the source, the section and the key, when known), then what is wrong.
    public var errorDescription: String? {
        var place = source
        if let section { place += ", section \"\(section)\"" }
        if let key { place += ", key \"\(key)\"" }
        return "\(place): \(reason)"
    }

    /// The same as ``errorDescription``.
    public var failureReason: String { errorDescription ?? error }

    /// Nothing to retry: the theme must be fixed, as the description says.
    public var recoverySuggestion: IdsvrErrorHandling { .unrecoverable(action: .modifyConfiguration(reason: errorDescription ?? error)) }
}

extension CodingUserInfoKey {
    /// Where a style's decoder finds the theme it reads from (a ``ThemeResolution``).
    static let haapiTheme = CodingUserInfoKey(rawValue: "se.haapi.theme")!
}

/// One resolution of a style: the theme, and the sections being resolved (to refuse cycles).
struct ThemeResolution: Sendable {
    let theme: Theme
    let chain: [String]

    func style<S: UIStyle>(_ type: S.Type, named name: String) throws(ThemeError) -> S {
        let referrer = chain.last
        guard !chain.contains(name) else {
            throw ThemeError(
                source: theme.source, section: referrer, reason: "sections name each other: \((chain + [name]).joined(separator: " -> "))")
        }
        guard let value = theme.values[name] else {
            throw ThemeError(
                source: theme.source, section: referrer ?? name,
                reason: referrer == nil ? "no such section" : "names the section \"\(name)\", which the theme does not have")
        }
        guard case .dictionary(let section) = value else {
            throw ThemeError(source: theme.source, section: name, reason: "is not a dictionary")
        }
        let decoder = PropertyListDecoder()
        decoder.userInfo[.haapiTheme] = ThemeResolution(theme: theme, chain: chain + [name])
        do {
            let data = try PropertyListSerialization.data(fromPropertyList: section.mapValues(\.plistObject), format: .binary, options: 0)
            return try decoder.decode(S.self, from: data)
        } catch let error as ThemeError {
            throw error
        } catch let DecodingError.keyNotFound(key, _) {
            throw ThemeError(source: theme.source, section: name, key: key.stringValue, reason: "missing")
        } catch let DecodingError.typeMismatch(expected, context) {
            throw ThemeError(
                source: theme.source, section: name, key: context.codingPath.last?.stringValue,
                reason: "is not a \(Self.kind(of: expected))")
        } catch let DecodingError.valueNotFound(expected, context) {
            throw ThemeError(
                source: theme.source, section: name, key: context.codingPath.last?.stringValue,
                reason: "is not a \(Self.kind(of: expected))")
        } catch let DecodingError.dataCorrupted(context) {
            throw ThemeError(
                source: theme.source, section: name, key: context.codingPath.last?.stringValue, reason: context.debugDescription)
        } catch {
            throw ThemeError(source: theme.source, section: name, reason: String(describing: error))
        }
    }

    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "string"
        case is Double.Type, is Int.Type: return "number"
        default: return "\(type)"
        }
    }

    /// The resolution a style's decoder was made by.
    static func of(_ decoder: any Decoder) throws -> ThemeResolution {
        guard let resolution = decoder.userInfo[.haapiTheme] as? ThemeResolution else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "styles are read through Theme.style(_:named:)"))
        }
        return resolution
    }
}

extension KeyedDecodingContainer {
    /// The style named by the string at `key`, from the theme `decoder` reads.
    func style<S: UIStyle>(_ type: S.Type, forKey key: Key, in decoder: any Decoder) throws -> S {
        let name = try decode(String.self, forKey: key)
        return try ThemeResolution.of(decoder).style(type, named: name)
    }

    /// A text's look: the appearance of the section named at `appearance`, and the colour name
    /// at `color` (a theme gives every text of the kit both).
    func text(_ appearance: Key, _ color: Key, in decoder: any Decoder) throws -> (TextAppearance, String) {
        (try style(TextAppearance.self, forKey: appearance, in: decoder), try decode(String.self, forKey: color))
    }

    /// A border: its colour name at `color` (`nil` for no border), its width at `width` and the
    /// corner radius at `radius`, in points (0 when absent).
    func border(_ color: Key, _ width: Key, _ radius: Key) throws -> (String?, Double, Double) {
        (try name(color), try number(width), try number(radius))
    }

    /// A spinner: its width and height at `side` (`fallback` points when absent), and the style of
    /// the section named at `style`.
    func spinner(_ side: Key, or fallback: Double, _ style: Key, in decoder: any Decoder) throws -> (Double, LoadingIndicatorViewStyle) {
        (try number(side, or: fallback), try self.style(LoadingIndicatorViewStyle.self, forKey: style, in: decoder))
    }

    /// The string at `key`, `nil` when absent or empty (`""` means "none" in a theme).
    func name(_ key: Key) throws -> String? {
        guard let name = try decodeIfPresent(String.self, forKey: key), !name.isEmpty else { return nil }
        return name
    }

    /// The number at `key`, `fallback` when absent.
    func number(_ key: Key, or fallback: Double = 0) throws -> Double {
        try decodeIfPresent(Double.self, forKey: key) ?? fallback
    }
}
