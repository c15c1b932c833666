import Foundation
import HaapiTesting
import Testing

/// The package's targets and their arrows, as `swift package describe` reports them, against
/// the design (docs/DESIGN.md): each module depends on what the design draws below it and on
/// nothing else, the test kits stay below what they test, and no test of a module links a
/// module built on it.
@Suite("The package graph")
struct PackageGraphTests {
    /// Every arrow the design allows between the package's own modules (a dependency on
    /// another package is the module's own business). A module missing here is an error too:
    /// a new module comes with its place in the design.
    static let allowed: [String: Set<String>] = [
        "OAuthCore": [],
        "OAuthTransportURLSession": ["OAuthCore"],
        "OAuthTransportNIO": ["OAuthCore"],
        "SecretService": ["OAuthCore"],
        "HaapiDevServer": ["OAuthCore"],
        "OIDCClient": ["OAuthCore"],
        "HaapiDriver": ["OAuthCore", "OAuthTransportURLSession", "OAuthTransportNIO"],
        "HaapiSDK": ["HaapiDriver", "OAuthCore", "OAuthTransportURLSession", "OAuthTransportNIO"],
        "HaapiUI": ["HaapiSDK", "HaapiDriver", "OAuthCore"],
        "HaapiPreview": ["HaapiUI"],
        "IdsvrHaapiSdk": ["HaapiSDK"],
        "IdsvrHaapiUIKit": ["HaapiUI"],
        // The commands on a profile's tokens: what the installed `haapi` links, and nothing of the
        // kit or the server.
        "HaapiCLICore": ["OAuthCore", "OIDCClient", "OAuthTransportNIO", "SecretService"],
        "HaapiCLI": [
            "HaapiCLICore", "HaapiUI", "HaapiPreview", "HaapiSDK", "HaapiDriver", "OAuthCore", "OIDCClient", "OAuthTransportNIO",
            "HaapiDevServer", "SecretService",
        ],
        "haapi": ["HaapiCLI"],
        "haapi-tokens": ["HaapiCLICore"],
        // The harnesses fuzz the readers of every layer, the command line's files among them.
        "FuzzHarnesses": [
            "OAuthCore", "HaapiDriver", "HaapiSDK", "HaapiUI", "HaapiPreview", "OIDCClient", "HaapiCLICore", "SecretService",
        ],
        "haapi-fuzz": ["FuzzHarnesses"],
        "Benchmarks": [
            "OAuthTransportURLSession", "OAuthCore", "HaapiSDK", "HaapiDriver", "HaapiDevServer", "OIDCClient", "OAuthTransportNIO",
        ],
        // The test kits: the core one needs only OAuthCore; the servers' kit sits above it.
        "HaapiTesting": ["OAuthCore"],
        "HaapiServerTesting": ["HaapiTesting", "HaapiDevServer", "OAuthTransportNIO", "OIDCClient", "OAuthCore"],
    ]

    /// The package's targets by name: their type and the package targets they depend on.
    static func describe() throws -> [String: (type: String, dependencies: [String])] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        // Its own scratch folder: `swift test`, which runs this, holds the lock on `.build`.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try Subprocess.run(
            "/usr/bin/env", ["swift", "package", "--scratch-path", scratch.path, "describe", "--type", "json"], directory: root,
            timeout: 120)
        #expect(run.status == 0, "\(run.errors)")
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let targets = try #require(json["targets"] as? [[String: Any]])
        var graph: [String: (type: String, dependencies: [String])] = [:]
        for target in targets {
            let name = try #require(target["name"] as? String)
            graph[name] = (target["type"] as? String ?? "", target["target_dependencies"] as? [String] ?? [])
        }
        return graph
    }

    /// `name` and every module it reaches.
    static func closure(_ name: String, in graph: [String: (type: String, dependencies: [String])]) -> Set<String> {
        var seen: Set<String> = []
        var stack = [name]
        while let next = stack.popLast() {
            if seen.insert(next).inserted { stack += graph[next]?.dependencies ?? [] }
        }
        return seen
    }

    @Test func everyArrowIsOneTheDesignDraws() throws {
        let graph = try Self.describe()
        #expect(graph.count > 20, "the package has its targets")
        for (name, target) in graph.sorted(by: { $0.key < $1.key }) where target.type != "test" {
            let allowed = try #require(Self.allowed[name], "\(name) has no place in the design (PackageGraphTests.allowed, docs/DESIGN.md)")
            let unexpected = Set(target.dependencies).subtracting(allowed)
            #expect(unexpected.isEmpty, "\(name) -> \(unexpected.sorted().joined(separator: ", ")): an arrow the design does not draw")
        }
        for name in Self.allowed.keys { #expect(graph[name] != nil, "\(name) is in the design but not in the package") }
    }

    /// The test of a module (`OAuthCoreTests` of `OAuthCore`) links nothing built on that
    /// module, through a test kit or otherwise: the core's tests do not compile the UI kit.
    @Test func aModulesTestsLinkNothingBuiltOnIt() throws {
        let graph = try Self.describe()
        // The test kits are the tests' tools, built on what they test by nature; what a kit
        // reaches counts against a test that uses it.
        let kits: Set<String> = ["HaapiTesting", "HaapiServerTesting"]
        let modules = graph.filter { $0.value.type != "test" && !kits.contains($0.key) }.map(\.key)
        for (name, target) in graph where target.type == "test" && name.hasSuffix("Tests") {
            let tested = String(name.dropLast("Tests".count))
            guard graph[tested] != nil, graph[tested]?.type != "test" else { continue }
            let above = Set(modules.filter { $0 != tested && Self.closure($0, in: graph).contains(tested) })
            // What the tests reach besides the module itself and its own executable.
            let reached = Self.closure(name, in: graph).subtracting([name, tested]).subtracting(["haapi", "haapi-tokens"])
            let wrong = reached.intersection(above)
            #expect(wrong.isEmpty, "\(name) links \(wrong.sorted().joined(separator: ", ")), built on \(tested)")
        }
        // `haapi-tokens` (installed as `haapi`) links the token commands alone: not the kit, the
        // SDK or the development server.
        #expect(
            Self.closure("haapi-tokens", in: graph).isDisjoint(with: [
                "HaapiUI", "HaapiSDK", "HaapiDriver", "HaapiPreview", "HaapiDevServer",
            ]))
        // The tests of the core reach only the core and the core test kit.
        #expect(Self.closure("OAuthCoreTests", in: graph) == ["OAuthCoreTests", "HaapiTesting", "OAuthCore"])
    }
}
