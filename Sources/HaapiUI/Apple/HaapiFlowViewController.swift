#if canImport(UIKit) && canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
import AuthenticationServices
import Combine
import CoreImage
import UIKit

/// A view controller that receives how the flow it presents ended (the seeds'
/// `HaapiFlowResultViewController`): the `from:` of ``HaapiFlow/start(from:haapiUIKitApplication:haapiDeepLinkManageable:animated:)``.
public typealias HaapiFlowResultViewController = UIViewController & HaapiFlowResult

/// The flow's screens: each ``UIModel`` of a ``HaapiFlowViewModel`` drawn with standard UIKit
/// controls (the seeds' `HaapiFlowViewController`). A thin adapter: every decision is the view
/// model's, which is tested on every platform; this class only draws and forwards taps.
@available(iOSApplicationExtension, unavailable)
@MainActor public final class HaapiFlowViewController: UIViewController, ASWebAuthenticationPresentationContextProviding {
    /// The flow this controller shows.
    public let viewModel: HaapiFlowViewModel
    private let onFinish: @MainActor @Sendable () -> Void
    private var cancellables = Set<AnyCancellable>()
    private let scrollView = UIScrollView()
    private let stack = UIStackView()
    private let spinner = UIActivityIndicatorView(style: .medium)
    /// The inputs of the forms on screen, by form and field name.
    private var inputs: [(form: FormModel, name: String, read: () -> String)] = []
    private var webSession: ASWebAuthenticationSession?
    /// The external-browser operation already launched (one launch per step shown).
    private var launchedOperation: ExternalBrowserOperationModel?
    /// The WebAuthn operation asked of the platform already (the model is redrawn, the sheet is not).
    private var launchedWebAuthn: WebAuthnOperationModel?

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
        viewModel = HaapiFlowViewModel(haapiUIKitApplication: haapiUIKitApplication)
        self.onFinish = onFinish
        super.init(nibName: nil, bundle: nil)
        viewModel.deepLinkManager = haapiDeepLinkManageable
        viewModel.haapiFlowResult = FinishingResult(inner: haapiFlowResult) { [weak self] in self?.onFinish() }
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { nil }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        isModalInPresentation = true  // closing goes through the close button and its confirmation
        navigationItem.leftBarButtonItem = UIBarButtonItem(
            systemItem: .close, primaryAction: UIAction { [weak self] _ in self?.close() })
        navigationItem.rightBarButtonItem = UIBarButtonItem(customView: spinner)
        scrollView.translatesAutoresizingMaskIntoConstraints = false
        stack.translatesAutoresizingMaskIntoConstraints = false
        stack.axis = .vertical
        stack.spacing = 12
        view.addSubview(scrollView)
        scrollView.addSubview(stack)
        NSLayoutConstraint.activate([
            scrollView.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            scrollView.bottomAnchor.constraint(equalTo: view.safeAreaLayoutGuide.bottomAnchor),
            scrollView.leadingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.leadingAnchor),
            scrollView.trailingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.trailingAnchor),
            stack.topAnchor.constraint(equalTo: scrollView.contentLayoutGuide.topAnchor, constant: 20),
            stack.bottomAnchor.constraint(equalTo: scrollView.contentLayoutGuide.bottomAnchor, constant: -20),
            stack.leadingAnchor.constraint(equalTo: scrollView.frameLayoutGuide.leadingAnchor, constant: 20),
            stack.trailingAnchor.constraint(equalTo: scrollView.frameLayoutGuide.trailingAnchor, constant: -20),
        ])
        viewModel.$uiModel.receive(on: DispatchQueue.main).sink { [weak self] in self?.render($0) }.store(in: &cancellables)
        viewModel.$isLoading.receive(on: DispatchQueue.main).sink { [weak self] loading in
            if loading { self?.spinner.startAnimating() } else { self?.spinner.stopAnimating() }
        }.store(in: &cancellables)
        viewModel.$error.receive(on: DispatchQueue.main).sink { [weak self] in self?.show($0) }.store(in: &cancellables)
        viewModel.$isConfirmingInterruption.receive(on: DispatchQueue.main).sink { [weak self] asking in
            if asking { self?.confirmInterruption() }
        }.store(in: &cancellables)
        Task { await viewModel.start() }
    }

    // MARK: Drawing a step

    private func render(_ model: UIModel?) {
        stack.arrangedSubviews.forEach { $0.removeFromSuperview() }
        inputs = []
        guard let model else { return }
        title = model.heading
        for message in model.messages where message.text != model.heading {
            stack.addArrangedSubview(label(message.text, style: message.style))
        }
        if let problem = model.problem {
            stack.addArrangedSubview(label(problem.title, style: .error))
            for message in problem.messages where message.text != problem.title {
                stack.addArrangedSubview(label(message.text, style: .error))
            }
        }
        switch model.content {
        case .form(let forms), .continueSameStep(let forms):
            forms.forEach(addForm)
        case .consent(let consent):
            ([consent.consent].compactMap { $0 } + consent.forms.filter { $0 != consent.consent }).forEach(addForm)
        case .selector(let selector):
            if let title = selector.title { stack.addArrangedSubview(label(title, style: .heading)) }
            for option in selector.options {
                stack.addArrangedSubview(button(option.title) { [weak self] in await self?.viewModel.select(option) })
            }
        case .polling(let polling):
            stack.addArrangedSubview(label(polling.recipient.map { "Waiting for \($0)" } ?? "Waiting", style: .info))
            if case .bankID(let bankID)? = polling.clientOperation { addBankID(bankID) }
            if !polling.isAutomatic { stack.addArrangedSubview(button("Check") { [weak self] in await self?.viewModel.poll() }) }
            if let cancel = polling.cancel { addForm(cancel) }
        case .clientOperation(let operation):
            perform(operation)
        case .authorizationResponse:
            spinner.startAnimating()
        case .generic:
            model.forms.forEach(addForm)
            for selector in model.selectors {
                for option in selector.options {
                    stack.addArrangedSubview(button(option.title) { [weak self] in await self?.viewModel.select(option) })
                }
            }
        }
        for link in model.links {
            stack.addArrangedSubview(button(link.title, style: .secondary) { [weak self] in await self?.viewModel.followLink(link) })
        }
    }

    private func addForm(_ form: FormModel) {
        for field in form.inputFields {
            switch field.kind {
            case .checkbox:
                let toggle = UISwitch()
                toggle.isOn = field.isChecked
                toggle.isEnabled = !field.isReadonly
                let row = UIStackView(arrangedSubviews: [label(field.label, style: .info), toggle])
                row.axis = .horizontal
                stack.addArrangedSubview(row)
                inputs.append((form, field.name, { toggle.isOn ? (field.field.value ?? "on") : "" }))
            default:
                let input = UITextField()
                input.borderStyle = .roundedRect
                input.placeholder = field.label
                input.text = field.isSecure ? nil : field.value
                input.isSecureTextEntry = field.isSecure
                input.autocapitalizationType = .none
                input.autocorrectionType = .no
                switch field.kind {
                case .username: input.textContentType = .username
                case .password: input.textContentType = .password
                default: if field.name.lowercased().contains("otp") { input.textContentType = .oneTimeCode }
                }
                stack.addArrangedSubview(input)
                if let error = field.error { stack.addArrangedSubview(label(error.detail ?? error.reason ?? "Invalid", style: .error)) }
                inputs.append((form, field.name, { input.text ?? "" }))
            }
        }
        stack.addArrangedSubview(button(form.actionTitle, style: form.isCancel ? .secondary : .primary) { [weak self] in
            guard let self else { return }
            let values = Dictionary(self.inputs.filter { $0.form == form }.map { ($0.name, $0.read()) }, uniquingKeysWith: { _, last in last })
            await self.viewModel.submit(form, values: values)
        })
    }

    private enum ButtonStyle { case primary, secondary }

    private func button(_ title: String, style: ButtonStyle = .primary, action: @escaping @MainActor () async -> Void) -> UIButton {
        let button = UIButton(type: .system)
        button.setTitle(title, for: .normal)
        button.titleLabel?.font = .preferredFont(forTextStyle: style == .primary ? .headline : .body)
        button.addAction(UIAction { _ in Task { await action() } }, for: .touchUpInside)
        return button
    }

    private func label(_ text: String, style: MessageStyle) -> UILabel {
        let label = UILabel()
        label.text = text
        label.numberOfLines = 0
        switch style {
        case .heading: label.font = .preferredFont(forTextStyle: .title2)
        case .error: label.textColor = .systemRed
        case .warning: label.textColor = .systemOrange
        default: label.font = .preferredFont(forTextStyle: .body)
        }
        return label
    }

    // MARK: Client operations

    private func perform(_ operation: ClientOperationModel) {
        switch operation {
        case .externalBrowser(let browser):
            guard launchedOperation != browser else { break }
            launchedOperation = browser
            if let url = browser.launchURL { launch(url, appRedirect: browser.appRedirect, prefersDefaultBrowser: browser.prefersDefaultBrowser) }
        case .bankID(let bankID):
            addBankID(bankID)
        case .webAuthn(let webAuthn):
            guard launchedWebAuthn != webAuthn else { break }
            launchedWebAuthn = webAuthn
            Task { [weak self] in await self?.performWebAuthn(webAuthn) }
        default:
            break
        }
        // Every operation offers what its step offers: continue with, or give up.
        for form in operation.actions.continueActions + operation.actions.errorActions
        where !form.fields.contains(where: { $0.kind == .context }) {  // those are resumed by the returning URL
            addForm(form)
        }
    }

    /// BankID: a button that starts the app on this device, and the QR code for another.
    private func addBankID(_ bankID: BankIDOperationModel) {
        if let url = bankID.autoStartURL {
            stack.addArrangedSubview(button("Open BankID") { UIApplication.shared.open(url) })
        }
        if let data = bankID.qrData, let image = Self.qrImage(data) {
            stack.addArrangedSubview(UIImageView(image: image))
        } else if let bytes = bankID.qrCode?.imageData, let image = UIImage(data: bytes) {
            stack.addArrangedSubview(UIImageView(image: image))
        }
    }

    /// A QR code drawn by Core Image's `CIQRCodeGenerator`, scaled without smoothing.
    private static func qrImage(_ text: String) -> UIImage? {
        guard let filter = CIFilter(name: "CIQRCodeGenerator") else { return nil }
        filter.setValue(Data(text.utf8), forKey: "inputMessage")
        filter.setValue("M", forKey: "inputCorrectionLevel")
        guard let code = filter.outputImage?.transformed(by: CGAffineTransform(scaleX: 8, y: 8)),
            let drawn = CIContext().createCGImage(code, from: code.extent)
        else { return nil }
        return UIImage(cgImage: drawn)
    }

    /// Passkeys through the platform's authenticators; when none answers (or the user declines),
    /// the server's browser fallback.
    private func performWebAuthn(_ operation: WebAuthnOperationModel) async {
        do {
            let made = try await PasskeyAuthenticator(anchor: { [weak self] in self?.view.window ?? ASPresentationAnchor() }).perform(operation)
            await viewModel.completeWebAuthn(made.credential, kind: made.kind)
        } catch {
            HaapiLogger.info(UIKitFollowUpTag.flow, "passkeys unavailable (\(error)); taking the browser fallback")
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

    public func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        view.window ?? ASPresentationAnchor()
    }

    // MARK: Errors and the end

    private func show(_ error: HaapiFlowError?) {
        guard let error, presentedViewController == nil else { return }
        let alert = UIAlertController(title: error.title, message: error.problem?.messages.map(\.text).joined(separator: "\n"), preferredStyle: .alert)
        if error.isRetryable {
            alert.addAction(UIAlertAction(title: "Try again", style: .default) { [weak self] _ in Task { await self?.viewModel.retry() } })
            alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { [weak self] _ in self?.viewModel.acknowledgeError() })
        } else if viewModel.configuration.shouldAutoHandleFlowErrorFeedback {
            alert.addAction(UIAlertAction(title: "OK", style: .default) { [weak self] _ in self?.viewModel.acknowledgeError() })
        } else {
            return  // the flow has ended already; the app gives the feedback
        }
        present(alert, animated: true)
    }

    private func close() {
        Task { await viewModel.cancel() }
    }

    private func confirmInterruption() {
        let alert = UIAlertController(title: "Cancel the login?", message: nil, preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Keep going", style: .cancel) { [weak self] _ in self?.viewModel.dismissCancel() })
        alert.addAction(UIAlertAction(title: "Cancel login", style: .destructive) { [weak self] _ in Task { await self?.viewModel.confirmCancel() } })
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
