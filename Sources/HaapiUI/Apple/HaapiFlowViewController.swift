#if canImport(UIKit) && canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
    import AuthenticationServices
    import Combine
    import UIKit

    /// A view controller that receives how the flow it presents ended (Curity's
    /// `HaapiFlowResultViewController`): the `from:` of ``HaapiFlow/start(from:haapiUIKitApplication:haapiDeepLinkManageable:animated:nibName:bundle:)``.
    @MainActor public protocol HaapiFlowResultViewController: UIViewController, HaapiFlowResult {}

    /// The flow's container (Curity's `HaapiFlowViewController`): for each ``UIModel`` of its
    /// ``HaapiFlowViewModel`` it shows a screen: the app's, from the application's
    /// ``ViewControllerFactoryRegistry``, else the kit's. It performs what a screen asks (submit,
    /// select, follow, poll, open BankID, passkeys, the external browser, the app's client
    /// operations), asks before the user leaves a login half way, and reports errors, all in the
    /// application's theme and texts.
    @available(iOSApplicationExtension, unavailable)
    @MainActor @preconcurrency
    public class HaapiFlowViewController: UIViewController, ASWebAuthenticationPresentationContextProviding,
        HaapiFlowViewControllerDelegate, UIStylableThemeDelegate, UIStylable, HaapiFlowDeepLinkable, ScreenBuilding, KitFlowActions,
        UIAdaptivePresentationControllerDelegate, FlowPresenting
    {
        /// The container's style (section `HaapiFlowViewController`).
        public typealias AssociatedStyle = HaapiFlowViewControllerStyle
        /// The flow this controller shows.
        public let viewModel: HaapiFlowViewModel
        /// Takes the flow off screen, then calls its completion (``HaapiFlow`` dismisses or pops).
        private let remove: @MainActor (HaapiFlowViewController, @escaping @MainActor () -> Void) -> Void
        /// When alerts go up and when the app is told the end (after the flow is off screen).
        private lazy var presentation = FlowPresentation(presenter: self)
        private var cancellables = Set<AnyCancellable>()
        private let application: any HaapiUIKitApplication
        /// The styles every screen shares.
        public let commonStyle: HaapiUIViewControllerStyle
        /// What decides each screen's elements, in the application's language and theme.
        public let screenBuilder: ScreenBuilder
        /// The application's theme.
        public var theme: Theme { application.theme }
        /// The flow's images: the server's QR codes and pictures, each loaded once.
        public var images: RemoteImages { viewModel.images }
        /// The screen on show.
        private var current: (any HaapiUIViewController)?
        private var webSession: ASWebAuthenticationSession?
        private let banner = NotificationBanner()
        /// The container's style, applied by ``apply(style:)``.
        private var flowStyle: HaapiFlowViewControllerStyle?
        /// What opened by itself when its screen showed (BankID on this device).
        private var autoOpen = AutoOpen()
        /// The way out placed in the bar, and the controller whose item it is.
        private var leaveItem = LeaveButtonPlacement<ObjectIdentifier>()

        /// A controller for a new flow of `haapiUIKitApplication`.
        ///
        /// - Parameters:
        ///   - haapiFlowResult: receives how the flow ended.
        ///   - haapiDeepLinkManageable: where the flow registers while an external browser or app
        ///     is open (``HaapiDeepLinkManager/shared`` in an app).
        ///   - nibName: Curity's parameter; the kit's screens are drawn in code, so it is not read.
        ///   - bundle: Curity's parameter, not read either.
        ///   - notificationCenter: Curity's parameter; the flow needs no notifications.
        /// - Throws: ``ThemeError`` when the application's theme lacks a style every screen needs.
        public convenience init(
            haapiUIKitApplication: any HaapiUIKitApplication, haapiFlowResult: (any HaapiFlowResult)?,
            haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?, nibName nibNameOrNil: String? = "HaapiFlowViewController",
            bundle nibBundleOrNil: Bundle? = nil, notificationCenter: NotificationCenter = .default
        ) throws {
            try self.init(
                application: haapiUIKitApplication, haapiFlowResult: haapiFlowResult, haapiDeepLinkManageable: haapiDeepLinkManageable,
                onFinish: { _, done in done() })
        }

        /// A controller whose `onFinish` takes the flow off screen at its end and then calls its
        /// completion, after which `haapiFlowResult` is told (``HaapiFlow`` dismisses or pops there).
        init(
            application: any HaapiUIKitApplication, haapiFlowResult: (any HaapiFlowResult)?,
            haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?,
            onFinish: @escaping @MainActor (HaapiFlowViewController, @escaping @MainActor () -> Void) -> Void
        ) throws {
            self.application = application
            viewModel = HaapiFlowViewModel(haapiUIKitApplication: application)
            screenBuilder = application.screenBuilder
            commonStyle = try (application as? KitApplication)?.commonStyle ?? HaapiUIViewControllerStyle(theme: application.theme)
            remove = onFinish
            super.init(nibName: nil, bundle: nil)
            viewModel.deepLinkManager = haapiDeepLinkManageable
            viewModel.haapiFlowResult = FinishingResult(inner: haapiFlowResult) { [weak self] tell in
                guard let self else { return tell() }
                self.presentation.end(tellApp: tell)
            }
        }

        @available(*, unavailable)
        required init?(coder: NSCoder) { nil }

        /// Applies the container's style, then follows the view model: each UI model shows a screen, a problem
        /// goes to the screen (else an alert), the end of a request reaches the screen; then the flow starts.
        public override func viewDidLoad() {
            super.viewDidLoad()
            isModalInPresentation = true  // closing goes through the close button and its confirmation
            navigationItem.backButtonTitle = screenBuilder.strings.string(.back)
            if let style = try? application.theme.style(HaapiFlowViewControllerStyle.self, named: HaapiFlowViewControllerStyle.themeSection)
            {
                apply(style: style)
            }
            viewModel.$uiModel.receive(on: DispatchQueue.main).sink { [weak self] in self?.show($0) }.store(in: &cancellables)
            viewModel.$problemModel.receive(on: DispatchQueue.main).sink { [weak self] problem in
                guard let self, let problem else { return }
                if self.current?.handleProblemModel(problem) != true { self.handleUIProblem(problem) }
            }.store(in: &cancellables)
            viewModel.$isLoading.receive(on: DispatchQueue.main).sink { [weak self] loading in
                // The kit's screens disable their buttons, links and tabs while a request runs; an
                // app's own screen is told when it ends.
                if let screen = self?.current as? any InteractionEnabling {
                    screen.setInteractionEnabled(!loading)
                } else if !loading {
                    self?.current?.stopLoading()
                }
            }.store(in: &cancellables)
            viewModel.$error.receive(on: DispatchQueue.main).sink { [weak self] in self?.show($0) }.store(in: &cancellables)
            viewModel.$isConfirmingInterruption.receive(on: DispatchQueue.main).sink { [weak self] asking in
                if asking { self?.confirmInterruption() }
            }.store(in: &cancellables)
            // Back from BankID or another app the step opened: a wait is polled at once.
            NotificationCenter.default.publisher(for: UIApplication.didBecomeActiveNotification).receive(on: DispatchQueue.main).sink {
                [weak self] _ in
                guard let self else { return }
                Task { await self.viewModel.pollAfterReturn() }
            }.store(in: &cancellables)
            Task { await viewModel.start() }
        }

        /// Places the close button, now that it is known whether the flow is in a navigation stack.
        public override func viewWillAppear(_ animated: Bool) {
            super.viewWillAppear(animated)
            // Where the flow is shown is known once it is in a navigation stack.
            if let flowStyle { placeLeaveButton(flowStyle) }
        }

        /// Makes a swipe down of the flow's own sheet ask the same confirmation as the close button.
        public override func viewDidAppear(_ animated: Bool) {
            super.viewDidAppear(animated)
            // A sheet's swipe down asks the same confirmation as the close button. Only the sheet
            // the flow's own navigation controller is: a sheet of the app keeps the app's delegate.
            if let navigation = navigationController, navigation.viewControllers.first === self, navigation.parent == nil,
                navigation.presentingViewController != nil, navigation.presentationController?.delegate == nil
            {
                navigation.presentationController?.delegate = self
            }
            // An error that came while the sheet was still coming up goes up now.
            presentation.presenterDidSettle()
        }

        /// A flow the app takes off screen before it ended (its sheet or destination gone, a pop)
        /// stops, and the app is told it ended (``HaapiFlowViewModel/abandon()``).
        public override func viewDidDisappear(_ animated: Bool) {
            super.viewDidDisappear(animated)
            var removed = false
            var controller: UIViewController? = self
            while let current = controller, !removed {
                removed = current.isBeingDismissed || current.isMovingFromParent
                controller = current.parent
            }
            if removed, !presentation.hasEnded { viewModel.abandon() }
        }

        /// Applies the container's style: its background and close button.
        public func apply(style: HaapiFlowViewControllerStyle) {
            view.backgroundColor = colorOptional(named: style.backgroundColorName) ?? .systemBackground
            flowStyle = style
            placeLeaveButton(style)
        }

        /// The way out of the flow, which asks before leaving a login half way: ✕ on a sheet (or as
        /// the first screen of a stack); pushed on an app's stack, a Back in place of the system's,
        /// whose pop would not ask.
        private func placeLeaveButton(_ style: HaapiFlowViewControllerStyle) {
            // The controller whose items the bar shows: this one, or the one (a SwiftUI host) that holds it.
            let owner = barOwner
            let leave = UIButton(type: .system)
            leave.tintColor = colorOptional(named: style.closeButtonTintColorName)
            leave.widthAnchor.constraint(greaterThanOrEqualToConstant: max(style.closeButtonMinWidth, ScreenAccessibility.minimumTarget))
                .isActive = true
            leave.heightAnchor.constraint(greaterThanOrEqualToConstant: max(style.closeButtonMinHeight, ScreenAccessibility.minimumTarget))
                .isActive = true
            leave.addAction(UIAction { [weak self] _ in self?.close() }, for: .touchUpInside)
            if let navigation = owner.parent as? UINavigationController, navigation.viewControllers.first !== owner {
                let back = screenBuilder.strings.string(.back)
                var configuration = UIButton.Configuration.plain()
                configuration.image = UIImage(systemName: "chevron.backward")
                configuration.title = back
                configuration.imagePadding = 4
                configuration.contentInsets = .zero
                leave.configuration = configuration
                leave.accessibilityLabel = back
                // A custom left item also turns the edge-swipe pop off, which would not ask either.
                owner.navigationItem.hidesBackButton = true
            } else {
                leave.setImage(imageOptional(named: style.closeButtonImageName), for: .normal)
                leave.accessibilityLabel = screenBuilder.strings.string(.cancel)
            }
            let item = UIBarButtonItem(customView: leave)
            owner.navigationItem.leftBarButtonItem = item
            leaveItem.didPlace(item: ObjectIdentifier(item), on: ObjectIdentifier(owner))
        }

        /// Puts the way out back in the bar when something else took its place: SwiftUI rewrites
        /// the items of the controllers it hosts when its state changes (called on its updates and
        /// layouts by the SwiftUI host).
        func keepLeaveButton() {
            guard let flowStyle else { return }
            let owner = barOwner
            let shown = owner.navigationItem.leftBarButtonItem.map(ObjectIdentifier.init)
            if leaveItem.needsPlacing(owner: ObjectIdentifier(owner), shown: shown) { placeLeaveButton(flowStyle) }
        }

        /// The controller whose items the bar shows: this one, or the one (a SwiftUI host) that holds it.
        private var barOwner: UIViewController {
            let chain = Array(sequence(first: self as UIViewController, next: \.parent))
            return LeaveButtonPlacement<ObjectIdentifier>.owner(of: chain) { $0 is UINavigationController } ?? self
        }

        /// Asks before leaving, as the close button does (a swipe down of a SwiftUI sheet).
        func askToLeave() { close() }

        // MARK: Screens

        private func show(_ model: (any UIModel)?) {
            guard let model else { return }
            // The end of the flow: the code is being exchanged under the last screen.
            if model is any AuthorizationRequestModel { return }
            let shown = screenBuilder.screen(for: model)
            title = shown.navigationTitle
            if let browser = model as? any FormOperationModel, let url = browser.url, webSession == nil {
                launch(url, prefersDefaultBrowser: (browser as? KitExternalBrowserModel)?.prefersDefaultBrowser ?? false)
            }
            if let operation = model as? any GenericOperationModel {
                perform(operation)
            }
            do {
                let registry = (application as? KitApplication)?.viewControllerFactoryRegistry ?? ViewControllerFactoryRegistry()
                let next = try registry.screen(for: model, theme: application.theme, common: commonStyle)
                // BankID on this device opens by itself, once for each launch URL, also when its
                // screen is updated in place.
                defer { if let url = autoOpen.next(shown.openOnAppear) { openOnAppear(url) } }
                // The screen on show takes the next state in place when it is the screen the model
                // would get: a wait's next answer, the next form.
                if let current, type(of: current) == type(of: next) {
                    if let polling = model as? any PollingModel, let updatable = current as? any PollingModelUpdatable {
                        updatable.update(model: polling)
                        return
                    }
                    if let form = model as? any FormModel, current.handleFormModel(form) { return }
                }
                embed(next)
            } catch {
                let alert = screenBuilder.alert(for: HaapiFlowError(failure: error))
                interruptHaapiFlowForError(error, title: alert.title, message: alert.message)
            }
        }

        /// Opens the app of `url` when the device has one; else says which scheme is missing.
        private func openOnAppear(_ url: URL) {
            guard canOpenURL(url) else {
                banner.show(
                    screenBuilder.strings.string(.appSchemeNotInstalled, url.scheme ?? url.absoluteString),
                    actionTitle: screenBuilder.strings.string(.ok),
                    style: commonStyle.notificationBanner, over: view)
                return
            }
            openURL(url)
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
            // Under everything else: a banner already up (a passkey registered) stays on top of the next step.
            view.insertSubview(screen.view, at: 0)
            // The container's padding, around every screen.
            let padding = flowStyle?.directionalInsets ?? .zero
            NSLayoutConstraint.activate([
                screen.view.topAnchor.constraint(equalTo: view.topAnchor, constant: padding.top),
                screen.view.bottomAnchor.constraint(equalTo: view.bottomAnchor, constant: -padding.bottom),
                screen.view.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: padding.leading),
                screen.view.trailingAnchor.constraint(equalTo: view.trailingAnchor, constant: -padding.trailing),
            ])
            screen.didMove(toParent: self)
            current = screen
            // VoiceOver starts reading the new screen from its top.
            UIAccessibility.post(notification: .screenChanged, argument: nil)
        }

        // MARK: HaapiFlowViewControllerDelegate

        /// Submits a screen's action with `parameters` (a button's form, an option's, a client operation's answer).
        public func submit(interactionActionModel: any InteractionActionModel, parameters: [String: any Sendable]) {
            Task { await viewModel.submit(interactionActionModel: interactionActionModel, parameters: parameters) }
        }

        /// Chooses an option of a selector.
        public func select(selectorItemModel: any SelectorItemInteractionActionModel) {
            Task { await viewModel.select(selectorItemModel) }
        }

        /// Follows a link of the step (the server's answer becomes the next screen).
        public func follow(linkItemModel: any LinkItemModel) {
            Task { await viewModel.followLink(linkItemModel.link) }
        }

        /// Shows a problem no screen handled: an alert with its title and message; the step stays.
        public func handleUIProblem(_ uiProblem: any UIProblemModel) {
            current?.stopLoading()
            let strings = screenBuilder.strings
            let messages = (uiProblem as? any ProblemModel)?.messageItems.compactMap(\.text) ?? []
            presentation.show(
                FlowAlert(
                    title: uiProblem.title ?? strings.string(.developerRuntimeTitle),
                    message: messages.isEmpty ? uiProblem.message : messages.joined(separator: "\n"), buttons: [.init(strings.string(.ok))])
            )
        }

        func poll() {
            Task { await viewModel.poll() }
        }

        func performPasskey(kind: WebAuthnAuthenticatorKind) {
            guard let operation = viewModel.uiModel as? KitWebAuthnModel else { return }
            Task { await performWebAuthn(operation, kind: kind) }
        }

        func takePasskeyFallback() {
            Task { await viewModel.takePasskeyFallback() }
        }

        /// Whether an app on the device opens `url` (BankID's, for one).
        public func canOpenURL(_ url: URL) -> Bool { UIApplication.shared.canOpenURL(url) }

        /// Opens `url` in the app that handles it; when none does, a banner says so.
        public func openURL(_ url: URL) {
            UIApplication.shared.open(url) { [weak self] opened in
                guard !opened, let self else { return }
                self.banner.show(
                    self.screenBuilder.strings.string(.appSchemeNotInstalled, url.scheme ?? url.absoluteString),
                    actionTitle: self.screenBuilder.strings.string(.ok),
                    style: self.commonStyle.notificationBanner, over: self.view)
            }
        }

        /// Stops the flow on `error` and hands it to the flow's result receiver. With a `title` or a
        /// `message`, when the kit gives the feedback (``HaapiUIKitConfiguration/shouldAutoHandleFlowErrorFeedback``),
        /// the user sees them in an alert first, and the receiver gets the error once it is dismissed;
        /// otherwise (the app gives the feedback) it gets it at once.
        public func interruptHaapiFlowForError(_ error: any Error, title: String?, message: String?) {
            viewModel.stop()
            let receiver = viewModel.haapiFlowResult
            guard title != nil || message != nil, viewModel.configuration.shouldAutoHandleFlowErrorFeedback else {
                receiver?.didReceiveError(error)
                return
            }
            HaapiLogger.error(UIKitFollowUpTag.flow, "the flow was interrupted: \(title ?? ""): \(message ?? "")")
            presentation.show(
                FlowAlert(
                    title: title, message: message, buttons: [.init(screenBuilder.strings.string(.ok)) { receiver?.didReceiveError(error) }]
                ))
        }

        // MARK: HaapiFlowDeepLinkable

        /// Whether `url` is the return the flow waits for.
        public func canHandleUrl(_ url: URL) -> Bool { viewModel.canHandleUrl(url) }

        /// Takes `url` back into the flow.
        public func handleUrl(_ url: URL) { Task { await viewModel.handleUrl(url) } }

        // MARK: UIStylableThemeDelegate

        /// The theme image named `named` (the app's asset catalog first, then the kit's); `nil` for none.
        nonisolated public func imageOptional(named: String?) -> UIImage? { ThemeAssets.image(named: named) }

        /// The theme colour named `named` (the app's asset catalog first, then the kit's palette); `nil` for none.
        nonisolated public func colorOptional(named: String?) -> UIColor? { ThemeAssets.color(named: named) }

        /// The text of `key`, in the application's texts.
        nonisolated public func localizedStringForKey(key: String) -> String { screenBuilder.strings.string(forKey: key) }

        /// The style of type `U`, read from the theme section of its type.
        /// - Throws: ``ThemeError`` when the theme lacks the section or it is malformed.
        nonisolated public func styleOrThrowFor<U: UIStyle>(stylableType: any UIStylable.Type) throws -> U {
            try application.theme.style(U.self, named: ViewControllerFactoryRegistry.themeSection(of: U.self))
        }

        // MARK: Client operations

        /// Hands an operation the kit does not know to the application's handler; its answer
        /// submits a continue action, or takes the first error action.
        private func perform(_ operation: any GenericOperationModel) {
            let errorAction = operation.actionModel.errorActions.first?.form
            application.genericClientOperationHandler.handleGenericClientOperation(
                actionModel: operation.actionModel,
                viewControllerProvider: { [weak self] controller in self?.presentAppController(controller) },
                onSuccess: { [weak self] action, parameters in
                    self?.submit(interactionActionModel: SubmittedAction(action: action), parameters: parameters)
                },
                onError: { [weak self] in
                    if let errorAction { self?.submit(interactionActionModel: SubmittedAction(action: errorAction), parameters: [:]) }
                })
        }

        /// Passkeys through the platform's authenticators; when none answers, the view model decides
        /// what the screen shows next (a retry, a message, a button to the browser fallback).
        private func performWebAuthn(_ operation: KitWebAuthnModel, kind: WebAuthnAuthenticatorKind) async {
            do {
                let made = try await PasskeyAuthenticator(anchor: { [weak self] in Self.anchor(for: self?.view) }).perform(
                    operation, authenticator: kind)
                if operation.isRegistration, let style = try? application.theme.style(WebAuthnViewControllerStyle.self) {
                    banner.show(
                        localizedStringForKey(key: style.textualKeys.registrationSuccessMessageTextKey),
                        actionTitle: screenBuilder.strings.string(.ok),
                        style: style.successNotificationBannerViewStyle, over: view)
                }
                await viewModel.completeWebAuthn(made.credential, kind: made.kind)
            } catch {
                current?.stopLoading()
                let outcome = viewModel.passkeyDidFail(PasskeyAuthenticator.failure(of: error), kind: kind)
                HaapiLogger.info(UIKitFollowUpTag.flow, "passkeys failed: \(outcome.rawValue)")
            }
        }

        /// Opens `url` in an in-app browser session (the default) or the default browser
        /// (``BrowserLaunch``); the flow goes on from the URL the browser comes back to.
        private func launch(_ url: URL, prefersDefaultBrowser: Bool) {
            var takesHTTPS = false
            if #available(iOS 17.4, macCatalyst 17.4, visionOS 1.1, *) { takesHTTPS = true }
            let launch = BrowserLaunch.choose(
                appRedirect: application.haapiUIKitConfiguration.haapiConfiguration.appRedirect,
                prefersDefaultBrowser: prefersDefaultBrowser,
                sessionTakesHTTPSCallbacks: takesHTTPS)
            let completion = Self.browserCompletion { [weak self] returned in
                guard let self else { return }
                self.webSession = nil
                if let returned { await self.viewModel.resumeExternalBrowser(url: returned) }
            }
            let session: ASWebAuthenticationSession
            switch launch {
            case .defaultBrowser:
                // The return arrives as a deep link: HaapiDeepLinkManager hands it to the flow.
                openURL(url)
                return
            case .session(let scheme):
                session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: completion)
            case .sessionForHTTPS(let host, let path):
                guard #available(iOS 17.4, macCatalyst 17.4, visionOS 1.1, *) else { return openURL(url) }
                session = ASWebAuthenticationSession(url: url, callback: .https(host: host, path: path), completionHandler: completion)
            }
            session.presentationContextProvider = self
            webSession = session
            // A session the system refuses to start (another one is on show) would leave the
            // step waiting for nothing: the default browser takes over.
            if !session.start() {
                webSession = nil
                HaapiLogger.info(UIKitFollowUpTag.flow, "the in-app browser session did not start: opening the default browser")
                openURL(url)
            }
        }

        /// The in-app browser session's completion handler, made outside the main actor: a closure
        /// written in main-actor code is isolated to it, and Swift checks the thread when the system
        /// calls it, which it may do off the main thread. This one only hops to the main actor.
        private nonisolated static func browserCompletion(
            _ returned: @escaping @MainActor @Sendable (URL?) async -> Void
        ) -> ASWebAuthenticationSession.CompletionHandler {
            { url, _ in Task { @MainActor in await returned(url) } }
        }

        /// The window a system sheet (the browser session, passkeys) presents over: the flow's, else
        /// the key window of the app's foreground scene (a step that arrived while the flow was off
        /// screen), else a window made in that scene; a window without a scene shows nothing.
        private static func anchor(for view: UIView?) -> ASPresentationAnchor {
            if let window = view?.window { return window }
            let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
            let scene = scenes.first { $0.activationState == .foregroundActive } ?? scenes.first
            if let scene { return scene.keyWindow ?? scene.windows.first ?? UIWindow(windowScene: scene) }
            return ASPresentationAnchor()
        }

        /// The window the in-app browser session presents over (the system asks on the main thread).
        public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            MainActor.onMainThread { Self.anchor(for: view) }
        }

        // MARK: Errors and the end

        private func show(_ error: HaapiFlowError?) {
            guard let error else { return }
            current?.stopLoading()
            if let problem = error.problem, current?.handleProblemModel(problem) == true { return }
            // A problem that ended the attempt is on its own screen already: closing it reports it.
            if error.problem != nil, viewModel.uiModel is any ProblemModel { return }
            let strings = screenBuilder.strings
            // The server's words when it sent some, else the kit's, with the failure's reason.
            let (title, message) = screenBuilder.alert(for: error)
            if error.problem == nil { HaapiLogger.error(UIKitFollowUpTag.flow, "the flow failed: \(error.title)") }
            let buttons: [FlowAlert.Button]
            if error.isRetryable {
                buttons = [
                    .init(strings.string(.webAuthnRetryButton)) { [weak self] in Task { await self?.viewModel.retry() } },
                    .init(strings.string(.cancel), role: .cancel) { [weak self] in self?.viewModel.acknowledgeError() },
                ]
            } else if viewModel.configuration.shouldAutoHandleFlowErrorFeedback {
                buttons = [.init(strings.string(.ok)) { [weak self] in self?.viewModel.acknowledgeError() }]
            } else {
                return  // the flow has ended already; the app gives the feedback
            }
            presentation.show(FlowAlert(title: title, message: message, buttons: buttons))
        }

        private func close() {
            Task { await viewModel.cancel() }
        }

        // MARK: UIAdaptivePresentationControllerDelegate

        /// A swipe down never closes the sheet at once: it asks, as the close button does.
        public func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool { false }

        /// The swipe down the sheet refused: the close button's path, with its confirmation.
        public func presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController) { close() }

        private func confirmInterruption() {
            let strings = screenBuilder.strings
            presentation.show(
                FlowAlert(
                    title: strings.string(.interruptingTitle), message: strings.string(.interruptingMessage),
                    buttons: [
                        .init(strings.string(.interruptingCancel), role: .cancel) { [weak self] in self?.viewModel.dismissCancel() },
                        .init(strings.string(.interruptingConfirm), role: .destructive) { [weak self] in
                            Task { await self?.viewModel.confirmCancel() }
                        },
                    ]))
        }

        // MARK: FlowPresenting: the only place the flow presents, dismisses or pops

        /// Whether an alert can go up now: on screen, not coming or going, presenting nothing.
        var canPresentAlert: Bool {
            guard viewIfLoaded?.window != nil, presentedViewController == nil, !isBeingPresented, !isMovingToParent else { return false }
            let container = navigationController ?? self
            return !container.isBeingPresented && container.transitionCoordinator == nil
        }

        /// Puts `alert` up as a system alert; `closed` runs with the button tapped once it is gone.
        func present(_ alert: FlowAlert, closed: @escaping @MainActor (FlowAlert.Button) -> Void) {
            let controller = UIAlertController(title: alert.title, message: alert.message, preferredStyle: .alert)
            for button in alert.buttons {
                let style: UIAlertAction.Style =
                    switch button.role {
                    case .normal: .default
                    case .cancel: .cancel
                    case .destructive: .destructive
                    }
                // UIKit calls an alert action's handler on the main thread, after the alert is gone.
                controller.addAction(
                    UIAlertAction(title: button.title, style: style) { _ in
                        MainActor.onMainThread { closed(button) }
                    })
            }
            present(controller, animated: true)
        }

        /// Takes the flow off screen as ``HaapiFlow`` placed it, then calls `completion`.
        func removeFlow(completion: @escaping @MainActor () -> Void) {
            remove(self, completion)
        }

        /// A controller of the app's (a client operation's own screen), over the flow.
        private func presentAppController(_ controller: UIViewController) {
            present(controller, animated: true)
        }
    }

    /// An action an application's client-operation handler submits.
    private struct SubmittedAction: InteractionActionModel {
        let action: any RepresentationActionModel
    }

    /// Finishes the presentation, then tells the app's result.
    @MainActor private struct FinishingResult: HaapiFlowResult {
        let inner: (any HaapiFlowResult)?
        /// Takes the flow off screen, then runs what it is given.
        let finish: @MainActor @Sendable (@escaping @MainActor () -> Void) -> Void

        func didReceiveOAuthModel(_ oAuthModel: any OAuthModel) {
            finish { inner?.didReceiveOAuthModel(oAuthModel) }
        }

        func didReceiveError(_ error: Error) {
            finish { inner?.didReceiveError(error) }
        }
    }
#endif
