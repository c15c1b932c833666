import Foundation
import HaapiTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The programs of a keyring session.
enum KeyringTools {
    /// dbus-daemon, gnome-keyring-daemon and secret-tool, when all are installed.
    static let found: (dbus: String, keyring: String, secretTool: String)? = {
        func find(_ name: String) -> String? {
            ["/usr/bin/", "/usr/local/bin/"].map { $0 + name }.first(where: FileManager.default.isExecutableFile)
        }
        guard let dbus = find("dbus-daemon"), let keyring = find("gnome-keyring-daemon"), let tool = find("secret-tool") else { return nil }
        return (dbus, keyring, tool)
    }()
}

/// Issue 38, item 12: a profile's secrets in the keyring, against a real GNOME Keyring in a D-Bus
/// session of the test's own, checked with libsecret's `secret-tool` (nobody here wrote either).
/// `Scripts/test.sh` installs them and sets `HAAPI_TEST_KEYRING`, so in CI the test runs or fails.
@Suite(
    .serialized, .ownThreads, .enabled(if: KeyringTools.found != nil || ProcessInfo.processInfo.environment["HAAPI_TEST_KEYRING"] != nil))
struct CLIKeyringTests {
    static var tools: (dbus: String, keyring: String, secretTool: String)? { KeyringTools.found }

    /// A D-Bus session bus and an unlocked GNOME Keyring on it (a keyring folder of its own),
    /// both stopped by ``stop()``.
    final class KeyringSession: @unchecked Sendable {
        /// How long a new daemon may take to store a first item, in seconds.
        static let readinessWait: TimeInterval = 120
        /// dbus-daemon's session configuration without its service directories.
        static let busConfiguration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:tmpdir=/tmp</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let address: String
        let busProcess: pid_t
        let directory: URL

        init(directory: URL) throws {
            let tools = try #require(
                CLIKeyringTests.tools, "HAAPI_TEST_KEYRING is set: dbus-daemon, gnome-keyring-daemon and secret-tool must be installed")
            self.directory = directory
            let runtime = directory.appendingPathComponent("run")
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // Both daemons fork and live on: started with posix_spawn and waited for as the
            // starters exit (Foundation's Process waits for every holder of its descriptors).
            let printed = directory.appendingPathComponent("bus.txt").path
            // A session bus without service activation: a probe sent before the test's daemon owns
            // the Secret Service name must fail, not start a second daemon (with this process's
            // HOME and a locked login keyring) that takes the name and never answers.
            let configuration = directory.appendingPathComponent("bus.conf")
            try Data(Self.busConfiguration.utf8).write(to: configuration)
            let bus = try Self.spawnAndWait(
                tools.dbus, ["--config-file=\(configuration.path)", "--fork", "--print-address=1", "--print-pid=1"], stdout: printed)
            let lines = ((try? String(contentsOfFile: printed, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            guard bus == 0, lines.count >= 2, lines[0].hasPrefix("unix:"), let pid = pid_t(lines[1]) else {
                Issue.record("dbus-daemon did not start: status \(bus), printed \(lines)")
                throw CancellationError()
            }
            address = lines[0]
            busProcess = pid

            let password = directory.appendingPathComponent("keyring-password").path
            try Data("test-keyring-password".utf8).write(to: URL(fileURLWithPath: password))
            let keyring = try Self.spawnAndWait(
                tools.keyring, ["--unlock", "--components=secrets"], stdin: password,
                environment: environment(["HOME": directory.appendingPathComponent("keyring-home").path]))
            // Ready when an item can be stored and found again. A first start makes the keyring,
            // which takes a while on two busy cores: the wait is long, a ready daemon ends it at once.
            let start = Date()
            var lastProbe = "none ran"
            while keyring == 0 && Date().timeIntervalSince(start) < Self.readinessWait {
                do {
                    let probe = try secretTool(["store", "--label=probe", "test", "probe"], input: "ready")
                    if probe.status == 0 { return }
                    lastProbe = "status \(probe.status): \(probe.errors)"
                } catch {
                    lastProbe = "\(error)"
                }
                usleep(100_000)
            }
            stop()
            Issue.record(
                "gnome-keyring-daemon (status \(keyring)) did not answer on \(address) in \(Int(Self.readinessWait)) s; last probe: \(lastProbe)"
            )
            throw CancellationError()
        }

        /// Runs `path ARGUMENTS` with nothing of this process but `stdin` and `stdout` (files) and
        /// waits for it to exit; returns its wait status.
        static func spawnAndWait(
            _ path: String, _ arguments: [String], stdin: String = "/dev/null", stdout: String = "/dev/null",
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) throws -> Int32 {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            guard let closeFrom = CLITests.addCloseFrom, closeFrom(&actions, 3) == 0 else { throw CocoaError(.executableLoad) }
            let argv = ([path] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for pointer in argv + envp { free(pointer) } }
            var pid = pid_t()
            guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { throw CocoaError(.executableLoad) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return status
        }

        /// The process environment with this bus (and `extra`).
        func environment(_ extra: [String: String] = [:]) -> [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = address
            environment["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("run").path
            environment["HAAPI_SECRET_STORE"] = nil
            environment.merge(extra) { _, new in new }
            return environment
        }

        /// `secret-tool ARGUMENTS` on this bus, `input` on its standard input.
        func secretTool(_ arguments: [String], input: String? = nil) throws -> Subprocess.Outcome {
            // A keyring that wants to ask for a password would wait for ever: 10 s at most.
            try Subprocess.run(
                try #require(CLIKeyringTests.tools).secretTool, arguments,
                environment: environment().mapValues { $0 }.merging(["HAAPI_SECRET_STORE": nil]) { $1 }, input: input.map { Data($0.utf8) },
                timeout: 10)
        }

        /// `secret-tool` could not ask the keyring (it says why on standard error): an answer
        /// that is neither "found" nor "not there".
        struct Unanswered: Error, CustomStringConvertible {
            let arguments: [String]
            let run: Subprocess.Outcome
            var description: String {
                "secret-tool \(arguments.joined(separator: " ")): status \(run.status)\(run.timedOut ? " (timed out)" : ""): \(run.errors)"
            }
        }

        /// The keyring's secret of the profile folder `folder`'s item `key`, or `nil` when the
        /// keyring has no such item. A keyring that cannot be asked throws: "not there" must be
        /// the keyring's answer, not a failure to reach it. (`lookup` exits 1 in both cases, and
        /// writes on standard error only when it could not ask.)
        func item(_ folder: URL, _ key: String) throws -> String? {
            let arguments = ["lookup", "application", "swift-haapi", "profile", folder.path, "key", key]
            let found = try secretTool(arguments)
            switch (found.status, found.errors.isEmpty, found.timedOut) {
            case (0, true, false): return found.output
            case (1, true, false): return nil
            default: throw Unanswered(arguments: arguments, run: found)
            }
        }

        /// The profile folders that have items in the keyring: the `profile` attribute of every
        /// item of swift-haapi. `secret-tool search` writes the attributes it found on standard
        /// error (the secrets and labels on standard output), and exits 0 whether or not it found any.
        func profilesWithItems() throws -> [String] {
            let arguments = ["search", "--all", "application", "swift-haapi"]
            let found = try secretTool(arguments)
            let attributes = found.errors.split(separator: "\n").filter { $0.hasPrefix("attribute.") }
            guard found.status == 0, !found.timedOut, attributes.count == found.errors.split(separator: "\n").count else {
                throw Unanswered(arguments: arguments, run: found)
            }
            let prefix = "attribute.profile = "
            return attributes.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        }

        /// Stops the bus; the keyring daemon leaves with it. (SIGKILL: a daemon spawned from
        /// the test process inherits its blocked signals, SIGTERM among them.)
        func stop() {
            kill(busProcess, SIGKILL)
        }
    }

    /// A folder, a keyring session, `haapi server` and the demo user's answers: what each test starts with.
    struct World {
        let directory: URL
        let keyring: KeyringSession
        let server: CLITests.ServerProcess
        let secret: String
        let answers: String

        init() throws {
            try HaapiCommand.requireBinary()
            directory = try CLITests.temporaryDirectory()
            keyring = try KeyringSession(directory: directory)
            server = try CLITests.ServerProcess(directory: directory)
            secret = try #require(server.secret(of: "haapi-secret"))
            answers = try CLITests.write(
                #"{"choices": ["username-password", "Accept"], "fields": {"userName": "demo", "password": "Password1"}}"#, to: directory)
        }

        func stop() {
            server.stop()
            keyring.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test func aLoginKeepsItsSecretsInTheKeyringAndEveryCommandFindsThem() throws {
        let world = try World()
        defer { world.stop() }
        let (directory, keyring, server, secret, answers) = (world.directory, world.keyring, world.server, world.secret, world.answers)
        let environment = keyring.environment()
        func haapi(_ arguments: [String], _ environment: [String: String] = environment) throws -> HaapiCommand.Run {
            try CLITests.haapi(arguments, home: directory, environment: environment)
        }
        let folder = directory.appendingPathComponent("home/profiles/default")

        // The first login chooses the keyring by itself: the tokens and the client secret are
        // there, and the profile's folder holds neither.
        let login = try haapi([
            "login", "--issuer", server.issuer, "--client-id", "haapi-secret", "--client-secret", secret, "--answers", answers,
        ])
        #expect(login.status == 0 && login.stderr.contains("secrets in the keyring (Secret Service)"), "\(login.stderr)")
        let tokens = try #require(try keyring.item(folder, "tokens.json"), "no tokens in the keyring")
        #expect(tokens.contains("\"accessToken\"") && tokens.contains("\"dpopKey\""))
        #expect(try keyring.item(folder, "client-secret") == secret)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("tokens.json").path))
        let config = try String(contentsOf: folder.appendingPathComponent("config.json"), encoding: .utf8)
        #expect(
            !config.contains(secret) && !config.contains("clientSecret") && config.contains("\"secretStore\" : \"keyring\""), "\(config)")

        // status says where; token, refresh (with the secret from the keyring) and api use them.
        let status = try haapi(["status"])
        #expect(status.status == 0 && status.stdout.contains("secrets:  the keyring (Secret Service)"), "\(status.stdout)")
        let json = try haapi(["status", "--json"])
        #expect(json.stdout.contains("\"secretStore\" : \"keyring\""), "\(json.stdout)")
        let token = try haapi(["token"])
        #expect(token.status == 0 && tokens.contains(token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(token.stderr)")
        let refresh = try haapi(["refresh"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        #expect(try keyring.item(folder, "tokens.json") != tokens, "the refreshed tokens replace the old in the keyring")
        let api = try haapi(["api", server.issuer + "/oauth/userinfo"])
        #expect(api.status == 0 && api.stdout.contains("\"demo\""), "\(api.stderr)")

        // Logging out forgets the tokens there; a login with the saved settings reads the secret from there.
        #expect(try haapi(["logout"]).status == 0)
        #expect(try keyring.item(folder, "tokens.json") == nil)
        let again = try haapi(["login", "--answers", answers])
        #expect(again.status == 0 && again.stderr.contains("secrets in the keyring"), "\(again.stderr)")

        // Without the keyring, the profile says so and what to do; nothing falls back silently.
        let elsewhere = keyring.environment(["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.path)/no-bus"])
        let unreachable = try haapi(["refresh"], elsewhere)
        #expect(unreachable.status == 1 && unreachable.stderr.contains("keyring"), "\(unreachable.stderr)")

        // Deleting the profile removes its items (which the same search found before).
        #expect(try keyring.profilesWithItems().contains(folder.path), "the search does not see the profile's items before the delete")
        let deleted = try haapi(["profiles", "delete", "default"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let left = try keyring.profilesWithItems()
        #expect(!left.contains(folder.path), "items left: \(left)")
    }

    /// Where no keyring answers, a new login keeps its secrets in files and status says so;
    /// asked for the keyring, it says why it cannot; a profile can move to the keyring and back.
    @Test func withoutAKeyringFilesAndTheProfileCanMove() throws {
        let world = try World()
        defer { world.stop() }
        let (directory, keyring, server, secret, answers) = (world.directory, world.keyring, world.server, world.secret, world.answers)
        let noBus = keyring.environment(["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.path)/no-bus"])
        let folder = directory.appendingPathComponent("home/profiles/default")
        func haapi(_ arguments: [String], _ environment: [String: String]) throws -> HaapiCommand.Run {
            try CLITests.haapi(arguments, home: directory, environment: environment)
        }

        let login = try haapi(
            ["login", "--issuer", server.issuer, "--client-id", "haapi-secret", "--client-secret", secret, "--answers", answers], noBus)
        #expect(login.status == 0 && !login.stderr.contains("keyring"), "\(login.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("tokens.json").path))
        let status = try haapi(["status"], noBus)
        #expect(status.stdout.contains("secrets:  files in the profile's folder (0600)"), "\(status.stdout)")
        let asked = try haapi(["login", "--secret-store", "keyring", "--answers", answers], noBus)
        #expect(asked.status == 1 && asked.stderr.contains("does not answer here"), "\(asked.stderr)")

        // Moved into the keyring: the tokens file goes; moved back: the items go.
        let moved = try haapi(["login", "--secret-store", "keyring", "--answers", answers], keyring.environment())
        #expect(moved.status == 0 && moved.stderr.contains("secrets in the keyring"), "\(moved.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("tokens.json").path))
        #expect(try keyring.item(folder, "client-secret") == secret)
        let back = try haapi(["login", "--secret-store", "file", "--answers", answers], keyring.environment())
        #expect(
            back.status == 0 && FileManager.default.fileExists(atPath: folder.appendingPathComponent("tokens.json").path), "\(back.stderr)")
        #expect(try keyring.item(folder, "tokens.json") == nil && keyring.item(folder, "client-secret") == nil)
        #expect(try String(contentsOf: folder.appendingPathComponent("config.json"), encoding: .utf8).contains(secret))
    }

    /// Issue 56, item 1: a keyring that is locked and cannot ask for its password (no desktop:
    /// SSH, CI) does not lose a login the server completed: the tokens go to the profile's files,
    /// and the login says why and how to choose. A profile already in the locked keyring says
    /// how to get on, can be deleted with --force, and logs in again with its secrets in files.
    @Test func aLockedKeyringDoesNotLoseACompletedLogin() throws {
        let world = try World()
        defer { world.stop() }
        let (directory, keyring, server, secret, answers) = (world.directory, world.keyring, world.server, world.secret, world.answers)
        func haapi(_ arguments: [String]) throws -> HaapiCommand.Run {
            try CLITests.haapi(arguments, home: directory, environment: keyring.environment())
        }
        let connection = ["--issuer", server.issuer, "--client-id", "haapi-secret", "--client-secret", secret]

        // A profile in the keyring while it is open; then the keyring is locked.
        let first = try haapi(["login", "--profile", "before"] + connection + ["--answers", answers])
        #expect(first.status == 0 && first.stderr.contains("secrets in the keyring"), "\(first.stderr)")
        // Locked over D-Bus (the Secret Service's Lock; `secret-tool lock` crashes in this version).
        let lock = try Subprocess.run(
            "/usr/bin/dbus-send",
            [
                "--session", "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
                "org.freedesktop.Secret.Service.Lock",
                "array:objpath:/org/freedesktop/secrets/collection/login",
            ],
            environment: keyring.environment().mapValues { $0 }, timeout: 10)
        #expect(
            lock.status == 0 && lock.output.contains("/org/freedesktop/secrets/collection/login"),
            "dbus-send: \(lock.output) \(lock.errors)")

        // A new login into the locked keyring: kept in files, said, and usable.
        let login = try haapi(["login", "--profile", "after"] + connection + ["--answers", answers])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stderr.contains("refused the tokens") && login.stderr.contains("--secret-store file"), "\(login.stderr)")
        let after = directory.appendingPathComponent("home/profiles/after")
        #expect(
            FileManager.default.fileExists(atPath: after.appendingPathComponent("tokens.json").path),
            "the tokens are not in the profile's files")
        #expect(try !String(contentsOf: after.appendingPathComponent("config.json"), encoding: .utf8).contains("keyring"))
        let token = try haapi(["token", "--profile", "after"])
        #expect(token.status == 0 && !token.stdout.isEmpty, "\(token.stderr)")

        // The profile in the locked keyring: its error says what to do; it can be deleted
        // (forced, the items left in the keyring), and made again with files.
        let locked = try haapi(["token", "--profile", "before"])
        #expect(locked.status != 0 && locked.stderr.contains("--secret-store file"), "\(locked.stderr)")
        let refused = try haapi(["profiles", "delete", "before"])
        if refused.status != 0 {
            #expect(refused.stderr.contains("--force"), "\(refused.stderr)")
            let forced = try haapi(["profiles", "delete", "before", "--force"])
            #expect(forced.status == 0, "\(forced.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("home/profiles/before").path))
        let again = try haapi(["login", "--profile", "before", "--secret-store", "file"] + connection + ["--answers", answers])
        #expect(again.status == 0 && !again.stderr.contains("refused"), "\(again.stderr)")
    }
}
