import Foundation

/// `haapi token` with a cached token (no network) and the floor program, each run by `runstat`
/// (Scripts/bench/runstat.c): the wall time, CPU time and peak memory of the process itself.
///
/// Not spawned from here: Linux counts in a child's peak RSS the address space of the process
/// it was spawned from, so from this benchmark process every command would read at least the
/// size this process had reached.
enum CLIBenchmark {
    struct Figures {
        let runs: Int
        let wallP50: Double
        let wallP90: Double
        let cpuP50: Double
        let peakMiB: Double
    }

    /// What ``run(haapi:floors:runstat:rounds:runs:)`` measured: `haapi token`, and each floor program by name.
    struct Outcome {
        let token: Figures
        let floors: [(name: String, figures: Figures)]
    }

    /// Runs `haapi token` on a profile whose token is valid for an hour, and each floor program
    /// on the same `tokens.json`, in `rounds` interleaved rounds of `runs` runs each (so a
    /// machine that slows down half way slows every row alike); each figure is the median of
    /// the rounds' figures.
    static func run(haapi: String, floors: [(name: String, path: String)], runstat: String, rounds: Int = 3, runs: Int = 30) throws
        -> Outcome
    {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let profile = home.appendingPathComponent("profiles/bench")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let later = Date().addingTimeInterval(3600).formatted(Date.ISO8601FormatStyle())
        try Data(Self.config(secretStore: nil).utf8).write(to: profile.appendingPathComponent("config.json"))
        let tokens = profile.appendingPathComponent("tokens.json")
        try Data(Self.tokens(expiring: later).utf8).write(to: tokens)
        var token: [Figures] = []
        var floorRounds = Array(repeating: [Figures](), count: floors.count)
        for _ in 0..<rounds {
            token.append(
                try measure(runstat: runstat, runs: runs, [haapi, "token", "--profile", "bench"], environment: ["HAAPI_HOME": home.path]))
            for (index, floor) in floors.enumerated() {
                floorRounds[index].append(try measure(runstat: runstat, runs: runs, [floor.path, tokens.path], environment: [:]))
            }
        }
        return Outcome(token: median(token), floors: zip(floors, floorRounds).map { ($0.name, median($1)) })
    }

    /// Each figure's median over `rounds`.
    static func median(_ rounds: [Figures]) -> Figures {
        func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Figures(
            runs: rounds.map(\.runs).reduce(0, +), wallP50: middle(rounds.map(\.wallP50)), wallP90: middle(rounds.map(\.wallP90)),
            cpuP50: middle(rounds.map(\.cpuP50)), peakMiB: middle(rounds.map(\.peakMiB)))
    }

    /// The profile's settings, its secrets in `secretStore` (`nil`: files).
    static func config(secretStore: String?) -> String {
        #"{"clientId": "bench", "redirectUri": "haapi://callback", "issuer": "https://as.example", "tokenEndpoint": "https://as.example/token""#
            + (secretStore.map { #", "secretStore": "\#($0)""# } ?? "") + "}"
    }

    /// A Bearer token record valid until `expiry`.
    static func tokens(expiring expiry: String) -> String {
        #"{"issuer": "https://as.example", "clientID": "bench", "accessToken": "\#(String(repeating: "a", count: 800))", "tokenType": "Bearer", "accessTokenExpiresAt": "\#(expiry)"}"#
    }

    /// Runs `haapi token` on a profile whose token, valid for an hour, is in the keyring: the
    /// Secret Service on the D-Bus session `bus` (GNOME Keyring, unlocked, as Scripts/bench.sh
    /// starts it), stored there by libsecret's `secret-tool`.
    static func runWithKeyring(haapi: String, runstat: String, bus: String, secretTool: String, runs: Int = 40) throws -> Figures {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let profile = home.appendingPathComponent("profiles/bench")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        try Data(config(secretStore: "keyring").utf8).write(to: profile.appendingPathComponent("config.json"))
        let store = Process()
        store.executableURL = URL(fileURLWithPath: secretTool)
        // The storage's items carry the schema's name, as libsecret's do; `secret-tool` adds it only when told.
        store.arguments = [
            "store", "--label=swift-haapi bench: tokens.json", "xdg:schema", "io.github.swift-haapi.Secret",
            "application", "swift-haapi", "profile", profile.path, "key", "tokens.json",
        ]
        store.environment = ["DBUS_SESSION_BUS_ADDRESS": bus]
        let input = Pipe()
        store.standardInput = input
        try store.run()
        try input.fileHandleForWriting.write(
            contentsOf: Data(tokens(expiring: Date().addingTimeInterval(3600).formatted(Date.ISO8601FormatStyle())).utf8))
        try input.fileHandleForWriting.close()
        store.waitUntilExit()
        guard store.terminationStatus == 0 else { throw BenchmarkFailure("secret-tool store failed on \(bus)") }
        return try measure(
            runstat: runstat, runs: runs, [haapi, "token", "--profile", "bench"],
            environment: ["HAAPI_HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": bus])
    }

    /// `runstat RUNS 3 COMMAND…`, parsed.
    private static func measure(runstat: String, runs: Int, _ command: [String], environment: [String: String]) throws -> Figures {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: runstat)
        process.arguments = [String(runs), "3"] + command
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var values: [String: Double] = [:]
        for pair in text.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        guard process.terminationStatus == 0, let wall = values["wall_p50_ms"], let wall90 = values["wall_p90_ms"],
            let cpu = values["cpu_p50_ms"],
            let peak = values["peak_rss_p50_kib"]
        else {
            throw BenchmarkFailure(
                "runstat \(command.joined(separator: " ")) failed: \(text)\(errorOutput(of: command, environment: process.environment ?? [:]))"
            )
        }
        return Figures(runs: runs, wallP50: wall, wallP90: wall90, cpuP50: cpu, peakMiB: peak / 1024)
    }
}

/// What `command` writes to standard error when run once more, for a failure's message: runstat
/// sends the measured runs' output to /dev/null.
private func errorOutput(of command: [String], environment: [String: String]) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.environment = environment
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return "" }
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return "\n\(command[0]) said (status \(process.terminationStatus)): \(text)"
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
