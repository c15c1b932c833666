import Foundation
import HaapiCLICore
import OAuthCore

/// `haapi login --record DIR`: a transport that keeps each HAAPI response of the login (steps
/// and problems, `application/vnd.auth+json` and `application/problem+json`) in `DIR`, one file
/// each in order (`01-authentication-step.json`), for `haapi preview --captured DIR` to show one's
/// own server's flow in the kit's look. Nothing else is kept: no token endpoint answer, no request.
///
/// A response names secrets of the login under way, and each is masked before it is written:
/// the authorization code and tokens, `state` and nonces, BankID's auto-start token and QR data
/// (and QR images), the values of hidden, context and password fields, and such parameters in
/// links' query strings. The folder is made private (0700) and each file 0600.
struct ResponseRecorder: HTTPTransport {
    let base: any HTTPTransport
    let folder: URL
    private let counter = LockedValue(0)

    /// What masked values read.
    static let masked = "masked"
    /// Members whose value is a secret of the login, wherever they are.
    static let secretMembers: Set = [
        "code", "id_token", "access_token", "refresh_token", "state", "nonce", "session_state", "autostarttoken", "qrcodedata", "qrdata",
        "_resume_nonce", "csrf", "password", "token",
    ]

    /// A recorder writing into `folder`, made now (private) when missing.
    /// - Throws: ``CLIFailure`` when the folder cannot be made.
    init(base: any HTTPTransport, folder: URL) throws {
        (self.base, self.folder) = (base, folder)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIFailure("cannot make \(folder.path) for --record: \(error.localizedDescription)")
        }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await base.send(request)
        guard ["application/vnd.auth+json", "application/problem+json"].contains(response.mediaType ?? ""),
            let json = try? JSONValue(parsing: response.body)
        else { return response }
        let number = counter.withLock { count -> Int in
            count += 1
            return count
        }
        let name = String(format: "%02d-", number) + Self.fileName(of: json) + ".json"
        let file = folder.appendingPathComponent(name)
        // A file that cannot be written does not stop the login; it is said.
        do {
            try Self.masking(json).serialized(pretty: true).write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        } catch {
            Texts.warn(PrintableText("--record could not write \(file.path): \(error.localizedDescription)"))
        }
        return response
    }

    /// The file's name after the response's type (`authentication-step`, a problem's last path
    /// segment), letters, digits and hyphens only.
    static func fileName(of json: JSONValue) -> String {
        let type = json.objectValue?["type"]?.stringValue ?? "response"
        let last = type.split(separator: "/").last.map(String.init) ?? type
        let safe = String(
            last.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" ? Character($0) : "-" })
        return safe.isEmpty ? "response" : String(safe.prefix(64))
    }

    /// `json` with every secret of the login masked (see the type's description).
    static func masking(_ json: JSONValue) -> JSONValue {
        switch json {
        case .object(var members):
            let isField = members["type"]?.stringValue.map { ["hidden", "context", "password"].contains($0) } ?? false
            let isQRImage =
                members["rel"]?.stringValue == "qr-code" || (members["href"]?.stringValue?.lowercased().hasPrefix("data:image/") ?? false)
            for (key, value) in members {
                if secretMembers.contains(key.lowercased()), value.stringValue != nil {
                    members[key] = .string(masked)
                } else if key == "value", isField, value.stringValue != nil {
                    members[key] = .string(masked)
                } else if key == "href", let href = value.stringValue {
                    members[key] = .string(isQRImage && href.lowercased().hasPrefix("data:") ? masked : maskingQuery(of: href))
                } else {
                    members[key] = masking(value)
                }
            }
            return .object(members)
        case .array(let values):
            return .array(values.map(masking))
        default:
            return json
        }
    }

    /// `href` with the values of its query's secret parameters masked (a nonce, a token, a code).
    static func maskingQuery(of href: String) -> String {
        guard let mark = href.firstIndex(of: "?") else { return href }
        let query = href[href.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1).first.map { String($0).lowercased() } ?? ""
            let secret = secretMembers.contains(name) || ["token", "nonce", "secret", "code"].contains { name.contains($0) }
            return secret && pair.contains("=") ? "\(pair.split(separator: "=", maxSplits: 1)[0])=\(masked)" : String(pair)
        }
        return String(href[...mark]) + query.joined(separator: "&")
    }
}
