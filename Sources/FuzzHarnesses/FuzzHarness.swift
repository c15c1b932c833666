import Crypto
import Foundation
import HaapiCLICore
import HaapiDriver
import HaapiSDK
import HaapiUI
import OAuthCore
import OIDCClient

/// The fuzz targets: decoders that read bytes from the network or from the files the command
/// line keeps, and what numbers from outside become, each run on arbitrary input with the
/// properties every input must keep.
///
/// A harness returns the properties that did not hold (empty when all did). A crash inside a
/// decoder is a bug too; libFuzzer catches it as such, and a test replaying the input does.
/// Every log line is built while a harness runs (none is written): building one is code too.
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
    /// A provider's numbers, which become dates, waits and counts: a device authorization
    /// (first byte 0 mod 5), a token response (1), a `Retry-After` value (2), a HAAPI polling
    /// step (3) or a JWT's claims (4), the rest of the input being the JSON (or the header's
    /// text). None may trap, each wait must stay within its bound, and each date must survive
    /// the stored session and the command line's reports.
    case providerNumbers = "provider-numbers"
    /// A HAAPI polling step's `properties`: the countdown the kit's screens and the terminal
    /// show, and the wait between automatic polls, `elapsed` seconds after the step came
    /// (chosen by the first byte).
    case pollingCountdown = "polling-countdown"
    /// A profile's `config.json`, as `haapi login --config` reads it and as the commands read
    /// the saved settings back.
    case profileConfig = "profile-config"
    /// A profile's `tokens.json`: the stored session as ``AuthState`` reads it, and what
    /// `haapi status` and `haapi token` make of it.
    case storedTokens = "stored-tokens"
    /// A message from the D-Bus session bus, as the keyring client reads one.
    case dbusMessage = "dbus-message"
    /// An app's theme plist, laid over the kit's, and the pages drawn with it.
    case themePlist = "theme-plist"
    /// An asset catalog's `Contents.json`, as a colour set and as an image set.
    case assetContents = "asset-contents"

    /// Runs the harness on one input.
    public func run(_ data: Data) -> [String] {
        HaapiLogger.withSynchronousScope(Self.everyLogLine) {
            switch self {
            case .haapiResponse: return Self.haapiResponse(data)
            case .problem: return Self.problem(data)
            case .jose: return Self.jose(data)
            case .tokenResponse: return Self.tokenResponse(data)
            case .json: return Self.json(data)
            case .providerNumbers: return Self.providerNumbers(data)
            case .pollingCountdown: return Self.pollingCountdown(data)
            case .profileConfig: return Self.profileConfig(data)
            case .storedTokens: return Self.storedTokens(data)
            case .dbusMessage: return Self.dbusMessage(data)
            case .themePlist: return Self.themePlist(data)
            case .assetContents: return Self.assetContents(data)
            }
        }
    }

    /// Every tag at every level, no sink and no console: each line is built and dropped.
    private static let everyLogLine = HaapiLoggerScope(
        followUpTags: DriverFollowUpTag.allCases + OIDCFollowUpTag.allCases + SdkFollowUpTag.allCases + UIKitFollowUpTag.allCases,
        sinks: [],
        isDebugEnabled: true, isConsoleEnabled: false)

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
                if type(of: again) != type(of: problem) {
                    violations.append("re-decoding gave \(type(of: again)), not \(type(of: problem))")
                }
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
            status: status, headers: ["Content-Type": "application/json"], body: data.dropFirst(),
            url: URL(string: "https://as.example/token")!)
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
        } catch is TokenEndpointError, is UnexpectedResponseError {
            return []
        } catch {
            return ["an untyped error: \(error)"]
        }
    }

    private static func json(_ data: Data) -> [String] {
        let parsed = try? JSONValue(parsing: data)
        let decoded = try? JSONDecoder().decode(JSONValue.self, from: data)
        if parsed != decoded {
            return [
                "JSONValue(parsing:) gave \(parsed.map { "\($0)" } ?? "an error"), JSONDecoder \(decoded.map { "\($0)" } ?? "an error")"
            ]
        }
        if let parsed, (try? JSONValue(parsing: parsed.serialized())) != parsed {
            return ["serializing and parsing again changed the value"]
        }
        return []
    }

    /// A fixed moment in whole seconds, so that a run is repeatable and stored dates (whole
    /// seconds) compare exactly with it.
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    private static func providerNumbers(_ data: Data) -> [String] {
        let body = Data(data.dropFirst())
        var violations: [String] = []
        switch (data.first ?? 0) % 5 {
        case 0:
            do {
                let authorization = try DeviceAuthorization(json: body, now: now, dpop: nil)
                // What `haapi login --device` and completeDeviceAuthorization do with the numbers.
                _ = Int(authorization.expiresAt.timeIntervalSince(now) / 60)
                _ = WaitTime.nanoseconds(authorization.interval)
                if !(1...DeviceAuthorization.longestLifetime).contains(authorization.interval) {
                    violations.append("a device login polls every \(authorization.interval) s")
                }
                if !(authorization.expiresAt.timeIntervalSince(now) <= DeviceAuthorization.longestLifetime) {
                    violations.append("device codes that live until \(authorization.expiresAt)")
                }
            } catch is OIDCError {
            } catch {
                violations.append("an untyped error: \(error)")
            }
        case 1:
            let response = TransportResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: body, url: URL(string: "https://as.example/token")!)
            guard case .success(let tokens)? = try? TokenEndpointResponse(response, receivedAt: now) else { break }
            if let expiresIn = tokens.expiresIn, expiresIn < 0 { violations.append("a negative expires_in: \(expiresIn)") }
            // A HAAPI client's own access token (HaapiTokenManager), and the app's tokens (HaapiSDK).
            let haapiToken = HaapiTokenManager.accessToken(tokens, receivedAt: now)
            if !(haapiToken.remainingLifetime(at: now) >= 0) {
                violations.append("a HAAPI access token expired on arrival: \(haapiToken.remainingLifetime(at: now)) s")
            }
            _ = SuccessfulTokenResponse(tokens).expiresAt
            // The session the tokens start: stored in tokens.json, read back, reported by `haapi status`.
            let state = AuthState(
                issuer: "https://as.example", clientID: "fuzz", accessToken: tokens.accessToken, tokenType: tokens.tokenType,
                accessTokenExpiresAt: tokens.expiresAt, refreshToken: tokens.refreshToken, scope: tokens.scope)
            violations += storedSession(state)
        case 2:
            let text = String(decoding: body, as: UTF8.self)
            let response = TransportResponse(
                status: 503, headers: ["Retry-After": text], body: Data(), url: URL(string: "https://as.example/token")!)
            if let seconds = response.retryAfterSeconds {
                if !(0...TransportResponse.longestRetryAfter).contains(seconds) { violations.append("Retry-After gave \(seconds) s") }
                _ = WaitTime.nanoseconds(seconds)
            }
            _ = UnexpectedResponseError(response).errorDescription
            // A busy token endpoint's OAuth error carries the delay too.
            let refusal = TransportResponse(
                status: 503, headers: ["Content-Type": "application/json", "Retry-After": text],
                body: Data(#"{"error":"temporarily_unavailable"}"#.utf8),
                url: URL(string: "https://as.example/token")!)
            if case .failure(let error)? = try? TokenEndpointResponse(refusal), let seconds = error.retryAfter,
                !(0...TransportResponse.longestRetryAfter).contains(seconds)
            {
                violations.append("an OAuth error's Retry-After gave \(seconds) s")
            }
        case 3:
            guard
                case .representation(let step as PollingStep)? = try? HaapiModel.response(from: body, contentType: HaapiModel.authMediaType)
            else { break }
            if let interval = KitPollingModel.interval(
                serverMilliseconds: step.pollingProperties.intervalMilliseconds, autoPollingDuration: 3),
                interval > KitPollingModel.longestServerInterval || interval <= 0
            {
                violations.append("polls every \(interval)")
            }
        default:
            violations += timeClaims(body)
        }
        return violations
    }

    /// The header of the unsigned JWTs made of fuzzed claims: `haapi token --decode` reads any algorithm.
    private static let jwtHeader = Base64URL.encode(Data(#"{"alg":"ES256"}"#.utf8))

    /// A JWT's times (`exp`, `nbf`, `iat`, `auth_time`...): validated as OAuthCore validates an ID
    /// token's, and shown as `haapi token --decode` shows them.
    private static func timeClaims(_ json: Data) -> [String] {
        var violations: [String] = []
        let skew: TimeInterval = 120
        let maximumAge: TimeInterval = 600
        do {
            let claims = try JWTClaims(json: json)
            do {
                try claims.validate(
                    JWTValidationOptions(now: now, clockSkew: skew, requireExpiration: true, requireIssuedAt: true, maximumAge: maximumAge))
                // Valid at `now`: each time within its window.
                if let exp = claims.expiresAt, !(now.timeIntervalSince(exp) < skew) {
                    violations.append("a token valid after its exp \(exp)")
                }
                if let nbf = claims.notBefore, !(nbf.timeIntervalSince(now) <= skew) {
                    violations.append("a token valid before its nbf \(nbf)")
                }
                if let iat = claims.issuedAt, !(iat.timeIntervalSince(now) <= skew && now.timeIntervalSince(iat) <= maximumAge + skew) {
                    violations.append("a token valid though issued at \(iat)")
                }
            } catch is JOSEError {}
        } catch is JOSEError {
        } catch {
            violations.append("an untyped error: \(error)")
        }
        // Shown: a time as a date when it is one (finite, within ±10^11 s), else as sent. A date
        // from 1970 on reads back as the same second (earlier ones may have years ISO 8601 parsers refuse).
        guard let sent = (try? JSONValue(parsing: json))?.objectValue,
            let shown = JWTText.readable("\(jwtHeader).\(Base64URL.encode(json)).AA")?["claims"]?.objectValue
        else { return violations }
        for name in JWTText.timeClaims {
            guard let value = sent[name] else { continue }
            if let seconds = value.doubleValue, seconds.isFinite, abs(seconds) < 1e11 {
                let text = shown[name]?.stringValue
                let date = text.flatMap { try? Date.ISO8601FormatStyle().parse($0) }
                if text == nil || (seconds >= 0 && !(date.map { abs($0.timeIntervalSince1970 - seconds) < 1 } ?? false)) {
                    violations.append("\(name) \(seconds) was shown as \(shown[name].map { "\($0)" } ?? "nothing")")
                }
            } else if shown[name] != value {
                violations.append("\(name) \(value) was shown as \(shown[name].map { "\($0)" } ?? "nothing")")
            }
        }
        return violations
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
            let files =
                isDirectory.boolValue
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
