// swift-tools-version:6.2
import PackageDescription

// Layers, bottom to top (arrows point down only; docs/DESIGN.md draws them, and
// Tests/PackageTests/PackageGraphTests.swift fails on any other arrow):
//   haapi -> HaapiCLI -> HaapiPreview -> HaapiUI -> HaapiSDK -> HaapiDriver -> OAuthCore
//   haapi-tokens -> HaapiCLICore -> OIDCClient -> OAuthCore;  HaapiCLI -> HaapiCLICore
// `haapi` is the whole command line (`swift run haapi`). `haapi-tokens` holds the commands that
// use a profile's tokens (token, api, status, refresh, ...), on HaapiCLICore alone, so that a
// script's `haapi token` maps only what it needs: Scripts/build-cli.sh installs it as `haapi`,
// and `haapi` as `haapi-full` beside it, to which it hands every other command.
//   HaapiCLICore -> OAuthTransportNIO, SecretService -> OAuthCore;  HaapiCLI -> HaapiDevServer -> OAuthCore
// Beside the layers, each on OAuthCore alone: the two HTTP transports, OAuthTransportURLSession
// (URLSession, the default of HaapiSDK on Apple platforms) and OAuthTransportNIO
// (AsyncHTTPClient, its default elsewhere); SecretService (the Linux keyring); HaapiDevServer
// (whose pages' style sheet the CLI hands it). On Linux URLSession is FoundationNetworking,
// which loads libcurl and some thirty libraries at start: the CLI, which talks through
// AsyncHTTPClient, does not link it.
// What an iOS app adds (OAuthCore up to HaapiUI and OIDCClient) depends on Foundation and
// swift-crypto alone: SwiftNIO, AsyncHTTPClient, NIOSSL and swift-certificates come only with
// OAuthTransportNIO, for servers, terminals and desktop apps.
let applePlatforms: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst]
let otherPlatforms: [Platform] = [.linux, .android, .windows, .wasi, .openbsd]
let package = Package(
    name: "swift-haapi",
    platforms: [.macOS(.v14), .iOS(.v15), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "OAuthCore", targets: ["OAuthCore"]),
        .library(name: "HaapiDriver", targets: ["HaapiDriver"]),
        .library(name: "HaapiSDK", targets: ["HaapiSDK"]),
        .library(name: "HaapiUI", targets: ["HaapiUI"]),
        .library(name: "OIDCClient", targets: ["OIDCClient"]),
        .library(name: "OAuthTransportNIO", targets: ["OAuthTransportNIO"]),
        .library(name: "OAuthTransportURLSession", targets: ["OAuthTransportURLSession"]),
        .library(name: "HaapiDevServer", targets: ["HaapiDevServer"]),
        .library(name: "SecretService", targets: ["SecretService"]),
        // Curity's module names, for apps that move over from Curity's UI kit and SDK without
        // changing a line (qualified names such as `IdsvrHaapiSdk.Link` included).
        .library(name: "IdsvrHaapiUIKit", targets: ["IdsvrHaapiUIKit"]),
        .library(name: "IdsvrHaapiSdk", targets: ["IdsvrHaapiSdk"]),
        .executable(name: "haapi", targets: ["haapi"]),
        .executable(name: "haapi-tokens", targets: ["haapi-tokens"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.1.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    ],
    targets: [
        .target(
            name: "OAuthCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA: BoringSSL through CryptoExtras here; the Security framework on Apple platforms,
                // so that an iOS app compiles no BoringSSL (Sources/OAuthCore/JOSE/RSA).
                .product(name: "CryptoExtras", package: "swift-crypto", condition: .when(platforms: otherPlatforms)),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "OAuthTransportNIO",
            dependencies: [
                "OAuthCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // Reads a refused server certificate to say what is wrong with it.
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .target(
            name: "HaapiDriver",
            dependencies: [
                "OAuthCore",
                // The default transport of HaapiTokenManagerBuilder and HaapiConfiguration.
                .target(name: "OAuthTransportURLSession", condition: .when(platforms: applePlatforms)),
                .target(name: "OAuthTransportNIO", condition: .when(platforms: otherPlatforms)),
            ]
        ),
        .target(name: "OAuthTransportURLSession", dependencies: ["OAuthCore"]),
        // The desktop keyring on Linux (the freedesktop Secret Service over D-Bus), which the
        // command line and Linux apps choose; an app on an Apple platform never links it.
        .target(name: "SecretService", dependencies: ["OAuthCore"]),
        .target(
            name: "HaapiSDK",
            dependencies: [
                "HaapiDriver", "OAuthCore",
                // The default transport of HaapiConfiguration.
                .target(name: "OAuthTransportURLSession", condition: .when(platforms: applePlatforms)),
                .target(name: "OAuthTransportNIO", condition: .when(platforms: otherPlatforms)),
            ]
        ),
        .target(
            name: "HaapiUI",
            dependencies: [
                "HaapiSDK", "HaapiDriver", "OAuthCore",
                // Apple platforms publish with Combine; elsewhere OpenCombine stands in.
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .android, .windows])),
                .product(name: "OpenCombineDispatch", package: "OpenCombine", condition: .when(platforms: [.linux, .android, .windows])),
            ],
            // The kit's hui_* texts (LocalizableStrings) and its theme (Theme), compiled into the
            // module: no resource bundle to find at run time, so an installed `haapi` binary or an
            // app extension has them as an app does.
            resources: [
                .embedInCode("Resources/Localizable-en.strings"), .embedInCode("Resources/Localizable-sv.strings"),
                .embedInCode("Resources/Localizable-en.stringsdict"), .embedInCode("Resources/Localizable-sv.stringsdict"),
                .embedInCode("Resources/Theme.plist"),
            ]
        ),
        .target(name: "OIDCClient", dependencies: ["OAuthCore", .product(name: "Crypto", package: "swift-crypto")]),
        // Curity's module names over ours: each re-exports, and declares nothing of its own.
        .target(name: "IdsvrHaapiSdk", dependencies: ["HaapiSDK"]),
        .target(name: "IdsvrHaapiUIKit", dependencies: ["HaapiUI"]),
        .target(
            name: "HaapiDevServer",
            dependencies: [
                "OAuthCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                // https with a certificate of the developer's (`haapi server --tls-cert`).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The kit's screens as web pages, themed: `haapi preview` and the browser tests draw them.
        .target(name: "HaapiPreview", dependencies: ["HaapiUI"]),
        // The command line as a library, so that tests and fuzz harnesses reach its readers and
        // decisions; the `haapi` executable only runs it.
        .executableTarget(name: "haapi", dependencies: ["HaapiCLI"]),
        .executableTarget(name: "haapi-tokens", dependencies: ["HaapiCLICore"]),
        // The commands on a profile's tokens, their texts (Resources/Commands-*.strings) and the
        // profile store: what `haapi` links.
        .target(
            name: "HaapiCLICore",
            dependencies: [
                "OAuthCore", "OIDCClient", "OAuthTransportNIO", "SecretService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.embedInCode("Resources/Commands-en.strings"), .embedInCode("Resources/Commands-sv.strings")]
        ),
        .target(
            name: "HaapiCLI",
            dependencies: [
                "HaapiCLICore", "HaapiUI", "HaapiPreview", "HaapiSDK", "HaapiDriver", "OAuthCore", "OIDCClient", "OAuthTransportNIO",
                "HaapiDevServer", "SecretService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "FuzzHarnesses",
            // HaapiCLICore: the command line's readers of the files it keeps (config.json, tokens.json).
            dependencies: [
                "OAuthCore", "HaapiDriver", "HaapiSDK", "HaapiUI", "HaapiPreview", "OIDCClient", "HaapiCLICore", "SecretService",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "haapi-fuzz",
            dependencies: ["FuzzHarnesses"],
            path: "Fuzz/HaapiFuzz"
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "OAuthTransportURLSession", "OAuthCore", "HaapiSDK", "HaapiDriver", "HaapiDevServer", "OIDCClient", "OAuthTransportNIO",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The test kits, in the manner of HummingbirdTesting. HaapiTesting, which every test
        // target uses, needs only OAuthCore (and SwiftNIO for its servers): Threads/, what tests
        // share in the one test process (HaapiLogger's settings, a trait that gives blocking
        // tests threads of their own, waiting); Processes/, subprocesses and the built `haapi`
        // command; Servers/, the misbehaving HTTP server and its table of faults, the
        // recorded-flow playback server and the tests' ID-token signer; Transports/, fake
        // transports (scripted by order, routed like a small server) and wrappers around any
        // transport (recording, intercepting).
        .target(
            name: "HaapiTesting",
            dependencies: [
                "OAuthCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // The tests' PKI (TestPKI): a CA and the certificates it signs.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tests/HaapiTesting"
        ),
        // Above it, the servers a test talks to as a client would: `haapi server` in process
        // (DevServer/: RunningServer, and the person at the phone and the browser) and the
        // tests' OpenID Provider (Servers/).
        .target(
            name: "HaapiServerTesting",
            dependencies: [
                "HaapiTesting", "HaapiDevServer", "OAuthTransportNIO", "OIDCClient", "OAuthCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                // The test OpenID Provider's RS256 key.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/HaapiServerTesting"
        ),
        .testTarget(
            name: "OAuthCoreTests",
            dependencies: [
                "HaapiTesting",
                "OAuthCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "HaapiDevServerTests",
            dependencies: [
                "HaapiTesting", "HaapiServerTesting",
                "OAuthTransportURLSession", "OAuthTransportNIO", "HaapiDevServer", "HaapiSDK", "HaapiDriver", "OAuthCore", "OIDCClient",
                .product(name: "Crypto", package: "swift-crypto"),
                // The request-deadline handler is tested in an embedded channel, with its own clock.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // Fixtures: a passkey made by a third-party software authenticator (read by path).
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "haapiTests",
            // The `haapi` command, run as a person or a script runs it: the built binary against
            // `haapi server` or a recorded Curity flow, some under tmux.
            dependencies: [
                "HaapiTesting", "HaapiServerTesting",
                "haapi", "haapi-tokens", "HaapiCLI", "HaapiCLICore", "OAuthTransportNIO", "HaapiDevServer", "HaapiSDK", "HaapiUI",
                "HaapiPreview", "OAuthCore",
                "OIDCClient",
            ]
        ),
        .testTarget(
            name: "HaapiUITests",
            dependencies: [
                "HaapiTesting", "HaapiServerTesting", "OAuthTransportNIO", "HaapiUI", "HaapiSDK", "HaapiDriver", "HaapiDevServer",
                "OAuthCore",
            ],
            // Fixtures/ui-kit: HAAPI responses from Curity's curityio/ui-kit (see its README).
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "HaapiTesting", "HaapiServerTesting", "OAuthTransportURLSession", "OAuthTransportNIO", "OAuthCore", "HaapiDriver",
                "HaapiSDK", "OIDCClient", "HaapiDevServer",
            ]
        ),
        .testTarget(
            name: "OIDCClientTests",
            dependencies: [
                "HaapiTesting", "HaapiServerTesting", "OAuthTransportNIO",
                "OIDCClient", "OAuthCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "HaapiDriverTests",
            // HaapiDevServer: its DPoP proof verifier checks the proofs the driver makes.
            dependencies: ["HaapiTesting", "HaapiDriver", "HaapiDevServer", "OAuthCore", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "HaapiSDKTests",
            dependencies: ["HaapiTesting", "HaapiSDK", "HaapiDriver", "OAuthCore"],
            resources: [.copy("Fixtures")]
        ),
        // Every snippet of seeds 000 and 001 as printed (see docs/PORTING.md). The snippets
        // are Swift 5 code, as the apps that have them are.
        .testTarget(
            name: "SeedSnippetTests",
            dependencies: [
                "HaapiTesting", "HaapiServerTesting", "OAuthTransportURLSession", "HaapiUI", "HaapiDevServer", "OAuthTransportNIO",
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The package itself: its target graph against the design.
        .testTarget(name: "PackageTests", dependencies: ["HaapiTesting"]),
        // The fuzz harnesses replayed on their seeds and on every input a fuzzing run broke.
        .testTarget(name: "FuzzHarnessesTests", dependencies: ["FuzzHarnesses"]),
        .testTarget(
            name: "FaultTests",
            dependencies: ["HaapiTesting", "HaapiServerTesting", "OAuthTransportNIO", "HaapiSDK", "HaapiDriver", "OAuthCore", "OIDCClient"]
        ),
        .testTarget(
            name: "SecretServiceTests", dependencies: ["HaapiTesting", "SecretService", "OAuthCore"], resources: [.copy("Vectors")]),
        .testTarget(
            // The HTTPTransport contract, kept by both transports (URLSessionTransport and
            // AsyncHTTPClientTransport): plain HTTP, TLS, mTLS and pinning, timeouts and cancellation.
            name: "TransportTests",
            dependencies: [
                "HaapiTesting",
                "OAuthTransportURLSession", "OAuthTransportNIO", "OAuthCore",
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Scripts/fuzz.sh builds with HAAPI_FUZZ=1: this package's own modules get libFuzzer's coverage
// instrumentation and haapi-fuzz links libFuzzer's entry point. The dependencies are built as for
// the tests, so a fuzz build in the tests' build folder compiles only this package's modules again
// (instrumented SwiftNIO or Hummingbird would only tell the fuzzer about code it does not test).
if Context.environment["HAAPI_FUZZ"] == "1" {
    for target in package.targets where target.type == .regular || target.type == .executable {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer"])]
        if target.name == "haapi-fuzz" {
            target.swiftSettings! += [.define("FUZZING")]
            target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer"])]
        }
    }
}
