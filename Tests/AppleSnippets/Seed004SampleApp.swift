// Seed 004 (iOS Code Sample – Coding Key Points), the SwiftUI sample app on OIDCClient: its entry
// point, views, view models and navigation as printed, and its AppAuth login and logout ported.
// The app's `AuthenticatorImpl` keeps only what OIDCClient does not: presenting on a view
// controller's window, and the sample's logout endpoint. What changed is said above each snippet
// and in docs/PORTING.md. Type-checked for iOS by Scripts/check-apple.sh.
import Combine
import Foundation
import OAuthCore
import OAuthTransportURLSession
import OIDCClient
import SwiftUI
import UIKit

// MARK: 004-1 App entry point with onOpenURL
// Changed: the OAuth branch. `self.authenticator`, which the seed's SampleApp does not declare, is
// the app's `OIDCClient` (an extension below); `isOAuthResponse(responseUrl:)` is
// `isOAuthResponse(_:)`; `self.model.resumeOAuthResponse(url:)` is the client's
// `resumeExternalUserAgentFlow(with:)`, which hands the URL to the login or logout waiting for it
// and throws for a URL none waits for: `try?`, since `isOAuthResponse` has just said one does.
// Only a login or logout started with `DeepLinkUserAgent` waits here; this app's (004-11, 004-21)
// use `WebAuthenticationSessionUserAgent`, whose sheet catches the redirect itself.

@main
struct SampleApp: App {

    private let model: AppViewModel
    private let eventBus: EventBus
    private let orientationHandler: OrientationHandler
    private let viewRouter: ViewRouter

    init() {

        self.eventBus = EventBus()
        self.orientationHandler = OrientationHandler()

        self.model = AppViewModel(eventBus: self.eventBus)
        self.viewRouter = ViewRouter(eventBus: self.eventBus)
    }

    var body: some Scene {

        WindowGroup {
            AppView(model: self.model, viewRouter: self.viewRouter)
                .environmentObject(self.orientationHandler)
                .environmentObject(self.eventBus)
                .onOpenURL(perform: { url in

                    if self.authenticator.isOAuthResponse(url) {

                        try? self.authenticator.resumeExternalUserAgentFlow(with: url)

                    } else {

                        self.viewRouter.handleDeepLink(url: url)
                    }
                })
                .onReceive(NotificationCenter.default.publisher(for: UIDevice.orientationDidChangeNotification)) { _ in

                    self.orientationHandler.isLandscape = UIDevice.current.orientation.isLandscape
                }
        }
    }
}

struct AppView: View {
    @ObservedObject var model: AppViewModel
    @ObservedObject var viewRouter: ViewRouter
    @EnvironmentObject var eventBus: EventBus

    // MARK: 004-2 The root view tree
    // Changed: the lost closing brace of `body` restored.

var body: some View {

    return VStack {

        TitleView(userInfoViewModel: self.model.getUserInfoViewModel())

        HeaderButtonsView(
            onHome: self.onHome,
            onReloadData: self.onReloadData,
            onExpireAccessToken: self.model.onExpireAccessToken,
            onExpireRefreshToken: self.model.onExpireRefreshToken,
            onLogout: self.onLogout)

        if self.model.error != nil {
            ErrorSummaryView(
            error: self.model.error!,
            hyperlinkText: "Application Problem Encountered",
            dialogTitle: "Application Error",
            padding: EdgeInsets(top: 0, leading: 0, bottom: 10, trailing: 0))
        }

        SessionView(sessionId: self.model.getSessionId())

        MainView(
            viewRouter: self.viewRouter,
            companiesViewModel: self.model.getCompaniesViewModel(),
            transactionsViewModel: self.model.getTransactionsViewModel(),
            isDeviceSecured: self.model.isDeviceSecured)

        Spacer()
    }
    .onAppear(perform: self.model.initialize)
    .onReceive(self.eventBus.loginRequiredTopic, perform: {_ in
        self.onLoginRequired()
    })
}

    private func onHome() {
        if self.viewRouter.currentViewType == LoginRequiredView.Type.self {
            self.onLoginRequired()
        } else {
            self.viewRouter.changeMainView(newViewType: CompaniesView.Type.self, newViewParams: [])
        }
    }

    private func onReloadData() {
        self.eventBus.sendReloadMainViewEvent(causeError: false)
    }

    /// A single login redirect, whichever view found that login is required.
    private func onLoginRequired() {
        self.viewRouter.changeMainView(newViewType: LoginRequiredView.Type.self, newViewParams: [])
        guard let viewController = ViewControllerHelper.getRootViewController() else { return }
        self.model.startLogin(viewController: viewController) {
            self.viewRouter.changeMainView(newViewType: CompaniesView.Type.self, newViewParams: [])
        }
    }

    private func onLogout() {
        guard let viewController = ViewControllerHelper.getRootViewController() else { return }
        self.model.startLogout(viewController: viewController) {
            self.viewRouter.changeMainView(newViewType: LoginRequiredView.Type.self, newViewParams: [])
        }
    }
}

final class AppViewModel: ObservableObject {
    private let fetchCache: FetchCache
    private let eventBus: EventBus
    private let configuration: Configuration
    let authenticator: AuthenticatorImpl
    private let fetchClient: FetchClient
    private let viewModelCoordinator: ViewModelCoordinator
    private var companiesViewModel: CompaniesViewModel?
    private var transactionsViewModel: TransactionsViewModel?
    private var userInfoViewModel: UserInfoViewModel?
    private let sessionId = UUID().uuidString

    @Published var isLoaded: Bool
    @Published var isDeviceSecured: Bool
    @Published var error: UIError?

    // MARK: 004-3 The composition root
    // Unchanged: `AuthenticatorImpl` is the app's, around an `OIDCClient`; `FetchClient` sends
    // through an `AuthorizedHTTPClient` of that client (see below).

init(eventBus: EventBus) {

    self.fetchCache = FetchCache()
    self.eventBus = eventBus

    self.configuration = try! ConfigurationLoader.load()
    self.authenticator = AuthenticatorImpl(configuration: self.configuration.oauth)
    self.fetchClient = try! FetchClient(configuration: self.configuration, fetchCache: self.fetchCache, authenticator: self.authenticator)
    self.viewModelCoordinator = ViewModelCoordinator(eventBus: eventBus, fetchCache: self.fetchCache, authenticator: self.authenticator)

    self.isLoaded = false
    self.isDeviceSecured = DeviceSecurity.isDeviceSecured()
    self.error = nil
}

    /// The provider's metadata, once; the session is read from the keychain when first needed.
    func initialize() {
        Task {
            do {
                try await self.authenticator.client.discover()
                await MainActor.run { self.isLoaded = true }
            } catch {
                await MainActor.run { self.error = ErrorFactory.fromException(error: error) }
            }
        }
    }

    func getSessionId() -> String { self.sessionId }

    func getUserInfoViewModel() -> UserInfoViewModel {
        if let userInfoViewModel { return userInfoViewModel }
        let made = UserInfoViewModel(client: self.authenticator.client)
        self.userInfoViewModel = made
        return made
    }

    func getCompaniesViewModel() -> CompaniesViewModel {
        if let companiesViewModel { return companiesViewModel }
        let made = CompaniesViewModel(fetchClient: self.fetchClient, viewModelCoordinator: self.viewModelCoordinator)
        self.companiesViewModel = made
        return made
    }

    func getTransactionsViewModel() -> TransactionsViewModel {
        if let transactionsViewModel { return transactionsViewModel }
        let made = TransactionsViewModel()
        self.transactionsViewModel = made
        return made
    }

    /// The sample's test hook: the stored access token made unusable, so that the next API
    /// call gets a 401 and refreshes.
    func onExpireAccessToken() {
        Task { try? await self.authenticator.expireAccessToken() }
    }

    /// The sample's test hook: both tokens made unusable, so that the next refresh fails and
    /// the user must log in.
    func onExpireRefreshToken() {
        Task { try? await self.authenticator.expireRefreshToken() }
    }

    @MainActor func startLogin(viewController: UIViewController, onLoggedIn: @escaping @MainActor () -> Void) {
        self.error = nil
        Task { @MainActor in
            do {
                try await self.authenticator.startLoginRedirect(viewController: viewController)
                onLoggedIn()
            } catch {
                let uiError = ErrorFactory.fromException(error: error)
                if uiError.errorCode != ErrorCodes.redirectCancelled { self.error = uiError }
            }
        }
    }

    @MainActor func startLogout(viewController: UIViewController, onLoggedOut: @escaping @MainActor () -> Void) {
        self.error = nil
        Task { @MainActor in
            do {
                try await self.authenticator.startLogoutRedirect(viewController: viewController)
            } catch {
                let uiError = ErrorFactory.fromException(error: error)
                if uiError.errorCode != ErrorCodes.redirectCancelled { self.error = uiError }
            }
            // The tokens are gone whatever the browser did.
            onLoggedOut()
        }
    }
}

struct MainView: View {
    @ObservedObject var viewRouter: ViewRouter
    let companiesViewModel: CompaniesViewModel
    let transactionsViewModel: TransactionsViewModel
    let isDeviceSecured: Bool

    // MARK: 004-4 The main view switch
    // Unchanged.

var body: some View {

    return VStack {

        if self.viewRouter.currentViewType == BlankView.Type.self {

            BlankView()
                
        } else if !self.isDeviceSecured {

            DeviceNotSecuredView()

        } else if self.viewRouter.currentViewType == TransactionsView.Type.self {

            TransactionsView(model: self.transactionsViewModel, viewRouter: self.viewRouter)

        } else if self.viewRouter.currentViewType == LoginRequiredView.Type.self {

            LoginRequiredView()

        } else {

            CompaniesView(model: self.companiesViewModel, viewRouter: self.viewRouter)
        }
    }
}
}

struct CompaniesView: View {
    @ObservedObject var model: CompaniesViewModel
    let viewRouter: ViewRouter
    @EnvironmentObject var eventBus: EventBus

    // MARK: 004-5 The companies list view
    // Changed: the lost closing brace of `body` restored.

var body: some View {

    let deviceWidth = UIScreen.main.bounds.size.width
    return VStack {

        Text("Company List")
            .font(.headline)
            .frame(width: deviceWidth)
            .padding()
            .background(Colors.lightBlue)

        if self.model.error != nil {
            ErrorSummaryView(
                error: self.model.error!,
                hyperlinkText: "Problem Encountered in Companies View",
                dialogTitle: "Companies View Error",
                padding: EdgeInsets(top: 10, leading: 0, bottom: 0, trailing: 0))
        }

        if self.model.companies.count > 0 {
            List(self.model.companies, id: \.id) { item in
                CompanyItemView(viewRouter: self.viewRouter, company: item)
            }
            .listStyle(.plain)
        }
    }
    .onAppear(perform: self.initialLoad)
    .onReceive(self.eventBus.reloadDataTopic, perform: {data in
        self.handleReloadData(event: data)
    })
}

    private func initialLoad() {
        self.model.callApi()
    }

    private func handleReloadData(event: ReloadDataEvent) {
        self.model.callApi(options: ViewLoadOptions(forceReload: true, causeError: event.causeError))
    }
}

// MARK: 004-6 The view model class
// Changed: the initializer the seed leaves out (its stored properties have no default) added.

class CompaniesViewModel: ObservableObject {

    private let fetchClient: FetchClient
    private let viewModelCoordinator: ViewModelCoordinator

    @Published var companies = [Company]()
    @Published var error: UIError?

    init(fetchClient: FetchClient, viewModelCoordinator: ViewModelCoordinator) {
        self.fetchClient = fetchClient
        self.viewModelCoordinator = viewModelCoordinator
    }
}

extension CompaniesViewModel {

    // MARK: 004-7 The API call from the view model
    // Unchanged: `FetchClient.getCompanies(options:)`, the app's, sends through our
    // `AuthorizedHTTPClient.send(TransportRequest(...))` (below).

func callApi(options: ViewLoadOptions? = nil) {

    let fetchOptions = FetchOptions(
        cacheKey: FetchCacheKeys.Companies,
        forceReload: options?.forceReload ?? false,
        causeError: options?.causeError ?? false)

    self.viewModelCoordinator.onMainViewModelLoading()
    self.error = nil

    Task {

        do {

            let companies = try await self.fetchClient.getCompanies(options: fetchOptions)
            await MainActor.run {

                if companies != nil {
                    self.companies = companies!
                }
                self.viewModelCoordinator.onMainViewModelLoaded(cacheKey: fetchOptions.cacheKey)
            }

        } catch {

            await MainActor.run {

                self.companies = [Company]()
                self.error = ErrorFactory.fromException(error: error)
                self.viewModelCoordinator.onMainViewModelLoaded(cacheKey: fetchOptions.cacheKey)
            }
        }
    }
}
}

/// The seed's `AuthenticatorImpl`: the `OIDCClient` does the OAuth work (004-9); what is left is
/// the presentation on a view controller's window and the sample's logout endpoint.
final class AuthenticatorImpl: Sendable {
    let client: OIDCClient
    private let configuration: OAuthConfiguration

    init(configuration: OAuthConfiguration) {
        self.configuration = configuration
        self.client = OIDCClient(
            configuration: configuration.oidcConfiguration, transport: try! URLSessionTransport(),
            storage: KeychainStorage(service: "com.authsamples.basicmobileapp"))
    }

    // MARK: 004-11 Login redirect
    // Changed: `async`: `client.login(using:)` returns when the tokens are saved, in place of
    // `OIDAuthorizationService.present`, the callback, `handleLoginResponse` and `finishLogin`.
    // The redirect URI, the scopes and the request are the client's `OIDCConfiguration`, so their
    // lines go, and no `currentOAuthSession` is kept. The view controller gives the window
    // `WebAuthenticationSessionUserAgent` presents its sheet on (a claimed https redirect from iOS 17.4).

@MainActor func startLoginRedirect(viewController: UIViewController) async throws {

    do {

        guard let window = viewController.view.window else {
            let message = "Error presenting the login: the view controller is not in a window"
            throw ErrorFactory.fromMessage(message: message)
        }

        try await self.client.login(using: WebAuthenticationSessionUserAgent(anchor: { window }))

    } catch {

        throw ErrorFactory.fromLoginRequestError(error: error)
    }
}

    // MARK: 004-21 Logout redirect
    // Changed: `async`. The stored tokens are `client.authState`; `endSession(using:)` reads the
    // ID token from them and removes them before the browser opens (the seed's `removeTokens()`),
    // and builds the request with the configured post-logout redirect URI, so those lines go.
    // `LogoutManager.updateMetadata` edits the discovered `ProviderMetadata`, which the client is
    // then told to `use(metadata:)`. No `currentOAuthSession` is kept.

@MainActor func startLogoutRedirect(viewController: UIViewController) async throws {

    let tokenData = try await self.client.authState
    if tokenData == nil || tokenData!.idToken == nil {
        return
    }

    do {

        guard let window = viewController.view.window else {
            let message = "Error presenting the logout: the view controller is not in a window"
            throw ErrorFactory.fromMessage(message: message)
        }

        let logoutManager = self.createLogoutManager()

        let metadataWithEndSessionEndpoint = try logoutManager.updateMetadata(
            metadata: try await self.client.discover())
        try await self.client.use(metadata: metadataWithEndSessionEndpoint)

        try await self.client.endSession(using: WebAuthenticationSessionUserAgent(anchor: { window }))

    } catch {

        throw ErrorFactory.fromLogoutRequestError(error: error)
    }
}

    private func createLogoutManager() -> LogoutManager {
        LogoutManager(customLogoutEndpoint: self.configuration.customLogoutEndpoint.flatMap(URL.init(string:)))
    }

    /// The access token made unusable (004-9: a copy of the `AuthState` passed to `setAuthState`).
    func expireAccessToken() async throws {
        guard var state = try await self.client.authState else { return }
        state.accessToken += "x"
        try await self.client.setAuthState(state)
    }

    /// Both tokens made unusable.
    func expireRefreshToken() async throws {
        guard var state = try await self.client.authState else { return }
        state.accessToken += "x"
        state.refreshToken = state.refreshToken.map { $0 + "x" }
        try await self.client.setAuthState(state)
    }

    /// The seed's `clearLoginState()`.
    func clearLoginState() async {
        try? await self.client.forget()
    }
}

// MARK: 004-23 The view router
// Unchanged.

class ViewRouter: ObservableObject {

    @Published var currentViewType: Any.Type = CompaniesView.Type.self
    @Published var params: [Any] = [Any]()

    private let eventBus: EventBus
    var isTopMost: Bool

    init(eventBus: EventBus) {
        self.eventBus = eventBus
        self.isTopMost = true
    }

    func changeMainView(newViewType: Any.Type, newViewParams: [Any]) {

        self.currentViewType = newViewType
        self.params = newViewParams
    }
}

extension ViewRouter {

    // MARK: 004-24 Navigation deep link
    // Unchanged (the `else` branch of 004-1).

func handleDeepLink(url: URL) {

    if self.isTopMost {

        let oldViewType = self.currentViewType
        let result = DeepLinkHelper.handleDeepLink(url: url)
        self.changeMainView(newViewType: result.0, newViewParams: result.1)

        let isSameView = oldViewType == self.currentViewType
        if isSameView {
            self.eventBus.sendReloadMainViewEvent(causeError: false)
        }
    }
}
}

// MARK: the app's own types, named by the seed but not shown

extension SampleApp {
    /// The object the seed's SampleApp calls `self.authenticator`: the OIDCClient.
    private var authenticator: OIDCClient { self.model.authenticator.client }
}

/// The app's settings (004-12's JSON).
struct Configuration {
    let app: AppConfiguration
    let oauth: OAuthConfiguration
}

struct AppConfiguration {
    let apiBaseUrl: String
}

struct OAuthConfiguration: Sendable {
    let authority: String
    let clientId: String
    let webBaseUrl: String
    let loginRedirectPath: String
    let postLogoutRedirectPath: String
    let scope: String
    let customLogoutEndpoint: String?

    /// 004-12's keys as an `OIDCConfiguration`.
    var oidcConfiguration: OIDCConfiguration {
        OIDCConfiguration(
            issuer: URL(string: self.authority)!,
            clientAuthentication: .none(clientID: self.clientId),
            redirectURI: URL(string: self.webBaseUrl + self.loginRedirectPath)!,
            postLogoutRedirectURI: URL(string: self.webBaseUrl + self.postLogoutRedirectPath)!,
            scopes: self.scope.components(separatedBy: " "))
    }
}

enum ConfigurationLoader {
    static func load() throws -> Configuration {
        Configuration(
            app: AppConfiguration(apiBaseUrl: "https://api.authsamples.com/investments"),
            oauth: OAuthConfiguration(
                authority: "https://cognito-idp.eu-west-2.amazonaws.com/eu-west-2_CuhLeqiE9",
                clientId: "2vshs4gidsbpnjmsprhh607ege",
                webBaseUrl: "https://authsamples.com",
                loginRedirectPath: "/apps/basicmobileapp/postlogin.html",
                postLogoutRedirectPath: "/apps/basicmobileapp/postlogout.html",
                scope: "openid profile email https://api.authsamples.com/investments",
                customLogoutEndpoint: "https://login.authsamples.com/logout"))
    }
}

/// Puts the sample's logout endpoint in the provider's metadata, which Cognito does not publish.
struct LogoutManager {
    let customLogoutEndpoint: URL?

    func updateMetadata(metadata: ProviderMetadata) throws -> ProviderMetadata {
        var updated = metadata
        if let customLogoutEndpoint = self.customLogoutEndpoint {
            updated.endSessionEndpoint = customLogoutEndpoint
        }
        guard updated.endSessionEndpoint != nil else {
            throw ErrorFactory.fromMessage(message: "The provider has no end session endpoint")
        }
        return updated
    }
}

/// The API client: caching left out as in the seed's text; the token, and the one refresh and
/// retry on a 401 (004-8), are `AuthorizedHTTPClient`'s.
final class FetchClient: Sendable {
    private let apiBaseUrl: URL
    private let api: AuthorizedHTTPClient

    init(configuration: Configuration, fetchCache: FetchCache, authenticator: AuthenticatorImpl) throws {
        guard let apiBaseUrl = URL(string: configuration.app.apiBaseUrl) else {
            throw ErrorFactory.fromMessage(message: "Invalid API base URL: \(configuration.app.apiBaseUrl)")
        }
        self.apiBaseUrl = apiBaseUrl
        self.api = AuthorizedHTTPClient(client: authenticator.client, transport: try URLSessionTransport())
    }

    func getCompanies(options: FetchOptions) async throws -> [Company]? {
        var headers: HeaderFields = ["Accept": "application/json"]
        if options.causeError { headers["x-authsamples-test-exception"] = "SampleApi" }
        let response = try await self.api.send(
            TransportRequest(url: self.apiBaseUrl.appendingPathComponent("companies"), headers: headers))
        guard response.isSuccess else {
            throw ErrorFactory.fromApiResponse(response)
        }
        return try JSONDecoder().decode([Company].self, from: response.body)
    }
}

final class FetchCache: Sendable {}

struct FetchOptions {
    let cacheKey: String
    let forceReload: Bool
    let causeError: Bool
}

enum FetchCacheKeys {
    static let Companies = "companies"
}

struct ViewLoadOptions {
    let forceReload: Bool
    let causeError: Bool
}

/// Counts the views loading, and asks for a login when one of them found it required.
final class ViewModelCoordinator {
    private let eventBus: EventBus
    private let authenticator: AuthenticatorImpl
    private var loadingCount = 0
    private var loadedCount = 0

    init(eventBus: EventBus, fetchCache: FetchCache, authenticator: AuthenticatorImpl) {
        self.eventBus = eventBus
        self.authenticator = authenticator
    }

    func onMainViewModelLoading() {
        self.loadingCount += 1
    }

    func onMainViewModelLoaded(cacheKey: String) {
        self.loadedCount += 1
    }
}

enum DeviceSecurity {
    static func isDeviceSecured() -> Bool { true }
}

enum DeepLinkHelper {
    /// `/companies/2/transactions` → the transactions of company 2; anything else → the companies.
    static func handleDeepLink(url: URL) -> (Any.Type, [Any]) {
        let parts = url.pathComponents.filter { $0 != "/" }
        if let index = parts.firstIndex(of: "companies"), parts.count > index + 2, parts[index + 2] == "transactions" {
            return (TransactionsView.Type.self, [parts[index + 1]])
        }
        return (CompaniesView.Type.self, [])
    }
}

final class EventBus: ObservableObject {
    let loginRequiredTopic = PassthroughSubject<Void, Never>()
    let reloadDataTopic = PassthroughSubject<ReloadDataEvent, Never>()

    func sendLoginRequiredEvent() {
        self.loginRequiredTopic.send(())
    }

    func sendReloadMainViewEvent(causeError: Bool) {
        self.reloadDataTopic.send(ReloadDataEvent(causeError: causeError))
    }
}

struct ReloadDataEvent {
    let causeError: Bool
}

final class OrientationHandler: ObservableObject {
    @Published var isLandscape = false
}

struct Company: Decodable {
    let id: Int
    let name: String
}

/// An error as the views show it.
struct UIError: Error {
    var statusCode = 0
    var errorCode: String
    var message: String
}

enum ErrorCodes {
    static let loginRequired = "login_required"
    static let redirectCancelled = "redirect_cancelled"
    static let loginRequestFailed = "login_request_failed"
    static let logoutRequestFailed = "logout_request_failed"
    static let apiError = "api_error"
    static let generalError = "general_error"
}

enum ErrorFactory {
    static func fromException(error: Error) -> UIError {
        if let uiError = error as? UIError { return uiError }
        if let oidcError = error as? OIDCError {
            switch oidcError.code {
            case .loginRequired: return UIError(errorCode: ErrorCodes.loginRequired, message: "Login required")
            case .cancelled: return UIError(errorCode: ErrorCodes.redirectCancelled, message: "The login was cancelled")
            default: break
            }
        }
        return UIError(errorCode: ErrorCodes.generalError, message: "\(error)")
    }

    static func fromMessage(message: String) -> UIError {
        UIError(errorCode: ErrorCodes.generalError, message: message)
    }

    static func fromLoginRequestError(error: Error) -> UIError {
        var uiError = fromException(error: error)
        if uiError.errorCode == ErrorCodes.generalError { uiError.errorCode = ErrorCodes.loginRequestFailed }
        return uiError
    }

    static func fromLogoutRequestError(error: Error) -> UIError {
        var uiError = fromException(error: error)
        if uiError.errorCode == ErrorCodes.generalError { uiError.errorCode = ErrorCodes.logoutRequestFailed }
        return uiError
    }

    static func fromApiResponse(_ response: TransportResponse) -> UIError {
        UIError(statusCode: response.status, errorCode: ErrorCodes.apiError, message: response.bodyText)
    }
}

enum Colors {
    static let lightBlue = Color(red: 0.53, green: 0.81, blue: 0.98)
}

enum ViewControllerHelper {
    @MainActor static func getRootViewController() -> UIViewController? {
        UIApplication.shared.connectedScenes
            .compactMap { ($0 as? UIWindowScene)?.keyWindow }
            .first?.rootViewController
    }
}

/// The user's name in the title, from the UserInfo endpoint.
final class UserInfoViewModel: ObservableObject {
    private let client: OIDCClient
    @Published var name = ""

    init(client: OIDCClient) {
        self.client = client
    }

    func load() {
        Task {
            let userInfo = try? await self.client.userInfo()
            let name = [userInfo?[string: "given_name"], userInfo?[string: "family_name"]].compactMap { $0 }.joined(separator: " ")
            await MainActor.run { self.name = name }
        }
    }
}

final class TransactionsViewModel: ObservableObject {}

struct TitleView: View {
    @ObservedObject var userInfoViewModel: UserInfoViewModel

    var body: some View {
        HStack {
            Text("OAuth Demo App").font(.title2)
            Spacer()
            Text(self.userInfoViewModel.name)
        }
        .padding()
        .onAppear(perform: self.userInfoViewModel.load)
    }
}

struct HeaderButtonsView: View {
    let onHome: () -> Void
    let onReloadData: () -> Void
    let onExpireAccessToken: () -> Void
    let onExpireRefreshToken: () -> Void
    let onLogout: () -> Void

    var body: some View {
        HStack {
            Button("Home", action: self.onHome)
            Button("Reload", action: self.onReloadData)
            Button("Expire Access Token", action: self.onExpireAccessToken)
            Button("Expire Refresh Token", action: self.onExpireRefreshToken)
            Button("Logout", action: self.onLogout)
        }
        .font(.caption)
    }
}

struct ErrorSummaryView: View {
    let error: UIError
    let hyperlinkText: String
    let dialogTitle: String
    let padding: EdgeInsets
    @State private var showingDetails = false

    var body: some View {
        Button(self.hyperlinkText) { self.showingDetails = true }
            .foregroundStyle(.red)
            .padding(self.padding)
            .alert(self.dialogTitle, isPresented: self.$showingDetails) {
                Button("OK") {}
            } message: {
                Text("\(self.error.errorCode): \(self.error.message)")
            }
    }
}

struct SessionView: View {
    let sessionId: String

    var body: some View {
        Text("API Session Id: \(self.sessionId)").font(.footnote)
    }
}

struct BlankView: View {
    var body: some View { EmptyView() }
}

struct DeviceNotSecuredView: View {
    var body: some View { Text("Set a passcode on the device to use the app") }
}

struct LoginRequiredView: View {
    var body: some View { Text("You are logged out: click Home to sign in") }
}

struct TransactionsView: View {
    @ObservedObject var model: TransactionsViewModel
    let viewRouter: ViewRouter

    var body: some View { Text("Transactions") }
}

struct CompanyItemView: View {
    let viewRouter: ViewRouter
    let company: Company

    var body: some View {
        Button(self.company.name) {
            self.viewRouter.changeMainView(newViewType: TransactionsView.Type.self, newViewParams: [self.company.id])
        }
    }
}
