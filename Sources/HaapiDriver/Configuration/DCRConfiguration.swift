import Foundation
import OAuthCore

/// The Dynamic Client Registration fallback (the seeds' `DCRConfiguration`): a per-device
/// client registered from a template client, for devices that cannot attest.
public struct DCRConfiguration: Sendable {
    /// The template client's id, sent as `software_id` (RFC 7591 templatized registration).
    public var templateClientId: String
    /// The registration endpoint; `nil` when the app's `URL(string:relativeTo:)` made none,
    /// which building the accessor reports as ``HaapiError/invalidConfiguration(reason:)``.
    public var clientRegistrationEndpointUrl: URL? { didSet { clientRegistrationEndpointUrl = clientRegistrationEndpointUrl?.absoluteURL } }
    /// Where the registered client is kept between runs.
    public var storage: any Storage
    /// Whether a stored client is dropped and a new one registered.
    public var shouldClearExistingDCRClient: Bool

    /// Makes a DCR configuration; by default the client is kept in ``DefaultStorage``. The
    /// endpoint may be the optional `URL(string:relativeTo:)` gives, as the seeds pass it.
    public init(
        templateClientId: String, clientRegistrationEndpointUrl: URL?, storage: (any Storage)? = nil,
        shouldClearExistingDCRClient: Bool = false
    ) {
        self.templateClientId = templateClientId
        self.clientRegistrationEndpointUrl = clientRegistrationEndpointUrl?.absoluteURL
        self.storage = storage ?? DefaultStorage.make()
        self.shouldClearExistingDCRClient = shouldClearExistingDCRClient
    }
}

/// The platform's default ``/OAuthCore/Storage``: the Keychain on Apple platforms, files under
/// `$XDG_DATA_HOME/swift-haapi` (or `~/.local/share/swift-haapi`) elsewhere, memory if neither works.
public enum DefaultStorage {
    /// The package's data directory: `$XDG_DATA_HOME/swift-haapi`, or `~/.local/share/swift-haapi`.
    public static var dataDirectory: URL { XDGDirectory.data() }

    /// Makes the default storage.
    public static func make() -> any Storage {
        #if canImport(Security) && canImport(Darwin)
            return KeychainStorage(service: "swift-haapi")
        #else
            return (try? FileStorage(directory: dataDirectory)) ?? InMemoryStorage()
        #endif
    }
}
