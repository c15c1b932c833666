// An app that restyles, translates and replaces one of the kit's screens: the README's
// "Themes, translations and custom screens" example. Type-checked for iOS by Scripts/check-apple.sh.
import HaapiUI
import UIKit

/// The app's login form: the kit's form with the company's logo above the fields, and a check
/// of the username before it is sent.
final class BrandedFormViewController: FormViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        let logo = UIImageView(image: UIImage(named: "company_logo"))
        logo.contentMode = .scaleAspectFit
        contentStackView.insertArrangedSubview(logo, at: 0)
    }

    override func preSubmit(
        interactionActionModel: FormModel, parameters: [String: String], closure: @escaping (Bool, [String: String]) -> Void
    ) {
        var parameters = parameters
        // Usernames are case-insensitive here; the server is sent them in lower case.
        if let username = parameters["userName"] { parameters["userName"] = username.lowercased() }
        super.preSubmit(interactionActionModel: interactionActionModel, parameters: parameters, closure: closure)
    }

    /// Draws every element the kit's way, and adds the company's hint under the password field.
    override func makeView(for item: ScreenItem) -> UIView? {
        let view = super.makeView(for: item)
        guard let view, case .textField(let field) = item, field.contentType == .password else { return view }
        let hint = UILabel()
        hint.text = uiStylableThemeDelegate?.localizedStringForKey(key: "company_password_hint")
        let column = UIStackView(arrangedSubviews: [view, hint])
        column.axis = .vertical
        return column
    }
}

@MainActor enum CustomScreensSetup {
    /// The application with the company's theme (`CompanyTheme.plist` in the app: the sections
    /// and keys it changes only), its translations (the app's `Localizable.strings`, `hui_*` and
    /// its own keys, looked up first), its form screen and its words on every wait.
    static func makeApplication(configuration: HaapiUIKitConfiguration) throws -> HaapiUIKitApplication {
        let registry = ViewControllerFactoryRegistry()
            .registerViewControllerFactoryFormModel { model, style, commonStyle in
                BrandedFormViewController(model, style: style, commonStyle: commonStyle)
            }
        // Every wait says the company's words above the server's.
        let dataMapper = DataMapperBuilder(configuration: configuration)
            .customize(modelType: PollingStep.self) { step, model in
                UIModel(
                    representation: step, content: model.content,
                    messages: [MessageModel(text: "Approve the login on your phone", classList: ["heading"])] + model.messages,
                    links: model.links, forms: model.forms, selectors: model.selectors, problem: model.problem)
            }
            .build()
        return try HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: configuration)
            .setThemingPlistFileName("CompanyTheme")
            .setViewControllerFactoryRegistry(registry: registry)
            .setDataMapper(dataMapper)
            .buildOrThrow()
    }
}
