// Apple API newer than the iOS 17.0 SDK that Scripts/check-apple.sh type-checks against.
// Only that check compiles this file (as the module AppleSDKBackfill, imported implicitly into the
// package's app-facing targets); an app builds against Xcode's SDK, which has the real declarations.
// Each declaration is transcribed from Apple's documentation, linked beside it. Bodies never run.
#if canImport(AuthenticationServices)
    import AuthenticationServices
    import Foundation

    @available(iOS 17.4, macOS 14.4, macCatalyst 17.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    extension ASWebAuthenticationSession {
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback
        public class Callback: NSObject {
            @available(*, unavailable)
            public override init() { fatalError("declaration only") }

            /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/customscheme(_:)
            public class func customScheme(_ customScheme: String) -> Self { fatalError("declaration only") }

            /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/https(host:path:)
            public class func https(host: String, path: String) -> Self { fatalError("declaration only") }

            /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/matchesurl(_:)
            public func matchesURL(_ url: URL) -> Bool { fatalError("declaration only") }
        }

        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/init(url:callback:completionhandler:)-6nut7
        public convenience init(
            url URL: URL, callback: ASWebAuthenticationSession.Callback,
            completionHandler: @escaping ASWebAuthenticationSession.CompletionHandler
        ) {
            fatalError("declaration only")
        }
    }
#endif
