import Foundation
import HaapiSDK

/// A link to offer, or an image to show (a QR code, usually).
public struct LinkModel: Sendable, Hashable {
    /// The link as received.
    public let link: Link
    /// The target (possibly relative to the server's base URL, a `data:` URL for images).
    public var href: String { link.href }
    /// The relation (`forgot-password`, `register-create`, `activation`, ...).
    public var rel: String? { link.rel.isEmpty ? nil : link.rel }
    /// The text to show: the title, else the relation, else the target.
    public var title: String { link.title?.literal ?? rel ?? link.href }
    /// The media type of the target.
    public var type: String? { link.type }
    /// Whether the link is an image to show rather than a link to follow.
    public var isImage: Bool { link.isImage }
    /// Whether the link is an image the UI should present as a QR code (an image with the
    /// `activation` relation or a title naming a QR code, or any `data:` image).
    public var isQRCode: Bool {
        guard isImage else { return false }
        return rel == "activation" || (link.title?.literal.lowercased().contains("qr") ?? false) || href.lowercased().hasPrefix("data:image/")
    }
    /// The decoded image bytes of a `data:` image link.
    public let imageData: Data?

    /// A model of `link`.
    public init(_ link: Link) {
        self.link = link
        imageData = link.isImage ? link.imageData : nil
    }
}

/// A link of a step (the seeds' `LinkItemModel`).
public typealias LinkItemModel = LinkModel
