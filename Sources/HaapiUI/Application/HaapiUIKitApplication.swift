import Foundation
import HaapiDriver
import HaapiSDK
import OAuthCore

/// An app's HAAPI setup (the seeds' `HaapiUIKitApplication`): its configuration, how steps and
/// token responses become models, and the accessor (HAAPI manager, OAuth token manager, DPoP key)
/// every flow and ``OAuthLifecycle`` call of the app shares. Make one, once, with
/// ``HaapiUIKitApplicationBuilder``: its ``KitApplication`` also has the app's theme, texts and
/// screens.
public protocol HaapiUIKitApplication: AnyObject, Sendable {
    /// The configuration.
    var haapiUIKitConfiguration: HaapiUIKitConfiguration { get }
    /// Maps each step to what its screen shows.
    var dataMapper: any DataMapper { get }
    /// Maps the token endpoint's answer to what the app receives.
    var oAuthDataMapper: any OAuthDataMapper { get }
    #if canImport(UIKit) && canImport(CoreImage) && !os(watchOS) && !os(tvOS)
        /// Handles the client operations the kit does not know.
        var genericClientOperationHandler: any GenericClientOperationHandler { get }
    #endif
    /// The look of the flow's screens (by default the kit's).
    var theme: Theme { get }
    /// The texts of the flow's screens, in the user's language (by default the kit's).
    var localizableStrings: LocalizableStrings { get }
    /// The shared accessor, built now if it is not yet (by default a new one each time).
    /// - Throws: ``/HaapiDriver/HaapiError`` when the configuration cannot make one on this device.
    func haapiAccessor() async throws -> any HaapiAccessor
    /// Closes the shared accessor; a later use builds a new one.
    func close() async
}

extension HaapiUIKitApplication {
    /// The kit's theme; an empty one if the kit's own cannot be read.
    public var theme: Theme { (try? Theme.kit) ?? Theme(values: [:], source: "none") }
    /// The kit's texts, in the user's language (the app's `Localizable` table first).
    public var localizableStrings: LocalizableStrings { LocalizableStrings() }
    /// A new accessor from the configuration at each call: an application that shares one overrides this.
    /// - Throws: ``/HaapiDriver/HaapiError`` when the configuration cannot make one on this device.
    public func haapiAccessor() async throws -> any HaapiAccessor { try await haapiUIKitConfiguration.makeHaapiAccessor() }
    /// Does nothing: the default keeps no accessor to close.
    public func close() async {}

    /// What each screen shows, in the application's language and theme.
    public var screenBuilder: ScreenBuilder { ScreenBuilder(strings: localizableStrings, theme: theme) }
}

/// The kit's ``HaapiUIKitApplication``: what ``HaapiUIKitApplicationBuilder`` makes.
///
/// The accessor is built on first use, by the first flow's ``HaapiFlowViewModel/start(parameters:)``
/// or the first ``OAuthLifecycle`` call; a failure is reported there and the next use tries
/// again. One flow runs at a time: starting a flow ends the one under way.
public final class KitApplication: HaapiUIKitApplication {
    /// The configuration the accessor and the flows are made with.
    public let haapiUIKitConfiguration: HaapiUIKitConfiguration
    /// The theme the screens are drawn in.
    public let theme: Theme
    /// The texts the screens show.
    public let localizableStrings: LocalizableStrings
    /// The styles every screen shares, read from ``theme``.
    public let commonStyle: HaapiUIViewControllerStyle
    /// What makes a UI model of each HAAPI step (``KitDataMapper`` unless the app gave its own).
    public let dataMapper: any DataMapper
    /// What makes a UI model of each OAuth response (the kit's unless the app gave its own).
    public let oAuthDataMapper: any OAuthDataMapper
    /// The app's own screens (a `ViewControllerFactoryRegistry` on Apple platforms).
    let viewControllerFactories: (any Sendable)?
    /// The app's handler of unknown client operations (a `GenericClientOperationHandler` on Apple platforms).
    let genericClientOperations: (any Sendable)?
    private let cache = AccessorCache()

    init(
        haapiUIKitConfiguration: HaapiUIKitConfiguration, theme: Theme, commonStyle: HaapiUIViewControllerStyle,
        localizableStrings: LocalizableStrings, dataMapper: (any DataMapper)? = nil, oAuthDataMapper: (any OAuthDataMapper)? = nil,
        viewControllerFactories: (any Sendable)? = nil, genericClientOperations: (any Sendable)? = nil
    ) {
        self.genericClientOperations = genericClientOperations
        self.dataMapper = dataMapper ?? KitDataMapper(configuration: haapiUIKitConfiguration)
        self.oAuthDataMapper = oAuthDataMapper ?? OAuthDataMapperBuilder().build()
        self.haapiUIKitConfiguration = haapiUIKitConfiguration
        self.theme = theme
        self.commonStyle = commonStyle
        self.localizableStrings = localizableStrings
        self.viewControllerFactories = viewControllerFactories
    }

    /// The shared accessor, built at the first call (one build at a time); a failed build is tried again at
    /// the next call.
    /// - Throws: ``/HaapiDriver/HaapiError`` when the configuration cannot make one on this device.
    public func haapiAccessor() async throws -> any HaapiAccessor {
        try await cache.accessor { try await self.haapiUIKitConfiguration.makeHaapiAccessor() }
    }

    /// Closes the shared accessor, if one was built; the next call to ``haapiAccessor()`` builds a new one.
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

        func close() {
            accessor?.close()
            accessor = nil
        }
    }
}

/// Makes the ``HaapiUIKitApplication`` of a configuration (the seeds' `HaapiUIKitApplicationBuilder`):
/// its theme, its texts and, on Apple platforms, the app's own screens.
public final class HaapiUIKitApplicationBuilder {
    private let configuration: HaapiUIKitConfiguration
    private var appTheme: Result<Theme, ThemeError>?
    private var strings: LocalizableStrings?
    private var dataMapper: (any DataMapper)?
    private var oAuthDataMapper: (any OAuthDataMapper)?
    /// The app's screens (``ViewControllerFactoryRegistry``), set on Apple platforms.
    var viewControllerFactories: (any Sendable)?
    /// The app's handler of unknown client operations, set on Apple platforms.
    var genericClientOperationHandler: (any Sendable)?

    /// A builder for `haapiUIKitConfiguration`.
    public init(haapiUIKitConfiguration: HaapiUIKitConfiguration) {
        configuration = haapiUIKitConfiguration
    }

    /// Lays the property list `plistFileName` (with or without `.plist`) of `bundle` over the
    /// kit's theme, key by key (``Theme/merging(_:)``); ``buildOrThrow()`` reports a file that
    /// is missing or wrong.
    @discardableResult
    public func setThemingPlistFileName(_ plistFileName: String, and bundle: Bundle = .main) -> HaapiUIKitApplicationBuilder {
        let name = plistFileName.hasSuffix(".plist") ? String(plistFileName.dropLast(6)) : plistFileName
        if let url = bundle.url(forResource: name, withExtension: "plist"), let data = try? Data(contentsOf: url) {
            do throws(ThemeError) {
                appTheme = .success(try Theme(plist: data, source: "\(name).plist"))
            } catch {
                appTheme = .failure(error)
            }
        } else {
            appTheme = .failure(ThemeError(source: "\(name).plist", reason: "no such file in \(bundle.bundleURL.lastPathComponent)"))
        }
        return self
    }

    /// Maps steps with `dataMapper` (``DataMapperBuilder``) in place of the kit's mapping.
    @discardableResult
    public func setDataMapper(_ dataMapper: any DataMapper) -> HaapiUIKitApplicationBuilder {
        self.dataMapper = dataMapper
        return self
    }

    /// Maps the token endpoint's answers with `oAuthDataMapper` (``OAuthDataMapperBuilder``).
    @discardableResult
    public func setOAuthDataMapper(_ oAuthDataMapper: any OAuthDataMapper) -> HaapiUIKitApplicationBuilder {
        self.oAuthDataMapper = oAuthDataMapper
        return self
    }

    /// Uses `localizableStrings` for the flow's texts (by default, the user's language with the
    /// main bundle's `Localizable` table first).
    @discardableResult
    public func setLocalizableStrings(_ localizableStrings: LocalizableStrings) -> HaapiUIKitApplicationBuilder {
        strings = localizableStrings
        return self
    }

    /// The application. Nothing is contacted yet.
    /// - Throws: ``ThemeError`` when the app's theme plist is missing or describes a style
    ///   wrongly (every screen's style is read now, so a mistake shows at once, not on the
    ///   screen that needs it).
    public func buildOrThrow() throws(ThemeError) -> any HaapiUIKitApplication {
        try make(appTheme: appTheme)
    }

    private func make(appTheme: Result<Theme, ThemeError>?) throws(ThemeError) -> KitApplication {
        var theme = try Theme.kit
        switch appTheme {
        case .success(let app)?: theme = theme.merging(app)
        case .failure(let error)?: throw error
        case nil: break
        }
        let commonStyle = try HaapiUIViewControllerStyle(theme: theme)
        _ = try theme.style(HaapiFlowViewControllerStyle.self, named: HaapiFlowViewControllerStyle.themeSection)
        for kind in ScreenKind.allCases { try kind.checkStyle(in: theme) }
        return KitApplication(
            haapiUIKitConfiguration: configuration, theme: theme, commonStyle: commonStyle,
            localizableStrings: strings ?? LocalizableStrings(),
            dataMapper: dataMapper, oAuthDataMapper: oAuthDataMapper, viewControllerFactories: viewControllerFactories,
            genericClientOperations: genericClientOperationHandler)
    }

    /// The application; when the app's theme is wrong, the kit's theme is used and the error logged.
    public func build() -> any HaapiUIKitApplication {
        do {
            return try buildOrThrow()
        } catch {
            HaapiLogger.error(UIKitFollowUpTag.theming, "the app's theme is not used: \(error.errorDescription ?? error.error)")
            do {
                return try make(appTheme: nil)
            } catch {
                // The kit's own theme is read in full by ThemeTests: this is a defect of the package.
                preconditionFailure("the kit's theme is broken: \(error.errorDescription ?? error.error)")
            }
        }
    }
}

extension ScreenKind {
    /// Reads the style of this screen from `theme`.
    func checkStyle(in theme: Theme) throws(ThemeError) {
        switch self {
        case .form: _ = try theme.style(FormViewControllerStyle.self)
        case .selector: _ = try theme.style(SelectorViewControllerStyle.self)
        case .polling: _ = try theme.style(PollingViewControllerStyle.self)
        case .bankID: _ = try theme.style(BankIdViewControllerStyle.self)
        case .webAuthn: _ = try theme.style(WebAuthnViewControllerStyle.self)
        case .problem: _ = try theme.style(ProblemViewControllerStyle.self)
        case .generic: _ = try theme.style(GenericViewControllerStyle.self)
        }
    }
}
