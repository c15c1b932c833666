import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import OAuthCore
import X509

/// What is wrong with a server's certificate, in words a person can act on: expired, not yet
/// valid, for another name, self-signed, or from an authority this machine does not trust.
///
/// A refused handshake says only "certificate verify failed". After one, the transport asks the
/// server again for its chain (a handshake that trusts nothing, ends at the chain, and sends
/// nothing) and reads it with swift-certificates.
enum CertificateDiagnosis {
    /// The problem of the chain `host:port` presents, or `nil` when it cannot be told (the
    /// server is gone, presents nothing, or the chain looks right: the refusal was another's).
    static func diagnose(host: String, port: Int, validatesHostname: Bool, timeout: TimeInterval) async -> String? {
        guard let chain = await presentedChain(host: host, port: port, timeout: min(timeout, 10)), !chain.isEmpty else { return nil }
        return problem(chain: chain, host: host, validatesHostname: validatesHostname, now: Date())
    }

    /// The problem of `chain` (leaf first) for `host` at `now`, in the order a person fixes them:
    /// dates, name, then trust. `nil` for a chain with none of these.
    static func problem(chain: [Certificate], host: String, validatesHostname: Bool, now: Date) -> String? {
        guard let leaf = chain.first else { return nil }
        if now > leaf.notValidAfter { return "the server's certificate expired on \(day(leaf.notValidAfter))" }
        if now < leaf.notValidBefore { return "the server's certificate is not valid before \(day(leaf.notValidBefore))" }
        let names = self.names(of: leaf)
        if validatesHostname, !covers(leaf, host: host) {
            return "the server's certificate is for \(names.isEmpty ? "no name" : names.joined(separator: ", ")), not \(host)"
        }
        if leaf.issuer == leaf.subject { return "the server's certificate (\(leaf.subject)) is self-signed, and not trusted here" }
        let top = chain.last ?? leaf
        let authority = top.issuer == top.subject ? top.subject : top.issuer
        return "the server's certificate is issued by \(authority), which is not trusted here"
    }

    /// The DNS names and IP addresses a certificate is for (its subject alternative names; its
    /// common name when it has none).
    static func names(of certificate: Certificate) -> [String] {
        let alternatives = (try? certificate.extensions.subjectAlternativeNames) ?? nil
        let names = (alternatives.map(Array.init) ?? []).compactMap { name -> String? in
            switch name {
            case .dnsName(let dns): return dns
            case .ipAddress(let octets): return address(Array(octets.bytes))
            default: return nil
            }
        }
        if !names.isEmpty { return names }
        return certificate.subject.flatMap { $0 }.filter { $0.type == .RDNAttributeType.commonName }.map { "\($0.value)" }
    }

    /// Whether `certificate` is for `host`: an IP address by its bytes, a name by its DNS names
    /// (a `*.` wildcard covers one label), or its common name when it has no alternative names.
    static func covers(_ certificate: Certificate, host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if let bytes = addressBytes(host) {
            let alternatives = ((try? certificate.extensions.subjectAlternativeNames) ?? nil).map(Array.init) ?? []
            return alternatives.contains { if case .ipAddress(let octets) = $0 { Array(octets.bytes) == bytes } else { false } }
        }
        return names(of: certificate).contains { name in
            let name = name.lowercased()
            if name == host { return true }
            guard name.hasPrefix("*."), let dot = host.firstIndex(of: ".") else { return false }
            return host[dot...] == name.dropFirst()
        }
    }

    /// The bytes of an IPv4 or IPv6 address written as text; `nil` for a name.
    private static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// An IP address's bytes as text (IPv6 in full, group by group).
    private static func address(_ bytes: [UInt8]) -> String? {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        guard bytes.count == 16 else { return nil }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(
            separator: ":")
    }

    private static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    /// The certificates `host:port` presents in a TLS handshake, which is then refused.
    private static func presentedChain(host: String, port: Int, timeout: TimeInterval) async -> [Certificate]? {
        guard let context = try? NIOSSLContext(configuration: .makeClientConfiguration()) else { return nil }
        let presented = LockedValue<[NIOSSLCertificate]>([])
        let bootstrap = ClientBootstrap.tls(to: host, context: context, group: MultiThreadedEventLoopGroup.singleton, timeout: timeout) {
            certificates, verification in
            presented.withLock { $0 = certificates }
            verification.succeed(.failed)
        }
        guard let channel = try? await bootstrap.connect(host: host, port: port).get() else { return nil }
        // The refused handshake closes the channel; a server that never answers is given up on.
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(seconds: timeout)) { channel.close(promise: nil) }
        try? await channel.closeFuture.get()
        timer.cancel()
        return presented.withLock { $0 }.compactMap { try? Certificate(derEncoded: $0.toDERBytes()) }
    }
}
