#if canImport(UIKit) && canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
import AuthenticationServices
import Combine
import UIKit

/// A view controller that receives how the flow it presents ended (the seeds'
/// `HaapiFlowResultViewController`): the `from:` of ``HaapiFlow/start(from:haapiUIKitApplication:haapiDeepLinkManageable:animated:)``.
public typealias HaapiFlowResultViewController = UIViewController & HaapiFlowResult

/// The flow's container (the seeds' `HaapiFlowViewController`): for each ``UIModel`` of its
/// ``HaapiFlowViewModel`` it shows the screen of its kind (``ScreenKind``): the app's, from the
/// application's ``ViewControllerFactoryRegistry``, else the kit's. It performs what a screen asks
/// (submit, select, follow, poll, open BankID, passkeys, the external browser), asks before the
/// user leaves a login half way, and reports errors, all in the application's theme and texts.
@available(iOSApplicationExtension, unavailable)
@MainActor public final class HaapiFlowViewController: UIViewController, ASWebAuthenticationPresentationContextProviding,
    HaapiFlowViewControllerDelegate, UIStylableThemeDelegate, UIStylable
{
    /// The flow this controller shows.
    public let viewModel: HaapiFlowViewModel
    private let onFinish: @MainActor @Sendable () -> Void
    private var cancellables = Set<AnyCancellable>()
    private let application: HaapiUIKitApplication
    /// The styles every screen shares.
    public let commonStyle: HaapiUIViewControllerStyle
    public let screenBuilder: ScreenBuilder
    /// The screen on show.
    private var current: (any HaapiUIViewController)?
    private var webSession: ASWebAuthenticationSession?
    /// The external-browser operation already launched (one launch per step shown).
    private var launchedOperation: ExternalBrowserOperationModel?
    /// The unknown client operation already handed to the app's handler.
    private var handledOperation: GenericOperationModel?
    private let banner = NotificationBanner()

    /// A controller for a new flow of `haapiUIKitApplication`.
    ///
    /// - Parameters:
    ///   - haapiFlowResult: receives how the flow ended.
    ///   - haapiDeepLinkManageable: where the flow registers while an external browser or app
    ///     is open (``HaapiDeepLinkManager/shared`` in an app).
    ///   - onFinish: runs after `haapiFlowResult` was told (``HaapiFlow`` dismisses here).
    public init(
        haapiUIKitApplication: HaapiUIKitApplication, haapiFlowResult: (any HaapiFlowResult)?,
        haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?, onFinish: @escaping @MainActor @Sendable () -> Void = {}
    ) {
        application = haapiUIKitApplication
        viewModel = HaapiFlowViewModel(haapiUIKitApplication: haapiUIKitApplication)
        screenBuilder = haapiUIKitApplication.screenBuilder
        commonStyle = haapiUIKitApplication.commonStyle
        self.onFinish = onFinish
        super.init(nibName: nil, bundle: nil)
        viewModel.deepLinkManager = haapiDeepLinkManageable
        viewModel.haapiFlowResult = FinishingResult(inner: haapiFlowResult) { [weak self] in self?.onFinish() }
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { nil }

    public override func viewDidLoad() {
        super.viewDidLoad()
        isModalInPresentation = true  // closing goes through the close button and its confirmation
        navigationItem.backButtonTitle = screenBuilder.strings.string(.back)
        if let style = try? application.theme.style(HaapiFlowViewControllerStyle.self, named: HaapiFlowViewControllerStyle.themeSection) {
            apply(style: style)
        }
        viewModel.$uiModel.receive(on: DispatchQueue.main).sink { [weak self] in self?.show($0) }.store(in: &cancellables)
        viewModel.$isLoading.receive(on: DispatchQueue.main).sink { [weak self] loading in
            if !loading { self?.current?.stopLoading() }
        }.store(in: &cancellables)
        viewModel.$error.receive(on: DispatchQueue.main).sink { [weak self] in self?.show($0) }.store(in: &cancellables)
        viewModel.$isConfirmingInterruption.receive(on: DispatchQueue.main).sink { [weak self] asking in
            if asking { self?.confirmInterruption() }
        }.store(in: &cancellables)
        Task { await viewModel.start() }
    }

    /// Applies the container's style: its background and close button.
    public func apply(style: HaapiFlowViewControllerStyle) {
        view.backgroundColor = colorOptional(named: style.backgroundColorName) ?? .systemBackground
        let close = UIBarButtonItem(
            image: imageOptional(named: style.closeButtonImageName), primaryAction: UIAction { [weak self] _ in self?.close() })
        close.tintColor = colorOptional(named: style.closeButtonTintColorName)
        close.accessibilityLabel = screenBuilder.strings.string(.cancel)
        navigationItem.leftBarButtonItem = close
    }

    // MARK: Screens

    private func show(_ model: UIModel?) {
        guard let model else { return }
        title = model.heading
        if case .clientOperation(.externalBrowser(let browser)) = model.content, launchedOperation != browser, let url = browser.launchURL {
            launchedOperation = browser
            launch(url, appRedirect: browser.appRedirect, prefersDefaultBrowser: browser.prefersDefaultBrowser)
        }
        if case .clientOperation(.generic(let operation)) = model.content, handledOperation != operation,
            let handler = application.genericClientOperationHandler
        {
            handledOperation = operation
            handler.handleGenericClientOperation(
                actionModel: operation, viewControllerProvider: { [weak self] controller in self?.present(controller, animated: true) },
                onSuccess: { [weak self] form, parameters in self?.submit(interactionActionModel: form, parameters: parameters) },
                onError: { [weak self] in
                    if let fallback = operation.actions.errorActions.first { self?.submit(interactionActionModel: fallback, parameters: [:]) }
                })
        }
        // The same screen takes the next step in place (a form's complaints, a poll's answer).
        if let current, current.handleFormModel(model) { return }
        let kind = screenBuilder.screen(for: model).kind
        do {
            let registry = application.viewControllerFactoryRegistry ?? ViewControllerFactoryRegistry()
            embed(try registry.screen(for: model, kind: kind, theme: application.theme, common: commonStyle))
        } catch {
            interruptHaapiFlowForError(error, title: screenBuilder.strings.string(.developerRuntimeTitle), message: "\(error)")
        }
    }

    private func embed(_ screen: any HaapiUIViewController) {
        if let current {
            current.willMove(toParent: nil)
            current.view.removeFromSuperview()
            current.removeFromParent()
        }
        screen.haapiFlowViewControllerDelegate = self
        screen.uiStylableThemeDelegate = self
        addChild(screen)
        screen.view.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(screen.view)
        NSLayoutConstraint.activate([
            screen.view.topAnchor.constraint(equalTo: view.topAnchor),
            screen.view.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            screen.view.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            screen.view.trailingAnchor.constraint(equalTo: view.trailingAnchor),
        ])
        screen.didMove(toParent: self)
        current = screen
    }

    // MARK: HaapiFlowViewControllerDelegate

    public func submit(interactionActionModel: FormModel, parameters: [String: String]) {
        Task { await viewModel.submit(interactionActionModel, values: parameters) }
    }

    public func select(selectorItemModel: SelectorOptionModel) {
        Task { await viewModel.select(selectorItemModel) }
    }

    public func follow(linkItemModel: LinkItemModel) {
        Task { await viewModel.followLink(linkItemModel) }
    }

    public func poll() {
        Task { await viewModel.poll() }
    }

    public func performPasskey(kind: WebAuthnAuthenticatorKind) {
        guard case .clientOperation(.webAuthn(let operation))? = viewModel.uiModel?.content else { return }
        Task { await performWebAuthn(operation) }
    }

    public func canOpenURL(_ url: URL) -> Bool { UIApplication.shared.canOpenURL(url) }

    public func openURL(_ url: URL) {
        UIApplication.shared.open(url) { [weak self] opened in
            guard !opened, let self else { return }
            self.banner.show(self.screenBuilder.strings.string(.appSchemeNotInstalled), style: self.commonStyle.notificationBanner, over: self.view)
        }
    }

    public func interruptHaapiFlowForError(_ error: any Error, title: String?, message: String?) {
        viewModel.stop()
        viewModel.haapiFlowResult?.didReceiveError(error)
        if title != nil || message != nil { HaapiLogger.error(UIKitFollowUpTag.flow, "\(title ?? ""): \(message ?? "")") }
    }

    // MARK: UIStylableThemeDelegate

    public func imageOptional(named: String?) -> UIImage? { ThemeAssets.image(named: named) }

    public func colorOptional(named: String?) -> UIColor? { ThemeAssets.color(named: named) }

    public func localizedStringForKey(key: String) -> String { screenBuilder.strings.string(forKey: key) }

    public func style<S: UIStyle>(_ type: S.Type, named name: String) throws -> S { try application.theme.style(type, named: name) }

    // MARK: Client operations

    /// Passkeys through the platform's authenticators; when none answers (or the user declines),
    /// the server's browser fallback.
    private func performWebAuthn(_ operation: WebAuthnOperationModel) async {
        do {
            let made = try await PasskeyAuthenticator(anchor: { [weak self] in self?.view.window ?? ASPresentationAnchor() }).perform(operation)
            if operation.isRegistration, let style = try? application.theme.style(WebAuthnViewControllerStyle.self) {
                banner.show(
                    localizedStringForKey(key: style.textualKeys.registrationSuccessMessageTextKey), style: style.successNotificationBannerViewStyle,
                    over: view)
            }
            await viewModel.completeWebAuthn(made.credential, kind: made.kind)
        } catch {
            HaapiLogger.info(UIKitFollowUpTag.flow, "passkeys unavailable (\(error)); taking the browser fallback")
            current?.stopLoading()
            if let fallback = operation.browserFallback { await viewModel.submit(fallback) }
        }
    }

    /// Opens `url` in an in-app browser session (the default) or the default browser; the
    /// flow goes on from the URL the browser comes back to.
    private func launch(_ url: URL, appRedirect: String, prefersDefaultBrowser: Bool) {
        if prefersDefaultBrowser {
            // The return arrives as a deep link: HaapiDeepLinkManager hands it to the flow.
            UIApplication.shared.open(url)
            return
        }
        let completion: ASWebAuthenticationSession.CompletionHandler = { [weak self] returned, _ in
            Task { @MainActor in
                guard let self else { return }
                self.webSession = nil
                if let returned { await self.viewModel.resumeExternalBrowser(url: returned) }
            }
        }
        let redirect = URLComponents(string: appRedirect)
        let session: ASWebAuthenticationSession
        if #available(iOS 17.4, macCatalyst 17.4, visionOS 1.1, *), redirect?.scheme?.lowercased() == "https", let host = redirect?.host {
            session = ASWebAuthenticationSession(url: url, callback: .https(host: host, path: redirect?.path ?? "/"), completionHandler: completion)
        } else {
            session = ASWebAuthenticationSession(url: url, callbackURLScheme: redirect?.scheme, completionHandler: completion)
        }
        session.presentationContextProvider = self
        webSession = session
        session.start()
    }

    public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        // The system asks on the main thread.
        MainActor.assumeIsolated { view.window ?? ASPresentationAnchor() }
    }

    // MARK: Errors and the end

    private func show(_ error: HaapiFlowError?) {
        guard let error, presentedViewController == nil else { return }
        current?.stopLoading()
        if let problem = error.problem, current?.handleProblemModel(problem) == true { return }
        let strings = screenBuilder.strings
        // The server's words when it sent some, else the kit's (the failure's own text is for developers: logged).
        let title = error.problem?.title(in: strings) ?? strings.string(.developerRuntimeTitle)
        let message = error.problem.map { $0.messages.map(\.text).joined(separator: "\n") } ?? strings.string(.developerRuntimeMessage)
        if error.problem == nil { HaapiLogger.error(UIKitFollowUpTag.flow, "the flow failed: \(error.title)") }
        let alert = UIAlertController(title: title, message: message, preferredStyle: .alert)
        if error.isRetryable {
            alert.addAction(UIAlertAction(title: strings.string(.webAuthnRetryButton), style: .default) { [weak self] _ in Task { await self?.viewModel.retry() } })
            alert.addAction(UIAlertAction(title: strings.string(.cancel), style: .cancel) { [weak self] _ in self?.viewModel.acknowledgeError() })
        } else if viewModel.configuration.shouldAutoHandleFlowErrorFeedback {
            alert.addAction(UIAlertAction(title: strings.string(.ok), style: .default) { [weak self] _ in self?.viewModel.acknowledgeError() })
        } else {
            return  // the flow has ended already; the app gives the feedback
        }
        present(alert, animated: true)
    }

    private func close() {
        Task { await viewModel.cancel() }
    }

    private func confirmInterruption() {
        let strings = screenBuilder.strings
        let alert = UIAlertController(
            title: strings.string(.interruptingTitle), message: strings.string(.interruptingMessage), preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: strings.string(.interruptingCancel), style: .cancel) { [weak self] _ in self?.viewModel.dismissCancel() })
        alert.addAction(UIAlertAction(title: strings.string(.interruptingConfirm), style: .destructive) { [weak self] _ in
            Task { await self?.viewModel.confirmCancel() }
        })
        present(alert, animated: true)
    }
}

/// Tells the app's result, then finishes the presentation.
@MainActor private struct FinishingResult: HaapiFlowResult {
    let inner: (any HaapiFlowResult)?
    let finish: @MainActor @Sendable () -> Void

    func didReceiveOAuthModel(_ oAuthModel: OAuthModel) {
        inner?.didReceiveOAuthModel(oAuthModel)
        finish()
    }

    func didReceiveError(_ error: Error) {
        inner?.didReceiveError(error)
        finish()
    }
}
#endif
