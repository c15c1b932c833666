import Foundation
import HaapiDriver
import OAuthCore

/// The images a server's steps link to (a QR code, an activation code, a link's picture), loaded
/// once per flow: the one way an image from outside reaches a screen, in the kit and in
/// `haapi preview`.
///
/// What a step names is untrusted, so each image passes one gate: a `data:` URL is decoded, an
/// `https` URL is fetched with a time limit and a byte limit (through a transport made for it:
/// the configuration's TLS settings, ``timeout``, ``byteLimit``), any other scheme is refused,
/// and the bytes must be an image the kit draws (PNG, JPEG, GIF, or SVG for pages), told by their
/// first bytes, not by what the server says they are. A refusal is an ``Outcome/unavailable(_:)``
/// with its reason, which the screen shows in place of the image.
public actor RemoteImages {
    /// The longest a fetch may take, in seconds.
    public static let timeout: TimeInterval = 10
    /// The largest image accepted, in bytes (1 MiB: a QR code is a few kilobytes).
    public static let byteLimit = 1 << 20

    /// What loading an image gave.
    public enum Outcome: Sendable, Hashable {
        /// The image's bytes and their media type (`image/png`, `image/jpeg`, `image/gif`, `image/svg+xml`).
        case image(Data, mediaType: String)
        /// Why there is no image.
        case unavailable(Reason)

        /// The image as a `data:` URL (for a page), or `nil`.
        public var dataURL: String? {
            guard case .image(let data, let type) = self else { return nil }
            return "data:\(type);base64,\(data.base64EncodedString())"
        }
    }

    /// Why an image is not shown.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The URL is neither `https:` nor a `data:` image.
        case notHTTPS = "not an https or data URL"
        /// More than ``RemoteImages/byteLimit`` bytes.
        case tooLarge = "larger than 1 MiB"
        /// The bytes are no image the kit draws.
        case notAnImage = "not a PNG, JPEG, GIF or SVG image"
        /// The server did not answer with the image (an error status, no connection, too slow).
        case notLoaded = "the server did not send it"

        /// The kit's text that says so, in place of the image.
        public var text: LocalizableStrings.Key {
            switch self {
            case .notHTTPS: return .imageNotHTTPS
            case .tooLarge: return .imageTooLarge
            case .notAnImage: return .imageNotAnImage
            case .notLoaded: return .imageNotLoaded
            }
        }
    }

    /// Makes the transport, at the first image fetched (a flow without one makes none).
    private let makeTransport: @Sendable () -> (any HTTPTransport)?
    private var transport: (any HTTPTransport)??
    private var loaded: [URL: Task<Outcome, Never>] = [:]
    /// What a relative `href` is relative to (the server's base URL), when not given with it.
    public let base: URL?

    /// A loader fetching through `transport` (`nil`: `https` images are not fetched, and say so).
    public init(transport: (any HTTPTransport)?, base: URL? = nil) {
        makeTransport = { transport }
        self.base = base
    }

    /// A loader fetching through the platform's transport (as the SDK's), with `tls` (a
    /// configuration's pins and trust roots), ``timeout`` and ``byteLimit``; relative `href`s
    /// are relative to `base`.
    public init(tls: TLSOptions = TLSOptions(), base: URL? = nil) {
        self.base = base
        let settings = TransportConfiguration(timeout: Self.timeout, tls: tls, maximumResponseBytes: Self.byteLimit)
        #if canImport(Darwin)
            makeTransport = { try? HaapiTokenManagerBuilder.platformTransport(settings, sessionConfiguration: .ephemeral) }
        #else
            makeTransport = { try? HaapiTokenManagerBuilder.platformTransport(settings) }
        #endif
    }

    /// Every image of `screen` that is not a `data:` one, by `href` (for a page drawn at once).
    public func load(_ screen: Screen, relativeTo base: URL? = nil) async -> [String: Outcome] {
        var outcomes: [String: Outcome] = [:]
        for image in screen.serverImages where !image.href.lowercased().hasPrefix("data:") {
            outcomes[image.href] = await load(image.href, relativeTo: base)
        }
        return outcomes
    }

    /// The image at `href` (a step's link, possibly relative to `base`): from this loader's cache
    /// after the first time; concurrent calls for one URL make one request.
    public func load(_ href: String, relativeTo base: URL? = nil) async -> Outcome {
        if href.lowercased().hasPrefix("data:") { return Self.decodeDataURL(href) }
        guard let url = URL(string: href, relativeTo: base ?? self.base)?.absoluteURL, url.scheme?.lowercased() == "https", url.host != nil
        else {
            return .unavailable(.notHTTPS)
        }
        if let task = loaded[url] { return await task.value }
        if transport == nil { transport = .some(makeTransport()) }
        let made = transport ?? nil
        let task = Task { await Self.fetch(url, through: made) }
        loaded[url] = task
        return await task.value
    }

    private static func fetch(_ url: URL, through transport: (any HTTPTransport)?) async -> Outcome {
        guard let transport else { return .unavailable(.notLoaded) }
        do {
            let response = try await transport.send(TransportRequest(url: url, headers: ["Accept": "image/*"], timeout: timeout))
            guard (200..<300).contains(response.status) else { return .unavailable(.notLoaded) }
            return check(response.body)
        } catch let error as HTTPTransportError where error.code == .responseTooLarge {
            return .unavailable(.tooLarge)
        } catch {
            return .unavailable(.notLoaded)
        }
    }

    /// A `data:` URL's image, through the same checks as a fetched one.
    public static func decodeDataURL(_ href: String) -> Outcome {
        guard let comma = href.firstIndex(of: ","), href[..<comma].lowercased().hasSuffix(";base64"),
            href.utf8.count <= byteLimit * 4 / 3 + 128,
            let data = Data(base64Encoded: String(href[href.index(after: comma)...]), options: .ignoreUnknownCharacters)
        else { return .unavailable(href.utf8.count > byteLimit * 4 / 3 + 128 ? .tooLarge : .notAnImage) }
        return check(data)
    }

    /// `data` as an image, by its first bytes; refused when too large or not an image.
    package static func check(_ data: Data) -> Outcome {
        guard data.count <= byteLimit else { return .unavailable(.tooLarge) }
        guard let type = mediaType(of: data) else { return .unavailable(.notAnImage) }
        return .image(data, mediaType: type)
    }

    /// The media type of image bytes, from their signature; `nil` for anything else.
    static func mediaType(of data: Data) -> String? {
        let head = [UInt8](data.prefix(512))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        let text = String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if text.hasPrefix("<svg") || (text.hasPrefix("<?xml") && text.contains("<svg")) { return "image/svg+xml" }
        return nil
    }
}
