import Foundation
import HaapiDriver
import HaapiSDK
import OAuthCore

/// An app's HAAPI setup: its configuration, and the accessor (HAAPI manager, OAuth token
/// manager, DPoP key) every flow and ``OAuthLifecycle`` call of the app shares (the seeds'
/// `HaapiUIKitApplication`). Make one, once, with ``HaapiUIKitApplicationBuilder``.
///
/// The accessor is built on first use, by the first flow's ``HaapiFlowViewModel/start(parameters:)``
/// or the first ``OAuthLifecycle`` call; a failure is reported there and the next use tries
/// again. One flow runs at a time: starting a flow ends the one under way.
public final class HaapiUIKitApplication: Sendable {
    /// The configuration.
    public let haapiUIKitConfiguration: HaapiUIKitConfiguration
    private let cache = AccessorCache()

    init(haapiUIKitConfiguration: HaapiUIKitConfiguration) {
        self.haapiUIKitConfiguration = haapiUIKitConfiguration
    }

    /// The shared accessor, built now if it is not yet.
    /// - Throws: ``HaapiError`` when the configuration cannot make one on this device.
    public func haapiAccessor() async throws -> any HaapiAccessor {
        try await cache.accessor { try await self.haapiUIKitConfiguration.makeAccessorBuilder().build() }
    }

    /// Closes the accessor (its HAAPI token manager frees the configuration's name); a later
    /// use builds a new one.
    public func close() async {
        await cache.close()
    }

    private actor AccessorCache {
        private var accessor: (any HaapiAccessor)?

        func accessor(_ make: @Sendable () async throws -> any HaapiAccessor) async throws -> any HaapiAccessor {
            if let accessor { return accessor }
            let made = try await make()
            accessor = made
            return made
        }

        func close() async {
            await accessor?.close()
            accessor = nil
        }
    }
}

/// Makes the ``HaapiUIKitApplication`` of a configuration (the seeds' `HaapiUIKitApplicationBuilder`).
public final class HaapiUIKitApplicationBuilder: Sendable {
    private let configuration: HaapiUIKitConfiguration

    /// A builder for `haapiUIKitConfiguration`.
    public init(haapiUIKitConfiguration: HaapiUIKitConfiguration) {
        configuration = haapiUIKitConfiguration
    }

    /// The application. Nothing is contacted yet.
    public func build() -> HaapiUIKitApplication {
        HaapiUIKitApplication(haapiUIKitConfiguration: configuration)
    }
}
