import Foundation

/// Opens a URL in a browser: `--browser-command CMD` (the URL as its last argument), else
/// `$BROWSER`, else `xdg-open`, else `open`.
struct BrowserOpener {
    let command: String?

    /// A browser command that was started.
    struct Launched {
        /// What was run, without the URL.
        let command: String
        let process: Process

        /// The exit status once the command has ended with a failure; `nil` while it runs or after success.
        var failureStatus: Int32? {
            process.isRunning || process.terminationStatus == 0 ? nil : process.terminationStatus
        }
    }

    /// Starts the browser; `nil` if nothing could be.
    func open(_ url: URL) -> Launched? {
        var candidates: [[String]] = []
        if let command, !command.isEmpty { candidates.append(Self.words(command)) }
        else {
            if let browser = ProcessInfo.processInfo.environment["BROWSER"], !browser.isEmpty {
                candidates.append(contentsOf: browser.split(separator: ":").map { Self.words(String($0)) })
            }
            candidates.append(["xdg-open"])
            candidates.append(["open"])
        }
        for words in candidates where !words.isEmpty {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = words + [url.absoluteString]
            process.standardOutput = FileHandle.standardError
            do {
                try process.run()
                if command == nil {
                    // A missing program makes env exit 127 at once; then try the next one.
                    Thread.sleep(forTimeInterval: 0.3)
                    if !process.isRunning && process.terminationStatus == 127 { continue }
                }
                return Launched(command: words.joined(separator: " "), process: process)
            } catch {
                continue
            }
        }
        return nil
    }

    static func words(_ command: String) -> [String] {
        command.split(separator: " ").map(String.init)
    }
}
