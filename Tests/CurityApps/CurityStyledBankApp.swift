import IdsvrHaapiUIKit
import Security
import SwiftUI
import UIKit

// A bank app written for Curity's UI kit that reaches past the flow: it styles its own screens
// from the kit's theme in code, shows the passkey texts the kit translates, keeps its DPoP key in
// the Keychain between launches, logs only masked values, stores Curity's numbers for settings,
// builds the kit's screens from a nonisolated factory, and names the kit's types by module where
// SwiftUI has the same names.

/// The app's own "confirm the card" screen, drawn with the kit's form style.
final class CardConfirmationViewController: UIViewController {
    private let form: FormViewControllerStyle
    private let notice: MessageViewStyle
    private let spinner: LoadingIndicatorViewStyle

    init(form: FormViewControllerStyle, notice: MessageViewStyle, spinner: LoadingIndicatorViewStyle) {
        (self.form, self.notice, self.spinner) = (form, notice, spinner)
        super.init(nibName: nil, bundle: nil)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        let header = UILabel()
        header.text = "Confirm your card"
        header.font = form.headerTextAppearance.fontText
        header.textColor = form.headerTextColor
        header.textAlignment = form.headerTextAppearance.textAlignment
        header.adjustsFontForContentSizeCategory = form.headerTextAppearance.fontTextStyle != .largeTitle

        let body = UILabel()
        body.text = "We sent a code to the phone number ending 42."
        body.font = form.contentTextAppearance.fontText
        body.textColor = form.contentTextColor
        if let traits = form.contentTextAppearance.fontSymbolicTrait,
           let descriptor = body.font.fontDescriptor.withSymbolicTraits(traits) {
            body.font = UIFont(descriptor: descriptor, size: 0)
        }

        let icon = UIImageView(image: notice.image ?? UIImage.bundledImage(named: "hui_ic_info"))
        icon.tintColor = notice.imageTintColor
        let warning = UILabel()
        warning.text = "Never share the code."
        warning.textColor = notice.textColor
        warning.font = notice.textAppearance.fontText
        let row = UIStackView(arrangedSubviews: [icon, warning])
        row.alignment = notice.alignment
        row.spacing = notice.iconTextPadding
        row.layer.borderColor = notice.borderColor.cgColor
        row.layer.borderWidth = notice.borderWidth
        row.layer.cornerRadius = notice.cornerRadius

        let progress = UIActivityIndicatorView(style: .medium)
        progress.color = spinner.strokeColor

        let content = UIStackView(arrangedSubviews: [header, body, row, progress])
        content.axis = .vertical
        content.alignment = form.contentStyle.alignment
        content.spacing = form.contentStyle.spacing
        content.backgroundColor = form.contentStyle.backgroundColor
        view.addSubview(content)
        view.backgroundColor = form.backgroundColor
    }
}

/// The app's screens come from the kit's theme, through the flow's theme delegate.
@MainActor
enum BankStyles {
    static func cardConfirmation(from theme: any UIStylableThemeDelegate, notice: MessageViewStyle,
                                 spinner: LoadingIndicatorViewStyle) throws -> CardConfirmationViewController {
        let form: FormViewControllerStyle = try theme.styleOrThrowFor(stylableType: FormViewController.self)
        return CardConfirmationViewController(form: form, notice: notice, spinner: spinner)
    }

    /// The close button of the app's own sheets looks like the flow's.
    static func closeButton(_ style: HaapiFlowViewControllerStyle) -> UIButton {
        let button = UIButton(type: .system)
        button.setImage(style.closeButtonImage, for: .normal)
        button.tintColor = style.closeButtonTintColor
        return button
    }

    /// The banner the app shows after a card is added, as the kit's banner.
    static func banner(_ style: NotificationBannerViewStyle, text: String, action: String) -> [UILabel] {
        let message = UILabel()
        message.text = text
        message.textColor = style.textColor
        let link = UILabel()
        link.text = action
        link.textColor = style.actionTextColor
        link.font = style.actionTextAppearance.fontText
        return [message, link]
    }
}

/// The passkey explanation on the app's security page, in the words the kit shows.
struct PasskeyExplanation {
    let keys: WebAuthnViewControllerStyle.TextualKeys

    var lines: [String] {
        [keys.platformMessageText, keys.platformButtonText, keys.crossPlatformMessageText, keys.crossPlatformButtonText,
         keys.passkeysNotSupportedMessageText]
    }

    func failure(registered: Bool) -> String {
        registered ? keys.registrationSuccessMessageText : keys.errorMessageText + " " + keys.retryButtonText
    }
}

/// The DPoP key tokens are bound to, kept in the Keychain between launches.
enum DpopKeychainEntry {
    static let service = "bank.dpop"

    static func save(_ dpop: Dpop, for account: String) throws {
        let data = try JSONEncoder().encode(dpop)
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                                    kSecAttrAccount as String: account]
        SecItemDelete(query as CFDictionary)
        var item = query
        item[kSecValueData as String] = data
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
    }

    static func load(for account: String) throws -> Dpop? {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                                    kSecAttrAccount as String: account, kSecReturnData as String: true]
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, let data = result as? Data else { return nil }
        return try JSONDecoder().decode(Dpop.self, from: data)
    }

    /// The header of a call to the bank's API with a token bound to the stored key.
    static func proofHeader(for account: String, url: URL, accessToken: String) throws -> [String: String] {
        guard let dpop = try load(for: account) else { return [:] }
        let proof = try dpop.createProof(httpMethod: "GET", url: url, nonce: nil, accessToken: accessToken)
        return ["DPoP": proof, "X-Key-Thumbprint": dpop.jwkThumbprint]
    }
}

/// What the app's diagnostics screen logs: masked values only.
enum Diagnostics {
    static func lines(tokens: SuccessfulTokenResponse, title: IdsvrHaapiUIKit.Message, metadata: Metadata?, configuration: Dpop) -> [String] {
        ["tokens: \(tokens.masked)", "title: \(title.masked)", "metadata: \(metadata?.masked ?? "none")",
         "key: \(configuration.masked)", "user: \("alice@bank.example".masked)"]
    }
}

/// Settings the app keeps as Curity's numbers.
enum BankSettings {
    static var keyType: CryptoKeyType {
        get { CryptoKeyType(rawValue: UserDefaults.standard.integer(forKey: "dpopKeyType")) ?? .p256 }
        set { UserDefaults.standard.set(newValue.rawValue, forKey: "dpopKeyType") }
    }

    static var assertionAlgorithm: JWTAsymmetricAlgorithm {
        JWTAsymmetricAlgorithm(rawValue: UserDefaults.standard.integer(forKey: "assertionAlgorithm")) ?? .es256
    }

    static let accessorOption = HaapiAccessorOption(rawValue: 1) ?? .all
}

/// The kit's screens, built where the app's registry asks for them (not on the main actor).
func makeBankForm(_ model: any FormModel, style: FormViewControllerStyle, commonStyle: HaapiUIViewControllerStyle) -> FormViewController {
    FormViewController(model, style: style, commonStyle: commonStyle)
}

func makeBankProblem(_ model: any ProblemModel, style: ProblemViewControllerStyle, commonStyle: HaapiUIViewControllerStyle) -> ProblemViewController {
    ProblemViewController(model, style: style, commonStyle: commonStyle)
}

/// The help links of a step, beside SwiftUI's own `Link`.
struct HelpLinks: View {
    let links: [IdsvrHaapiUIKit.Link]

    var body: some View {
        VStack {
            ForEach(links, id: \.href) { link in
                if let url = URL(string: link.href) {
                    SwiftUI.Link(link.title?.literal ?? link.rel, destination: url)
                }
            }
        }
    }
}

/// The flow's errors the app retries on.
func isRetried(_ error: HaapiUIKitError) -> Bool {
    error == .illegalState("the flow has not started") || (error as LocalizedError).errorDescription?.isEmpty == false
}
