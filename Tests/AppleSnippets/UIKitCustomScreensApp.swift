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
        insertView(logo, aboveView: messagesStackView)
    }

    override func preSubmit(
        interactionActionModel: any InteractionActionModel, parameters: [String: any Sendable],
        closure: @escaping (Bool, [String: any Sendable]) -> Void
    ) {
        var parameters = parameters
        // Usernames are case-insensitive here; the server is sent them in lower case.
        if let username = parameters["userName"] as? String { parameters["userName"] = username.lowercased() }
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

/// Forms headed by the company's greeting: the kit's model of the step, one message added.
struct CompanyFormModel: FormModel {
    let base: any FormModel
    var messageItems: [any InfoMessageModel] {
        [KitInfoMessage(text: "Welcome to Company", messageStyleAttribute: .heading)] + base.messageItems
    }
    var interactionItems: [any InteractionItemModel] { base.interactionItems }
    var linkItems: [any LinkItemModel] { base.linkItems }
    var templateArea: String? { base.templateArea }
    var viewName: String? { base.viewName }
}

@MainActor enum CustomScreensSetup {
    /// The application with the company's theme (`CompanyTheme.plist` in the app: the sections
    /// and keys it changes only), its translations (the app's `Localizable.strings`, `hui_*` and
    /// its own keys, looked up first), its form screen and its greeting on every form.
    static func makeApplication(configuration: HaapiUIKitConfiguration) throws -> any HaapiUIKitApplication {
        let registry = ViewControllerFactoryRegistry()
            .registerViewControllerFactoryFormModel { model, style, commonStyle in
                BrandedFormViewController(model, style: style, commonStyle: commonStyle)
            }
        let stock = DataMapperBuilder(configuration: configuration).build()
        let dataMapper = DataMapperBuilder(configuration: configuration)
            .customize(modelType: InteractiveFormStep.self) { response in
                let model = try stock.mapHaapiRepresentationToInteraction(haapiRepresentation: response as! InteractiveFormStep)
                return (model as? any FormModel).map(CompanyFormModel.init) ?? model
            }
            .build()
        return try HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: configuration)
            .setThemingPlistFileName("CompanyTheme")
            .setViewControllerFactoryRegistry(registry: registry)
            .setDataMapper(dataMapper)
            .buildOrThrow()
    }
}
