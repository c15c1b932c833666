import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OAuthCore

/// Answers only requests addressed to a name this server serves: `localhost`, an IP address, the
/// bound host and the host of `--public-url`. A web page can make a browser send requests to the
/// server under a name of its own that it has pointed at this machine (DNS rebinding), and then
/// read the answers as its own origin's; such a request carries that name, and is refused here
/// with 421 before any route (the gallery, the pages, the endpoints) sees it.
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The host names served, lowercased, besides `localhost` and IP addresses.
    let names: Set<String>

    init(configuration: DevServerConfiguration) {
        names = Set([configuration.host, configuration.publicURL?.host].compactMap { $0?.lowercased() })
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let authority = request.head.authority, !serves(authority) else { return try await next(request, context) }
        let served = (["localhost", "an IP address"] + names.sorted()).joined(separator: ", ")
        return Response(
            status: .misdirectedRequest, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: "this server answers only for \(served): give --public-url for another name\n")))
    }

    /// Whether `authority` (`host`, `host:port`, `[v6]:port`) names this server.
    func serves(_ authority: String) -> Bool {
        let host: Substring
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<end]
        } else {
            host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        let name = host.lowercased()
        if name == "localhost" || name.hasSuffix(".localhost") || names.contains(name) { return true }
        // An address needs no name resolution, so no page can point it elsewhere.
        return Self.isAddress(name)
    }

    private static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
