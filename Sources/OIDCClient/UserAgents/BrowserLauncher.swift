// Desktop and terminal apps only: Process (the browser) and a loopback listener do not exist on iOS.
#if os(macOS) || os(Linux) || os(Windows)
    import OAuthCore
    import Foundation

    /// Opens a URL in a browser, without waiting for the user.
    public protocol BrowserLauncher: Sendable {
        /// Starts the browser on `url`.
        /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.userAgentFailed` when no browser could be started.
        func open(_ url: URL) async throws
    }

    /// Starts the system browser, or a command the caller gives, as a child process with the URL
    /// as its last argument: the command when one is given, else each entry of `$BROWSER`
    /// (colon-separated, as `sensible-browser` reads it), else `xdg-open`, else `open` (macOS).
    ///
    /// A command is how a terminal user picks a browser, and how tests pass a headless one.
    public struct SystemBrowserLauncher: BrowserLauncher {
        /// The program and its leading arguments, or `nil` for the system's default browser.
        public var command: [String]?
        /// Environment the defaults are read from (`BROWSER`).
        public var environment: [String: String]

        /// A launcher for `command` (program and leading arguments), or for the default browser.
        public init(command: [String]? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
            self.command = command.flatMap { $0.isEmpty ? nil : $0 }
            self.environment = environment
        }

        /// A launcher for a command line such as `"firefox --private-window"`, split at spaces;
        /// `nil` (or an empty line) for the default browser.
        public init(commandLine: String?) {
            self.init(command: commandLine.map(Self.words))
        }

        /// The commands tried, in order.
        public var candidates: [[String]] {
            if let command { return [command] }
            var candidates: [[String]] = []
            if let browser = environment["BROWSER"], !browser.isEmpty {
                candidates += browser.split(separator: ":").map { Self.words(String($0)) }.filter { !$0.isEmpty }
            }
            return candidates + [["xdg-open"], ["open"]]
        }

        /// Starts the browser on `url` (``launch(_:)``) without waiting for it.
        /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.userAgentFailed` when no browser could be started.
        public func open(_ url: URL) async throws {
            _ = try await launch(url)
        }

        /// Whether `url` may be handed to a browser: `https`, or `http` to a loopback address. A
        /// server could otherwise name `file:`, `javascript:` or an app's scheme, and `xdg-open`
        /// would open it.
        public static func isOpenable(_ url: URL) -> Bool {
            switch url.scheme?.lowercased() {
            case "https": return url.host?.isEmpty == false
            case "http": return Loopback.isHost(url.host)
            default: return false
            }
        }

        /// Starts the browser on `url` and returns it, so that a caller waiting for the user can
        /// notice a browser command that failed (it will not come back).
        /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.userAgentFailed` when no browser could be started,
        ///   or when `url` is not one to hand a browser (``isOpenable(_:)``).
        public func launch(_ url: URL) async throws -> LaunchedBrowser {
            guard Self.isOpenable(url) else {
                throw OIDCError(
                    .userAgentFailed, "refusing to open \(url.scheme ?? "a") URL: only https, and http to a loopback address, are opened")
            }
            var failures: [String] = []
            for words in candidates {
                // Looked up here rather than through env: a program that is not installed is then
                // never started, and prints nothing of its own ("env: 'xdg-open': No such file").
                guard let program = Self.executable(words[0]) else {
                    failures.append("\(words[0]): not found")
                    continue
                }
                let process = Process()
                process.executableURL = program
                process.arguments = Array(words.dropFirst()) + [url.absoluteString]
                // The browser's chatter must not mix with a terminal app's output.
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                do {
                    try process.run()
                } catch {
                    failures.append("\(words[0]): \(error.localizedDescription)")
                    continue
                }
                // A launcher that finds no browser (xdg-open on a machine without one) fails at once;
                // then the next one is tried.
                try? await Task.sleep(seconds: 0.2)
                if !process.isRunning, process.terminationStatus != 0 {
                    failures.append("\(words[0]): exited with status \(process.terminationStatus)")
                    continue
                }
                return LaunchedBrowser(command: words.joined(separator: " "), process: process)
            }
            throw OIDCError(.userAgentFailed, "no browser could be started (\(failures.joined(separator: "; ")))")
        }

        /// The executable a command names: a path as given, else the first match on `PATH`.
        static func executable(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
            let files = FileManager.default
            if name.contains("/") { return files.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil }
            let path = environment["PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/bin:/usr/bin:/bin"
            for folder in path.split(separator: ":") where !folder.isEmpty {
                let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                if files.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                    files.isExecutableFile(atPath: candidate.path)
                {
                    return candidate
                }
            }
            return nil
        }

        static func words(_ line: String) -> [String] {
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        }
    }

    /// A browser command that was started by ``SystemBrowserLauncher/launch(_:)``.
    public struct LaunchedBrowser: @unchecked Sendable {
        /// What was run, without the URL.
        public let command: String
        // Process is thread-safe for the reads made here (isRunning, terminationStatus).
        let process: Process

        /// The exit status once the command has ended with a failure; `nil` while it runs or after success.
        public var failureStatus: Int32? {
            process.isRunning || process.terminationStatus == 0 ? nil : process.terminationStatus
        }
    }
#endif
