// One benchmark report: the cost of the OAuthCore operations next to bare swift-crypto, HAAPI
// decoding per captured response, HAAPI logins against the dev server, browser logins and
// refreshes against Glewlwyd, one token session shared by processes and tasks, and `haapi
// token` start-up. Build in release mode: `Scripts/bench.sh`.
import Crypto
import Foundation
import HaapiSDK
import OAuthCore

/// Runs `body` in batches and returns the median time of one call, in microseconds.
func median(iterations: Int = 2_000, batch: Int = 10, _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    for _ in 0..<200 { try body() }  // warm up
    var samples: [Double] = []
    samples.reserveCapacity(iterations / batch)
    for _ in 0..<(iterations / batch) {
        let elapsed = try clock.measure { for _ in 0..<batch { try body() } }
        let (seconds, attoseconds) = elapsed.components
        samples.append((Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / Double(batch))
    }
    samples.sort()
    return samples[samples.count / 2]
}

func row(_ name: String, _ micros: Double, _ note: String = "") {
    let padded = name.padding(toLength: 44, withPad: " ", startingAt: 0)
    Stdout.line("| \(padded) | \(String(format: "%9.2f", micros)) | \(note)")
}

let dpop = try Dpop()
let url = URL(string: "https://idsvr.example.com/oauth/v2/oauth-token?ignored=1")!
let accessToken = String(repeating: "a", count: 600)
let sample = try dpop.proof(method: "POST", url: url, accessToken: accessToken)
let signingInputLength = sample.split(separator: ".")[0...1].joined(separator: ".").utf8.count
let rawKey = P256.Signing.PrivateKey()
let sameSizeInput = Data(repeating: 0x61, count: signingInputLength)

let proofTime = try median { _ = try dpop.proof(method: "POST", url: url, accessToken: accessToken) }
let bareTime = try median { _ = try rawKey.signature(for: sameSizeInput) }

let verifierKey = P256.Signing.PrivateKey()
let token = try CompactJWS.sign(
    payload: Data(#"{"iss":"https://op.example","sub":"alice","exp":4102444800}"#.utf8),
    header: JOSEHeader(algorithm: .es256, typ: "JWT"), key: .es256(verifierKey))
let verificationKey = JWSVerificationKey(verifierKey.publicKey)
let verifyTime = try median { try CompactJWS(token).verify(with: verificationKey) }
let bareVerifySignature = try verifierKey.signature(for: sameSizeInput)
let bareVerifyTime = median { _ = verifierKey.publicKey.isValidSignature(bareVerifySignature, for: sameSizeInput) }
let jwtTime = try median { _ = try VerifiedJWT(token, key: verificationKey) }
let pkceTime = median { _ = PKCE() }
let thumbprintTime = try median { _ = try dpop.publicJWK.thumbprint() }

Stdout.line("OAuthCore benchmarks (median of 2000 calls, microseconds per call)")
Stdout.line("| operation                                    |  median µs | note")
Stdout.line("|----------------------------------------------|-----------|-----")
row("DPoP proof (ES256, with ath)", proofTime, "signing input \(signingInputLength) bytes")
row("bare P-256 signature, same input size", bareTime)
row("  DPoP overhead ratio (target <= 1.3)", proofTime / bareTime, String(format: "%.2fx", proofTime / bareTime))
row("JWS verify (ES256 compact, parse + verify)", verifyTime)
row("bare P-256 verification, same input size", bareVerifyTime)
row("JWT verify + claims validation", jwtTime)
row("PKCE pair (verifier + S256 challenge)", pkceTime)
row("RFC 7638 thumbprint (P-256 JWK)", thumbprintTime)

// HaapiSDK: decoding and classifying a captured HAAPI response, next to a bare JSON parse of
// the same bytes. The captured files live outside the package (../shared/conformance/haapi/
// captured, relative to the current directory, or `--captured DIR`); without them the rows
// are skipped with a note.
let capturedDirectory: URL = {
    let arguments = CommandLine.arguments
    if let index = arguments.firstIndex(of: "--captured"), index + 1 < arguments.count {
        return URL(fileURLWithPath: arguments[index + 1], isDirectory: true)
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        .appendingPathComponent("../shared/conformance/haapi/captured", isDirectory: true).standardizedFileURL
}()

let capturedFiles = ((try? FileManager.default.contentsOfDirectory(at: capturedDirectory, includingPropertiesForKeys: nil)) ?? [])
    .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
if capturedFiles.isEmpty {
    Stdout.line("| (skipped: no captured responses in \(capturedDirectory.path); pass --captured DIR)")
}
Stdout.line("")
Stdout.line("Decoding each captured Curity response (median µs; ratio = decode+classify / JSONSerialization parse, target <= 3)")
Stdout.line("| response                                     |  decode µs | parse µs | ratio")
Stdout.line("|----------------------------------------------|-----------|----------|------")
for file in capturedFiles {
    guard let bytes = try? Data(contentsOf: file) else { continue }
    let decodeTime = median(iterations: 500) { _ = try? HaapiModel.response(from: bytes, contentType: nil) }
    let parseTime = median(iterations: 500) { _ = try? JSONSerialization.jsonObject(with: bytes) }
    let name = file.deletingPathExtension().lastPathComponent.padding(toLength: 44, withPad: " ", startingAt: 0)
    Stdout.line(
        "| \(name) | \(String(format: "%9.2f", decodeTime)) | \(String(format: "%8.2f", parseTime)) | \(String(format: "%.2fx", decodeTime / parseTime))"
    )
}

// Full logins against the development server over loopback.
func percentile(_ sorted: [Double], _ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }

// HAAPI logins and refreshes against `haapi server`, which runs in a process of its own: per
// transport, against a server hashing passwords as it should (most of a login is then its key
// derivation) and one hashing them for benchmarks (what is left is the client stack, loopback
// HTTP and the server's other work). Client CPU is this process's own.
if let haapi = argument("--haapi") {
    Stdout.line("")
    Stdout.line(
        "HAAPI logins against haapi server over loopback (private_key_jwt client, username/password, DPoP-bound tokens; a new accessor,")
    Stdout.line(
        "HAAPI token and DPoP key per login), then refreshes with rotation. The server is a process of its own: client CPU is the client's")
    Stdout.line(
        "| server's password hash         | transport       | logins | login p50 ms | login p99 ms | logins/s | requests/login | client CPU ms/login | refresh p50 ms | refresh p99 ms | client CPU ms/refresh |"
    )
    Stdout.line(
        "|--------------------------------|-----------------|--------|--------------|--------------|----------|----------------|---------------------|----------------|----------------|-----------------------|"
    )
    for cheap in [false, true] {
        for transport in LoginBenchmark.Transport.allCases {
            let result = try await LoginBenchmark.run(
                haapi: haapi, transport: transport, cheapPasswordHash: cheap, logins: cheap ? 200 : 20, refreshes: 100)
            let hash = cheap ? "PBKDF2-SHA512, 1 round (bench)" : "PBKDF2-SHA512, 210,000 rounds"
            Stdout.line(
                PrintableText(
                    String(
                        format: "| %@ | %@ | %6d | %12.2f | %12.2f | %8.1f | %14.1f | %19.2f | %14.2f | %14.2f | %21.2f |",
                        hash.padding(toLength: 30, withPad: " ", startingAt: 0),
                        transport.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0),
                        result.logins, percentile(result.latencies, 0.5), percentile(result.latencies, 0.99),
                        Double(result.logins) / result.seconds,
                        result.requestsPerLogin, result.clientCPUPerLogin, percentile(result.refreshLatencies, 0.5),
                        percentile(result.refreshLatencies, 0.99), result.clientCPUPerRefresh)))
        }
    }
} else {
    Stdout.line("")
    Stdout.line("| (skipped: the HAAPI login rows start haapi server; pass --haapi PATH to the release binary, as Scripts/bench.sh does)")
}

// OIDCClient against Glewlwyd.
func argument(_ name: String) -> String? {
    guard let index = CommandLine.arguments.firstIndex(of: name), index + 1 < CommandLine.arguments.count else { return nil }
    return CommandLine.arguments[index + 1]
}
Stdout.line("")
if let opEnv = argument("--op-env") {
    let script = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Scripts/op/browser.sh").path
    let oidc = try await BrowserLoginBenchmark.run(opEnv: opEnv, browserScript: script)
    let login = oidc.loginMilliseconds.sorted()
    let exchange = oidc.codeExchangeMilliseconds.sorted()
    let refresh = oidc.refreshMilliseconds.sorted()
    Stdout.line("Browser login (OIDCClient) against Glewlwyd over loopback (\(login.count) logins, \(refresh.count) refreshes)")
    Stdout.line("| measure                                      |     value | note")
    Stdout.line("|----------------------------------------------|-----------|-----")
    row("login p50 (ms)", percentile(login, 0.5), "discovery kept; headless browser scripts (curl) included")
    row("code exchange p50 (ms)", percentile(exchange, 0.5), "POST /token, client_secret_basic")
    row("refresh with rotation p50 (ms)", percentile(refresh, 0.5), "POST /token")
    row("refresh with rotation p90 (ms)", percentile(refresh, 0.9))
    row("single-flight: callers", Double(oidc.singleFlightCallers), "validAccessToken at once, token about to expire")
    row("single-flight: token requests made", Double(oidc.singleFlightRequests), "target 1")
    row("single-flight: all callers served (ms)", oidc.singleFlightMilliseconds)
} else {
    Stdout.line("| (skipped: the browser-login rows need Glewlwyd; pass --op-env PATH, as Scripts/bench.sh does)")
}

// One session for many callers wanting more than a token lives, in processes and in tasks.
if let haapi = argument("--haapi") {
    let sharing = try await SessionSharingBenchmark.run(haapi: haapi)
    Stdout.line("")
    Stdout.line("One TokenSession, callers asking at once for more than a token lives (haapi server, in process; refreshes counted there)")
    Stdout.line("| measure                                      |     value | note")
    Stdout.line("|----------------------------------------------|-----------|-----")
    for (name, group) in [("haapi token processes", sharing.processes), ("in-process callers", sharing.tasks)] {
        row("\(group.callers) \(name): refresh requests", Double(group.refreshes), "target 1")
        row("\(group.callers) \(name): wait p50 (ms)", percentile(group.waitMilliseconds, 0.5), "from the lock's release to the token")
        row("\(group.callers) \(name): wait p90 (ms)", percentile(group.waitMilliseconds, 0.9))
    }
}

// `haapi token` with a cached token, what a script pays per call, next to the floors: a Swift
// program that imports Foundation, reads the same JSON file and prints one field, linked as
// `haapi` is (the Swift runtime and Foundation static) and linked the usual way (dynamic).
if let haapi = argument("--haapi"), let runstat = argument("--runstat"), let floor = argument("--floor") {
    let floors = [("static floor", argument("--static-floor")), ("dynamic floor", floor)].compactMap { name, path in path.map { (name, $0) }
    }
    let cli = try CLIBenchmark.run(haapi: haapi, floors: floors, runstat: runstat)
    Stdout.line("")
    Stdout.line(
        "haapi token with a cached token, and the floor programs, in 3 interleaved rounds of 30 runs each (each after 3 unmeasured;")
    Stdout.line("medians of the rounds), each started by Scripts/bench/runstat.c with fork and exec; no network): \(haapi)")
    Stdout.line("| measure                                      |     value | note")
    Stdout.line("|----------------------------------------------|-----------|-----")
    let staticFloor = cli.floors.first { $0.name == "static floor" }?.figures
    row(
        "haapi token: start-up to exit p50 (ms)", cli.token.wallP50,
        staticFloor.map { String(format: "target <= %.2f (1.5x the static floor)", 1.5 * $0.wallP50) } ?? "")
    row("haapi token: start-up to exit p90 (ms)", cli.token.wallP90)
    row("haapi token: CPU time p50 (ms)", cli.token.cpuP50, "user + system")
    row("haapi token: peak resident memory p50 (MiB)", cli.token.peakMiB, "target <= 16; ru_maxrss of the process itself")
    for (name, figures) in cli.floors {
        let how =
            name == "static floor" ? "swiftc -O -static-stdlib, linked as haapi is" : "swiftc -O, the Swift runtime and Foundation shared"
        row("\(name): start-up to exit p50 (ms)", figures.wallP50, "\(how): read tokens.json, print a field")
        row("\(name): start-up to exit p90 (ms)", figures.wallP90)
        row("\(name): CPU time p50 (ms)", figures.cpuP50)
        row("\(name): peak memory p50 (MiB)", figures.peakMiB)
    }
    if let staticFloor { row("haapi token / static floor, p50", cli.token.wallP50 / staticFloor.wallP50, "target <= 1.5") }
    if let bus = argument("--keyring-bus"), let secretTool = argument("--secret-tool") {
        let keyring = try CLIBenchmark.runWithKeyring(haapi: haapi, runstat: runstat, bus: bus, secretTool: secretTool)
        row("haapi token, keyring: start-up p50 (ms)", keyring.wallP50, "target <= 15; GNOME Keyring over D-Bus")
        row("haapi token, keyring: start-up p90 (ms)", keyring.wallP90)
        row("haapi token, keyring: CPU p50 (ms)", keyring.cpuP50)
        row("haapi token, keyring: peak memory p50 (MiB)", keyring.peakMiB, "target <= 30")
    } else {
        Stdout.line("| (skipped: the keyring rows; Scripts/bench.sh passes --keyring-bus when GNOME Keyring is installed)")
    }
} else {
    Stdout.line("")
    Stdout.line("| (skipped: haapi token start-up; pass --haapi, --runstat and --floor, as Scripts/bench.sh does)")
}
