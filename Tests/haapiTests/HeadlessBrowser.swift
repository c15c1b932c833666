import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Chromium's headless shell, one process per page: screenshots and the DOM after the page's
/// scripts ran, for tests of HTML that `haapi` writes.
///
/// Each run gets a throw-away profile (`--user-data-dir` in a temporary directory, removed
/// afterwards) and a time limit, after which the browser is killed. Flags checked against
/// chromium-headless-shell 156 (Debian bookworm-security).
struct HeadlessBrowser: Sendable {
    /// The browser's executable.
    let executable: URL

    /// The browser named by `HAAPI_TEST_BROWSER` (Scripts/test.sh sets it: there, a missing
    /// browser is a failure, not a reason to skip).
    static var required: URL? {
        ProcessInfo.processInfo.environment["HAAPI_TEST_BROWSER"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
    }

    /// The browser on this machine, if any; see ``find(environment:)``.
    static let installed: HeadlessBrowser? = find()

    /// The first executable of: `HAAPI_TEST_BROWSER`, Debian's binaries in /usr/lib/chromium,
    /// then the usual names on `PATH`. Debian's binary comes before its /usr/bin wrapper, a
    /// shell script that runs it as a child: killing the wrapper at the time limit would
    /// leave the browser running.
    static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> HeadlessBrowser? {
        var candidates: [String] = []
        if let named = environment["HAAPI_TEST_BROWSER"], !named.isEmpty { candidates.append(named) }
        candidates += ["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/headless_shell"]
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for name in ["chromium-headless-shell", "headless_shell", "chromium", "chromium-browser", "google-chrome"] {
            candidates += path.map { "\($0)/\(name)" }
        }
        candidates.append("/usr/bin/chromium-headless-shell")
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map {
            HeadlessBrowser(executable: URL(fileURLWithPath: $0))
        }
    }

    /// The installed browser, or ``Failure/missing`` saying where it was looked for.
    static func require() throws -> HeadlessBrowser {
        guard let installed else { throw Failure.missing(named: required?.path) }
        return installed
    }

    /// Why a browser run gave no answer.
    enum Failure: Error, CustomStringConvertible {
        case missing(named: String?)
        case timedOut(arguments: [String], seconds: Double, stderr: String)
        case exited(status: Int32, arguments: [String], stderr: String)
        case noScreenshot(URL, stderr: String)
        case noProbeResult(page: URL, dom: String)
        case unreadableProbeResult(String)

        var description: String {
            switch self {
            case .missing(let named):
                "no headless Chromium (\(named.map { "HAAPI_TEST_BROWSER=\($0) is not executable" } ?? "looked in /usr/lib/chromium and PATH")): apt-get install chromium-headless-shell"
            case .timedOut(let arguments, let seconds, let stderr):
                "the browser did not finish in \(seconds) s and was killed: \(arguments.joined(separator: " "))\n\(stderr.suffix(2000))"
            case .exited(let status, let arguments, let stderr):
                "the browser exited with status \(status): \(arguments.joined(separator: " "))\n\(stderr.suffix(2000))"
            case .noScreenshot(let png, let stderr):
                "the browser wrote no screenshot to \(png.path)\n\(stderr.suffix(2000))"
            case .noProbeResult(let page, let dom):
                "the probe script added to \(page.lastPathComponent) wrote no result (did the page load?); DOM: \(dom.prefix(1000))"
            case .unreadableProbeResult(let text):
                "the probe's result is not the JSON it writes: \(text.prefix(1000))"
            }
        }
    }

    /// A message the page logged, from the browser's `--enable-logging=stderr` lines
    /// (`[…:INFO:CONSOLE:2] "text", source: file:///… (2)`). The log does not say whether it
    /// was `console.log` or `console.error`; an uncaught exception reads `Uncaught …`.
    struct ConsoleMessage: Sendable, CustomStringConvertible {
        let text: String
        let source: String

        var isUncaughtError: Bool { text.hasPrefix("Uncaught") }
        var description: String { "\(text) (\(source))" }

        static func parse(stderr: String) -> [ConsoleMessage] {
            stderr.split(separator: "\n").compactMap { line in
                guard let marker = line.range(of: ":CONSOLE"), let open = line[marker.upperBound...].range(of: "] \""),
                    let close = line.range(of: "\", source: ", options: .backwards), open.upperBound <= close.lowerBound
                else { return nil }
                return ConsoleMessage(text: String(line[open.upperBound..<close.lowerBound]), source: String(line[close.upperBound...]))
            }
        }
    }

    /// The flags of every run. `--virtual-time-budget` lets the page's timers run (up to two
    /// virtual seconds) before the screenshot or the DOM dump; `--hide-scrollbars` keeps the
    /// viewport its full width; a device scale factor of 1 makes one CSS pixel one PNG pixel.
    func arguments(profile: URL, width: Int, height: Int) -> [String] {
        [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)", "--virtual-time-budget=2000",
            "--enable-logging=stderr", "--v=0",
        ]
    }

    /// Writes a PNG of `url` as a `width`×`height` viewport shows it; returns what the page logged.
    @discardableResult
    func screenshot(url: URL, to png: URL, width: Int = 390, height: Int = 844, timeout: Double = 30) throws -> [ConsoleMessage] {
        try? FileManager.default.removeItem(at: png)
        let run = try run(width: width, height: height, timeout: timeout, ["--screenshot=\(png.path)", url.absoluteString])
        guard FileManager.default.fileExists(atPath: png.path) else { throw Failure.noScreenshot(png, stderr: run.stderr) }
        return ConsoleMessage.parse(stderr: run.stderr)
    }

    /// The DOM of `url` serialized after its load event and timers ran, and what it logged.
    func dumpDOM(url: URL, width: Int = 390, height: Int = 844, timeout: Double = 30) throws -> (dom: String, console: [ConsoleMessage]) {
        let run = try run(width: width, height: height, timeout: timeout, ["--dump-dom", url.absoluteString])
        return (run.stdout, ConsoleMessage.parse(stderr: run.stderr))
    }

    /// What ``inspect(page:width:height:)`` found in a page.
    struct PageReport: Sendable {
        /// `window.innerWidth` and `innerHeight`.
        let viewport: [Int]
        /// `document.documentElement.scrollWidth`: more than the viewport's width means sideways scrolling.
        let scrollWidth: Int
        /// Elements reaching past the viewport's left or right edge, as `tag#id.class left..right`.
        let tooWide: [String]
        /// The screen's items, and its fields, buttons and links, that are not seen: not
        /// rendered (`display: none`), of no size, `visibility: hidden` or transparent, as
        /// `tag.class: why`. The body of a closed `<details>` is hidden by design and left out.
        let hidden: [String]
        /// The screen's buttons, links, tabs and checkbox rows smaller than 44×44, as `tag.class W×H`.
        let small: [String]
        /// How each stack of the screen (`main.screen > section`) is laid out.
        struct StackReport: Decodable, Sendable {
            /// The section's class: `messages`, `content` or `links`.
            let name: String
            /// The space between consecutive elements, in CSS pixels (points).
            let gaps: [Int]
            /// Each element's distance from the section's content box: left, right.
            let sides: [[Int]]
        }
        /// The stacks, in order.
        let stacks: [StackReport]
        /// The navigation bar's title (`nil`: no bar).
        let navigationTitle: String?
        /// The way out's size, width and height (empty: none).
        let leaveSize: [Int]
        /// Errors the page met: uncaught exceptions, rejected promises, `console.error` calls,
        /// resources that failed to load (caught in the page), and uncaught exceptions the
        /// browser logged (caught even if the probe itself did not run first).
        let errors: [String]
        /// Everything the page logged to the console.
        let console: [ConsoleMessage]
        /// The DOM after the scripts ran, without the probe's result.
        let dom: String
    }

    /// The probe's result is written into this element, URL-encoded (so the DOM's escaping
    /// of `&`, `<` and `>` cannot change it).
    static let probeResultID = "haapi-probe-result"

    /// Runs in `<head>` before the page's own scripts: collects every error from there on.
    /// Capturing `error` on `window` sees failed `<img>`/`<link>`/`<script>` loads, which do
    /// not bubble, as well as uncaught exceptions.
    static let probeHead = """
        <script data-haapi-probe>(function () {
          var errors = window.__haapiErrors = [];
          // After the load event, the result in the DOM is written again with each new error.
          function add(error) { errors.push(error); if (window.__haapiWrite) window.__haapiWrite(); }
          window.addEventListener('error', function (event) {
            var target = event.target;
            if (target && target !== window && target.tagName) {
              add('failed to load <' + target.tagName.toLowerCase() + '> ' + (target.currentSrc || target.src || target.href || ''));
            } else {
              add(String(event.message) + ' at ' + event.filename + ':' + event.lineno);
            }
          }, true);
          window.addEventListener('unhandledrejection', function (event) { add('unhandled rejection: ' + String(event.reason)); });
          var original = console.error;
          console.error = function () {
            add('console.error: ' + Array.prototype.map.call(arguments, String).join(' '));
            return original.apply(console, arguments);
          };
        })();</script>
        """

    /// Runs after the load event: measures every element against the viewport and writes the
    /// findings into the DOM for `--dump-dom` to carry out; again after each later error (a
    /// timer's, within the virtual time budget), measuring afresh.
    static let probeTail = """
        <script data-haapi-probe>window.addEventListener('load', function () { setTimeout(window.__haapiWrite = function () {
          function describe(node) {
            var name = node.tagName.toLowerCase() + (node.id ? '#' + node.id : '');
            var classes = typeof node.className === 'string' ? node.className.trim() : '';
            return classes ? name + '.' + classes.split(/\\s+/).join('.') : name;
          }
          var width = window.innerWidth, tooWide = [];
          document.querySelectorAll('body *').forEach(function (node) {
            if (node.closest('[data-haapi-probe]')) return;
            var box = node.getBoundingClientRect();
            if (box.width === 0 && box.height === 0) return;
            if (box.right > width + 0.5 || box.left < -0.5) tooWide.push(describe(node) + ' ' + Math.round(box.left) + '..' + Math.round(box.right));
          });
          // What the screen must show and does not: an item, or a field, button or link in the
          // screen, that takes no room, is invisible or transparent (not the body of a closed <details>).
          var hidden = [];
          document.querySelectorAll('main.screen .item, main.screen input:not([type=hidden]), main.screen button, main.screen select, main.screen textarea, main.screen a[href]').forEach(function (node) {
            if (node.closest('details:not([open]) > :not(summary)')) return;
            var box = node.getBoundingClientRect(), style = getComputedStyle(node), opacity = 1;
            for (var up = node; up && up.nodeType === 1; up = up.parentElement) opacity *= parseFloat(getComputedStyle(up).opacity);
            var why = node.getClientRects().length === 0 ? 'not rendered' : box.width < 1 || box.height < 1 ? 'no size (' + box.width + '×' + box.height + ')'
              : style.visibility !== 'visible' ? 'visibility ' + style.visibility : opacity < 0.05 ? 'opacity ' + opacity : '';
            if (why) hidden.push(describe(node) + ': ' + why);
          });
          // What a finger taps: each button, link, tab and checkbox row of the screen, at least 44×44 (Apple's HIG).
          var small = [];
          document.querySelectorAll('main.screen button, main.screen a[href], main.screen .item-checkbox').forEach(function (node) {
            if (node.closest('details:not([open]) > :not(summary)') || node.getClientRects().length === 0) return;
            var box = node.getBoundingClientRect();
            if (box.width < 43.5 || box.height < 43.5) small.push(describe(node) + ' ' + Math.round(box.width) + '×' + Math.round(box.height));
          });
          // How the screen's stacks are laid out: per section, the gaps between its elements and
          // each element's distance from the section's content box, left and right.
          var stacks = [];
          document.querySelectorAll('main.screen > section').forEach(function (section) {
            var box = section.getBoundingClientRect(), style = getComputedStyle(section);
            var inner = { left: box.left + parseFloat(style.paddingLeft), right: box.right - parseFloat(style.paddingRight) };
            var children = Array.prototype.filter.call(section.children, function (child) { return child.getClientRects().length > 0; });
            var gaps = [], sides = [];
            children.forEach(function (child, index) {
              var rect = child.getBoundingClientRect();
              sides.push([Math.round(rect.left - inner.left), Math.round(inner.right - rect.right)]);
              if (index > 0) gaps.push(Math.round(rect.top - children[index - 1].getBoundingClientRect().bottom));
            });
            stacks.push({ name: section.className, gaps: gaps, sides: sides });
          });
          var bar = document.querySelector('.navigation-bar .title');
          var leave = document.querySelector('.navigation-bar .leave');
          var leaveBox = leave ? leave.getBoundingClientRect() : null;
          var result = document.getElementById('\(probeResultID)') || document.createElement('pre');
          result.id = '\(probeResultID)';
          result.setAttribute('data-haapi-probe', '');
          result.textContent = encodeURIComponent(JSON.stringify({
            viewport: [window.innerWidth, window.innerHeight], scrollWidth: document.documentElement.scrollWidth,
            tooWide: tooWide, hidden: hidden, small: small, stacks: stacks,
            navigationTitle: bar ? bar.textContent : null, leaveSize: leaveBox ? [Math.round(leaveBox.width), Math.round(leaveBox.height)] : [],
            errors: window.__haapiErrors || ['the probe in <head> did not run']
          }));
          document.body.appendChild(result);
        }, 0); });</script>
        """

    /// Loads a copy of `page` with the probe scripts added (written next to it, so relative
    /// links still resolve, and removed afterwards) and reports what they found.
    func inspect(page: URL, width: Int = 390, height: Int = 844) throws -> PageReport {
        let html = try String(contentsOf: page, encoding: .utf8)
        let copy = page.deletingLastPathComponent().appendingPathComponent(".probe-\(UUID().uuidString)-\(page.lastPathComponent)")
        try Data(Self.addingProbe(to: html).utf8).write(to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let (dom, console) = try dumpDOM(url: copy, width: width, height: height)

        let start = "<pre id=\"\(Self.probeResultID)\" data-haapi-probe=\"\">"
        guard let open = dom.range(of: start), let close = dom[open.upperBound...].range(of: "</pre>") else {
            throw Failure.noProbeResult(page: page, dom: dom)
        }
        let encoded = String(dom[open.upperBound..<close.lowerBound])
        struct Found: Decodable {
            let viewport: [Int]
            let scrollWidth: Int
            let tooWide: [String]
            let hidden: [String]
            let small: [String]
            let stacks: [PageReport.StackReport]
            let navigationTitle: String?
            let leaveSize: [Int]
            let errors: [String]
        }
        guard let json = encoded.removingPercentEncoding, let found = try? JSONDecoder().decode(Found.self, from: Data(json.utf8)) else {
            throw Failure.unreadableProbeResult(encoded)
        }
        // An exception thrown before the probe's first script ran is only in the browser's log.
        let uncaught = console.filter(\.isUncaughtError).map { "logged by the browser: \($0)" }
        var pageDOM = dom
        pageDOM.removeSubrange(open.lowerBound..<close.upperBound)
        return PageReport(
            viewport: found.viewport, scrollWidth: found.scrollWidth, tooWide: found.tooWide, hidden: found.hidden, small: found.small,
            stacks: found.stacks,
            navigationTitle: found.navigationTitle, leaveSize: found.leaveSize,
            errors: found.errors + (found.errors.isEmpty ? uncaught : []), console: console, dom: pageDOM)
    }

    /// `html` with ``probeHead`` first in `<head>` (else right after the doctype, which must
    /// stay first to keep the page out of quirks mode) and ``probeTail`` at the end.
    static func addingProbe(to html: String) -> String {
        var result = html
        let insertion: String.Index
        if let head = result.range(of: "<head", options: .caseInsensitive), let end = result[head.upperBound...].firstIndex(of: ">") {
            insertion = result.index(after: end)
        } else if let doctype = result.range(of: "<!doctype", options: [.caseInsensitive, .anchored]),
            let end = result[doctype.upperBound...].firstIndex(of: ">")
        {
            insertion = result.index(after: end)
        } else {
            insertion = result.startIndex
        }
        result.insert(contentsOf: probeHead, at: insertion)
        // After `</html>`, the parser still puts it at the end of <body>.
        return result + probeTail
    }

    /// The outcome of one browser process.
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs the browser with the common flags and `extra`, in a fresh profile, killing it
    /// (and its helper processes, when it leads a process group) after `timeout` seconds.
    func run(width: Int, height: Int, timeout: Double, _ extra: [String]) throws -> Run {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout")
        let err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)

        let arguments = arguments(profile: scratch.appendingPathComponent("profile"), width: width, height: height) + extra
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        // Files, not pipes: a DOM dump larger than a pipe's buffer would block an unread pipe.
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let start = Date()
        try process.run()
        while process.isRunning && Date().timeIntervalSince(start) < timeout { usleep(20_000) }
        let timedOut = process.isRunning
        if timedOut {
            let pid = process.processIdentifier
            kill(getpgid(pid) == pid ? -pid : pid, SIGKILL)
        }
        process.waitUntilExit()
        let stdout = try String(contentsOf: out, encoding: .utf8)
        let stderr = try String(contentsOf: err, encoding: .utf8)
        if timedOut { throw Failure.timedOut(arguments: arguments, seconds: timeout, stderr: stderr) }
        guard process.terminationStatus == 0 else {
            throw Failure.exited(status: process.terminationStatus, arguments: arguments, stderr: stderr)
        }
        return Run(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}

/// The colours of a PNG, counted by Scripts/png-colours.py (standard-library Python: no
/// image package to install).
struct PNGColours: Decodable, Sendable {
    let width: Int
    let height: Int
    let distinctColours: Int
    /// RRGGBB of the most common colour.
    let dominantColour: String
    /// The share of all pixels that are the most common colour.
    let dominantFraction: Double
    let match: Match?

    struct Match: Decodable, Sendable {
        let colour: String
        let tolerance: Int
        /// The pixels whose every channel is within `tolerance` of `colour`.
        let pixels: Int
    }

    /// Why the script gave no answer.
    struct Failure: Error, CustomStringConvertible {
        let png: URL
        let status: Int32
        let output: String
        var description: String { "Scripts/png-colours.py \(png.path) failed (status \(status)): \(output)" }
    }

    static let script: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Scripts/png-colours.py")

    /// Counts the colours of `png`, and the pixels near `colour` (RRGGBB) if given.
    static func of(_ png: URL, near colour: String? = nil, tolerance: Int = 8) throws -> PNGColours {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, png.path] + (colour.map { ["--colour", $0, "--tolerance", String(tolerance)] } ?? [])
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The JSON is one short line: reading to the end before waiting cannot block.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let colours = try? JSONDecoder().decode(PNGColours.self, from: printed) else {
            throw Failure(png: png, status: process.terminationStatus, output: String(decoding: printed + complaint, as: UTF8.self))
        }
        return colours
    }
}
