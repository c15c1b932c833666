import Foundation
import HaapiTesting
import HaapiUI
import OAuthCore
import Testing

/// The one way a server's image reaches a screen: `https` and `data:` only, at most 1 MiB, an
/// image by its first bytes (not by what the server says), fetched once per flow.
@Suite struct RemoteImagesTests {
    /// The eight bytes every PNG starts with (the PNG specification), then some.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
    static func answer(_ body: Data, status: Int = 200, type: String = "image/png") -> TransportAnswer {
        { request in TransportResponse(status: status, headers: ["Content-Type": type], body: body, url: request.url) }
    }

    @Test func anHTTPSImageIsFetchedOnceAndKept() async throws {
        let transport = ScriptedTransport([Self.answer(Self.png)])
        let images = RemoteImages(transport: transport)
        async let first = images.load("https://idsvr.example/qr.png")
        async let second = images.load("https://idsvr.example/qr.png")
        let outcomes = await [first, second]
        #expect(outcomes == [.image(Self.png, mediaType: "image/png"), .image(Self.png, mediaType: "image/png")])
        #expect(
            await images.load("/qr.png", relativeTo: URL(string: "https://idsvr.example/authn/"))
                == .image(Self.png, mediaType: "image/png"))
        #expect(transport.sent.count == 1, "one request for one image, however often it is asked for")
        #expect(transport.sent.first?.timeout == RemoteImages.timeout && transport.sent.first?.headers["Accept"] == "image/*")
    }

    @Test func whatIsNotAnImageOrNotSafeToFetchSaysWhy() async throws {
        let html = Data("<html><script>alert(1)</script></html>".utf8)
        let transport = ScriptedTransport([
            Self.answer(html), Self.answer(Self.png, status: 404), Self.answer(Data(count: RemoteImages.byteLimit + 1)),
            { _ in throw HTTPTransportError(.responseTooLarge, "too large") }, { _ in throw HTTPTransportError(.timedOut, "slow") },
        ])
        let images = RemoteImages(transport: transport)
        #expect(await images.load("http://idsvr.example/qr.png") == .unavailable(.notHTTPS))
        #expect(await images.load("javascript:alert(1)") == .unavailable(.notHTTPS))
        #expect(await images.load("file:///etc/passwd") == .unavailable(.notHTTPS))
        #expect(transport.sent.isEmpty, "nothing is fetched but https")
        // Said to be a PNG, it is HTML: the bytes decide.
        #expect(await images.load("https://idsvr.example/a.png") == .unavailable(.notAnImage))
        #expect(await images.load("https://idsvr.example/b.png") == .unavailable(.notLoaded))
        #expect(await images.load("https://idsvr.example/c.png") == .unavailable(.tooLarge))
        #expect(await images.load("https://idsvr.example/d.png") == .unavailable(.tooLarge))
        #expect(await images.load("https://idsvr.example/e.png") == .unavailable(.notLoaded))
        #expect(await RemoteImages(transport: nil).load("https://idsvr.example/f.png") == .unavailable(.notLoaded))
    }

    @Test func dataURLsAreDecodedAndCheckedTheSameWay() async {
        let images = RemoteImages(transport: nil)
        #expect(await images.load("data:image/png;base64," + Self.png.base64EncodedString()) == .image(Self.png, mediaType: "image/png"))
        #expect(
            await images.load("data:image/png;base64," + Data("GIF89a....".utf8).base64EncodedString())
                == .image(Data("GIF89a....".utf8), mediaType: "image/gif"))
        #expect(await images.load("data:image/png;base64," + Data("not an image".utf8).base64EncodedString()) == .unavailable(.notAnImage))
        #expect(await images.load("data:image/svg+xml,<svg/>") == .unavailable(.notAnImage), "only base64 data URLs")
        let svg = Data(#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8)
        #expect(await images.load("data:image/svg+xml;base64," + svg.base64EncodedString()) == .image(svg, mediaType: "image/svg+xml"))
        #expect(
            await images.load("data:image/png;base64," + String(repeating: "A", count: RemoteImages.byteLimit * 2))
                == .unavailable(.tooLarge))
        #expect(
            RemoteImages.Outcome.image(Self.png, mediaType: "image/png").dataURL == "data:image/png;base64,"
                + Self.png.base64EncodedString())
    }

    /// Each reason has the kit's text in place of the image, in each language.
    @Test func eachReasonHasItsText() {
        for language in ["en", "sv"] {
            let strings = LocalizableStrings(languages: [language], appTable: { _ in nil })
            let texts = RemoteImages.Reason.allCases.map { strings.string($0.text) }
            #expect(
                Set(texts).count == RemoteImages.Reason.allCases.count && texts.allSatisfy { !$0.hasPrefix("haapi_") },
                "\(language): \(texts)")
        }
    }
}
