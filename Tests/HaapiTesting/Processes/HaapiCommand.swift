import Foundation
import OAuthCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `haapi` binary, run as a person or a CI job runs it (shared by the test targets
/// that test the command line end to end).
public enum HaapiCommand {
    /// `.build/debug/haapi` next to this package (`swift build --build-tests` builds it too), or
    /// the binary `HAAPI_TEST_BINARY` names (the installed one of `Scripts/build-cli.sh`, linked
    /// as it is released).
    public static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["HAAPI_TEST_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        // Tests/HaapiTesting/Processes/HaapiCommand.swift: four levels under the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/haapi")
    }()

    /// How a run ended.
    public struct Run: Sendable {
        /// The exit status.
        public let status: Int32
        /// Standard output.
        public let stdout: String
        /// Standard error.
        public let stderr: String
        /// Wall time.
        public let seconds: Double
        /// Whether the run had to be stopped at its time limit.
        public let timedOut: Bool

        /// A run's outcome.
        public init(status: Int32, stdout: String, stderr: String, seconds: Double, timedOut: Bool = false) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
            self.seconds = seconds
            self.timedOut = timedOut
        }
    }

    /// Why a run could not happen.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "the haapi binary is missing at \(HaapiCommand.binary.path): run `swift build --build-tests` first"
        }
    }

    /// A temporary directory, removed by the caller.
    public static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Throws ``Missing`` when the binary is not built.
    public static func requireBinary() throws {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else { throw Missing() }
    }

    /// `haapi ARGUMENTS`, not yet started: standard input from /dev/null, `HAAPI_HOME` set to
    /// `home/home`, `BROWSER=true` unless `environment` says otherwise, output where the caller says.
    public static func process(
        _ arguments: [String], home: URL, environment extra: [String: String] = [:], stdout: FileHandle, stderr: FileHandle
    ) -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HAAPI_HOME"] = home.appendingPathComponent("home").path
        environment["BROWSER"] = "true"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        return process
    }

    /// Runs `haapi ARGUMENTS` as ``process(_:home:environment:stdout:stderr:)`` makes it, with a
    /// time limit. With `typed`, it runs in a terminal of its own (util-linux `script`), as a
    /// person runs it, and `typed` is what they type: both outputs are then the terminal's, in
    /// ``Run/stderr``.
    public static func run(
        _ arguments: [String], home: URL, timeout: Double = 60, environment extra: [String: String] = [:], typed: String? = nil
    ) throws -> Run {
        try requireBinary()
        var environment: [String: String?] = ["HAAPI_HOME": home.appendingPathComponent("home").path, "BROWSER": "true"]
        for (name, value) in extra { environment[name] = value }
        guard let typed else {
            let outcome = try Subprocess.run(binary, arguments, environment: environment, timeout: timeout)
            return Run(
                status: outcome.status, stdout: outcome.output, stderr: outcome.errors, seconds: outcome.seconds, timedOut: outcome.timedOut
            )
        }
        let command = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let outcome = try Subprocess.run(
            "/usr/bin/script", ["--quiet", "--return", "--command", command, "/dev/null"], environment: environment,
            input: Data(typed.utf8),
            timeout: timeout)
        return Run(
            status: outcome.status, stdout: "", stderr: outcome.output + outcome.errors, seconds: outcome.seconds,
            timedOut: outcome.timedOut)
    }
}

extension HaapiCommand {
    /// A `haapi` process made by ``prepare(_:home:environment:)``, its output going to two files.
    public struct Launched {
        public let process: Process
        let out: URL
        let err: URL

        /// The file its standard error goes to.
        public var standardErrorFile: URL { err }
        /// What it has written to standard error so far.
        public func standardError() throws -> String { try String(contentsOf: err, encoding: .utf8) }
        /// What it has written to standard output so far.
        public func standardOutput() throws -> String { try String(contentsOf: out, encoding: .utf8) }
    }

    /// `haapi ARGUMENTS`, not yet started, its output going to files in `home`.
    public static func prepare(_ arguments: [String], home: URL, environment: [String: String] = [:]) throws -> Launched {
        let name = UUID().uuidString
        let out = home.appendingPathComponent("haapi-\(name).out")
        let err = home.appendingPathComponent("haapi-\(name).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = process(
            arguments, home: home, environment: environment, stdout: try FileHandle(forWritingTo: out),
            stderr: try FileHandle(forWritingTo: err))
        return Launched(process: process, out: out, err: err)
    }

    /// Waits for started processes (killing any still running after `timeout` seconds) and reads what they wrote.
    public static func collect(_ launched: [Launched], timeout: Double = 120) throws -> [Run] {
        let start = Date()
        return try launched.map { run in
            while run.process.isRunning && Date().timeIntervalSince(start) < timeout { usleep(20_000) }
            let timedOut = run.process.isRunning
            if timedOut { kill(run.process.processIdentifier, SIGKILL) }
            run.process.waitUntilExit()
            return Run(
                status: run.process.terminationStatus, stdout: try String(contentsOf: run.out, encoding: .utf8),
                stderr: try run.standardError(), seconds: Date().timeIntervalSince(start), timedOut: timedOut)
        }
    }

    /// What ``atOnce(holding:processes:_:home:environment:tasks:joined:_:)``'s processes and tasks ended with.
    public struct AtOnce: Sendable {
        /// The runs of `haapi`, in launch order.
        public var processes: [Run]
        /// The tasks' results.
        public var tasks: [Result<String, any Error>]
    }

    /// Callers of one session that ask at once: holds `lock` (the session's, as a process
    /// refreshing would) while `processes` runs of `haapi ARGUMENTS --log-level debug` and
    /// `tasks` calls start, until every process logs that it waits for the lock and every task
    /// has begun its call; then runs `joined`, and lets them all go together and waits for
    /// every one.
    ///
    /// A task begun is not yet a task waiting: when the tasks call an actor (a `TokenSession`),
    /// `joined` makes a call of its own on it, which the actor runs after each task's first step.
    public static func atOnce(
        holding lock: any StorageLock, processes: Int, _ arguments: [String], home: URL, environment: [String: String] = [:], tasks: Int,
        joined: @escaping @Sendable () async throws -> Void = {}, _ call: @escaping @Sendable () async throws -> String
    ) async throws -> AtOnce {
        try requireBinary()
        var launched: [Launched] = []
        let results = LockedValue<[Result<String, any Error>]>([])
        let begun = LockedValue(0)
        let group = DispatchGroup()
        try await lock.withLock(timeout: 10, whileWaiting: nil) {
            for _ in 0..<tasks {
                group.enter()
                Task {
                    begun.withLock { $0 += 1 }
                    let result: Result<String, any Error>
                    do { result = .success(try await call()) } catch { result = .failure(error) }
                    results.withLock { $0.append(result) }
                    group.leave()
                }
            }
            for _ in 0..<processes {
                let run = try prepare(arguments + ["--log-level", "debug"], home: home, environment: environment)
                try run.process.run()
                launched.append(run)
            }
            // Every process has read the tokens it had and waits for the lock held here, and
            // every task has begun (on a loaded machine a task may start seconds after it was made).
            let deadline = Date().addingTimeInterval(60)
            while try launched.filter({ try $0.standardError().contains("waiting for the lock of") }).count < processes
                || begun.withLock({ $0 }) < tasks, Date() < deadline
            {
                try await Task.sleep(for: .milliseconds(50))
            }
            try await joined()
        }
        let deadline = Date().addingTimeInterval(60)
        while launched.contains(where: { $0.process.isRunning }), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let runs = try collect(launched, timeout: 1)
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
        return AtOnce(processes: runs, tasks: results.withLock { $0 })
    }
}
