import Crypto
import Foundation
import HaapiSDK
import OAuthCore

/// The fuzz targets: decoders that read bytes from the network, each run on arbitrary input
/// with the properties every input must keep.
///
/// A harness returns the properties that did not hold (empty when all did). A crash inside a
/// decoder is a bug too; libFuzzer catches it as such, and a test replaying the input does.
public enum FuzzHarness: String, CaseIterable, Sendable {
    /// `HaapiModel.response(from:)`: any bytes, as a step or a problem.
    case haapiResponse = "haapi-response"
    /// `HaapiModel.problem(from:)`: any JSON as a problem.
    case problem
    /// Compact JWS, JWT claims, JWK and JWK Set parsing, and verification with a fixed key.
    case jose
    /// `TokenEndpointResponse`: a token endpoint's answer with any status and body.
    case tokenResponse = "token-response"
    /// `JSONValue(parsing:)`: the fast byte parser must agree with JSONDecoder.
    case json

    /// Runs the harness on one input.
    public func run(_ data: Data) -> [String] {
        switch self {
        case .haapiResponse: return Self.haapiResponse(data)
        case .problem: return Self.problem(data)
        case .jose: return Self.jose(data)
        case .tokenResponse: return Self.tokenResponse(data)
        case .json: return Self.json(data)
        }
    }

    // MARK: Harnesses

    private static func haapiResponse(_ data: Data) -> [String] {
        let contentType = data.first.map { [HaapiModel.authMediaType, HaapiModel.problemMediaType, "application/json"][Int($0) % 3] }
        do {
            // A model keeps the JSON it came from, whole, and decodes the same from it again.
            let input = try? JSONValue(parsing: data)
            var violations: [String] = []
            switch try HaapiModel.response(from: data, contentType: contentType) {
            case .representation(let step):
                if step.rawJSON != input { violations.append("the step does not keep the JSON it came from") }
                let again = try HaapiModel.representation(from: step.rawJSON)
                if type(of: again) != type(of: step) { violations.append("re-decoding gave \(type(of: again)), not \(type(of: step))") }
            case .problem(let problem):
                if problem.rawJSON != input { violations.append("the problem does not keep the JSON it came from") }
                let again = try HaapiModel.problem(from: problem.rawJSON)
                if type(of: again) != type(of: problem) { violations.append("re-decoding gave \(type(of: again)), not \(type(of: problem))") }
            }
            return violations
        } catch is HaapiModelError {
            return []
        } catch {
            return ["an untyped error: \(error)"]
        }
    }

    private static func problem(_ data: Data) -> [String] {
        guard let json = try? JSONValue(parsing: data) else { return [] }
        do {
            _ = try HaapiModel.problem(from: json)
            return []
        } catch is HaapiModelError {
            return []
        } catch {
            return ["an untyped error: \(error)"]
        }
    }

    private static let verificationKey = JWSVerificationKey(P256Key.publicKey)

    private static func jose(_ data: Data) -> [String] {
        var violations: [String] = []
        func typed(_ what: String, _ body: () throws -> Void) {
            do { try body() } catch is JOSEError {} catch { violations.append("\(what): an untyped error: \(error)") }
        }
        let text = String(decoding: data, as: UTF8.self)
        typed("CompactJWS") {
            let jws = try CompactJWS(text)
            try jws.verify(with: verificationKey)
            violations.append("a JWS nobody signed with the fixed key was verified")
        }
        typed("VerifiedJWT") { _ = try VerifiedJWT(text, key: verificationKey) }
        typed("JWTClaims") { _ = try JWTClaims(json: data) }
        typed("JWK") {
            let jwk = try JWK(json: data)
            _ = try? jwk.thumbprint()
            _ = try? JWSVerificationKey(jwk: jwk)
        }
        typed("JWKSet") { _ = try JWKSet(json: data) }
        return violations
    }

    private static func tokenResponse(_ data: Data) -> [String] {
        let statuses = [200, 400, 401, 500]
        let status = data.first.map { statuses[Int($0) % statuses.count] } ?? 200
        let response = TransportResponse(
            status: status, headers: ["Content-Type": "application/json"], body: data.dropFirst(), url: URL(string: "https://as.example/token")!)
        do {
            switch try TokenEndpointResponse(response) {
            case .success(let tokens):
                var violations: [String] = []
                if status != 200 { violations.append("HTTP \(status) was taken for tokens") }
                if tokens.accessToken.isEmpty { violations.append("tokens with an empty access_token") }
                return violations
            case .failure(let error):
                return error.error.isEmpty ? ["an OAuth error with an empty error code"] : []
            }
        } catch is TokenEndpointError {
            return []
        } catch {
            return ["an untyped error: \(error)"]
        }
    }

    private static func json(_ data: Data) -> [String] {
        let parsed = try? JSONValue(parsing: data)
        let decoded = try? JSONDecoder().decode(JSONValue.self, from: data)
        if parsed != decoded {
            return ["JSONValue(parsing:) gave \(parsed.map { "\($0)" } ?? "an error"), JSONDecoder \(decoded.map { "\($0)" } ?? "an error")"]
        }
        if let parsed, (try? JSONValue(parsing: parsed.serialized())) != parsed {
            return ["serializing and parsing again changed the value"]
        }
        return []
    }

    // MARK: Replay

    /// Runs the harness on every file at `paths` (directories are read one level deep);
    /// returns the failures, `path: violation`.
    public func replay(_ paths: [String]) -> [String] {
        var failures: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                failures.append("\(path): no such file")
                continue
            }
            let files = isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 } : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                failures += run(data).map { "\(file): \($0)" }
            }
        }
        return failures
    }
}

/// A fixed P-256 key: JWS verification needs one; no fuzz input is signed with it.
private enum P256Key {
    static let publicKey = P256.Signing.PrivateKey().publicKey
}
