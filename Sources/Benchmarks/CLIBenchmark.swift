import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `haapi token` with a cached token (no network): the process's wall time and peak memory,
/// which is what a shell script pays per call.
enum CLIBenchmark {
    struct Result {
        let runs: Int
        let wallMilliseconds: [Double]
        let peakKilobytes: [Int]
    }

    /// Runs `haapi token` `runs` times on a profile whose token is valid for an hour.
    static func run(binary: String, runs: Int = 30) throws -> Result {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let profile = home.appendingPathComponent("profiles/bench")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let later = Date().addingTimeInterval(3600).formatted(Date.ISO8601FormatStyle())
        try Data(#"{"clientID": "bench", "redirectUri": "haapi://callback", "issuer": "https://as.example", "tokenEndpoint": "https://as.example/token"}"#.utf8)
            .write(to: profile.appendingPathComponent("config.json"))
        try Data(#"{"issuer": "https://as.example", "clientID": "bench", "accessToken": "\#(String(repeating: "a", count: 800))", "tokenType": "Bearer", "accessTokenExpiresAt": "\#(later)"}"#.utf8)
            .write(to: profile.appendingPathComponent("tokens.json"))

        var walls: [Double] = []
        var peaks: [Int] = []
        for _ in 0..<runs {
            let (wall, peak, status) = try spawn(binary, ["token", "--profile", "bench"], environment: ["HAAPI_HOME=\(home.path)"])
            guard status == 0 else { throw BenchmarkFailure("haapi token exited with \(status)") }
            walls.append(wall)
            peaks.append(peak)
        }
        return Result(runs: runs, wallMilliseconds: walls.sorted(), peakKilobytes: peaks.sorted())
    }

    /// Runs a program with its output discarded; returns its wall time (ms), peak resident
    /// memory (KiB, from wait4's rusage) and exit status.
    private static func spawn(_ path: String, _ arguments: [String], environment: [String]) throws -> (Double, Int, Int32) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = (environment + ["PATH=/usr/bin:/bin"]).map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let start = ContinuousClock.now
        guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { throw BenchmarkFailure("cannot run \(path)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = (ContinuousClock.now - start).components
        let milliseconds = Double(elapsed.seconds) * 1e3 + Double(elapsed.attoseconds) / 1e15
        return (milliseconds, Int(usage.ru_maxrss), (status >> 8) & 0xff)
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
