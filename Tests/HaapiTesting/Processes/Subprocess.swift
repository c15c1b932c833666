import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Another program run to its end: the one way the tests run a program (openssl, secret-tool,
/// a script, the `haapi` binary). Its output goes to files, not pipes, so a program that writes
/// much to both streams never blocks on the one nobody reads.
public enum Subprocess {
    /// How a run ended.
    public struct Outcome: Sendable {
        /// The exit status (the signal's number when it was killed).
        public let status: Int32
        /// Standard output.
        public let stdout: Data
        /// Standard error.
        public let stderr: Data
        /// Wall time, in seconds.
        public let seconds: Double
        /// Whether it had to be stopped at its time limit.
        public let timedOut: Bool

        /// Standard output as UTF-8 text.
        public var output: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        public var errors: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments` and waits for its end, at most `timeout` seconds: then
    /// it is interrupted, and killed half a second later if it still runs.
    /// - Parameters:
    ///   - environment: variables set over this process's own (`nil` values are removed).
    ///   - input: its standard input (else `/dev/null`).
    ///   - directory: its working directory (else this process's).
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String?] = [:], input: Data? = nil, directory: URL? = nil,
        timeout: Double = 60
    ) throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outFile = folder.appendingPathComponent("out")
        let errFile = folder.appendingPathComponent("err")
        let inFile = folder.appendingPathComponent("in")
        for file in [outFile, errFile] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let stdout = try FileHandle(forWritingTo: outFile)
        let stderr = try FileHandle(forWritingTo: errFile)
        var stdin = FileHandle.nullDevice
        if let input {
            try input.write(to: inFile)
            stdin = try FileHandle(forReadingFrom: inFile)
        }
        defer {
            try? stdout.close()
            try? stderr.close()
            if input != nil { try? stdin.close() }
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        process.environment = variables
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        let start = Date()
        try process.run()
        let timedOut = ended.wait(timeout: .now() + timeout) == .timedOut
        if timedOut {
            process.interrupt()
            if ended.wait(timeout: .now() + 0.5) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                ended.wait()
            }
        }
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: try Data(contentsOf: outFile), stderr: try Data(contentsOf: errFile),
            seconds: Date().timeIntervalSince(start), timedOut: timedOut)
    }

    /// Runs the program at `path` (see ``run(_:_:environment:input:directory:timeout:)``).
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String?] = [:], input: Data? = nil, directory: URL? = nil,
        timeout: Double = 60
    ) throws -> Outcome {
        try run(URL(fileURLWithPath: path), arguments, environment: environment, input: input, directory: directory, timeout: timeout)
    }
}
