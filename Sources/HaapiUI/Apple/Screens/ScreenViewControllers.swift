#if canImport(UIKit) && canImport(CoreImage) && !os(watchOS) && !os(tvOS)
    import UIKit

    // The kit's screens, one per kind of model, as Curity's kit declares them. What each shows is
    // decided by ``ScreenBuilder`` (tested on every platform); the base draws it, in the screen's style.

    /// Fields and buttons: login, registration, consent (Curity's `FormViewController`). It shows
    /// the complaints of an invalid or rejected submission at its fields, and the next form in place.
    @MainActor @preconcurrency open class FormViewController: BaseViewController<any FormModel, FormViewControllerStyle> {
        /// Shows the complaints of an invalid or rejected submission at the fields; `false` for other problems.
        @discardableResult
        @preconcurrency open override func handleProblemModel(_ problemModel: any ProblemModel) -> Bool { showCorrections(problemModel) }

        /// Shows `formModel` in place (a continue-same answer).
        @preconcurrency open override func handleFormModel(_ formModel: any FormModel) -> Bool {
            stopLoading()
            show(formModel)
            return true
        }
    }

    /// A choice of authenticator, as a list or as tabs (Curity's `SelectorViewController`).
    @MainActor @preconcurrency open class SelectorViewController: BaseViewController<any SelectorModel, SelectorViewControllerStyle> {}

    /// A wait, polled by the flow, with the time left (Curity's `PollingViewController`).
    @MainActor @preconcurrency
    open class PollingViewController: BaseViewController<any PollingModel, PollingViewControllerStyle>, PollingModelUpdatable {
        /// A wait screen; `notificationCenter` is Curity's parameter (the flow's polling does not need it).
        public init(
            _ model: any PollingModel, style: PollingViewControllerStyle, commonStyle: HaapiUIViewControllerStyle,
            notificationCenter: NotificationCenter
        ) {
            super.init(model, style: style, commonStyle: commonStyle)
        }

        /// A wait screen.
        public override convenience init(
            _ model: any PollingModel, style: PollingViewControllerStyle, commonStyle: HaapiUIViewControllerStyle
        ) {
            self.init(model, style: style, commonStyle: commonStyle, notificationCenter: .default)
        }

        /// Shows the next poll's answer in place (its messages and time left).
        public func update(model: any PollingModel) { show(model) }
    }

    /// BankID: the app on this device, or a QR code for another that follows the server's updates,
    /// the help text, the time left (Curity's `BankIdViewController`). Its parts are public, to
    /// restyle in a subclass's `viewDidLoad`.
    @MainActor @preconcurrency
    open class BankIdViewController: BaseViewController<any BankIdModel, BankIdViewControllerStyle>, PollingModelUpdatable {
        /// The QR code.
        public var bankIdImageView = UIImageView()
        /// How much of the wait has passed.
        public var progressBar = UIProgressView(progressViewStyle: .default)
        /// The time left.
        public var countLabel = UILabel()
        /// The QR code, the wait and the help, in a column.
        public var bankIdStackView = UIStackView()
        /// The help text's title, which opens it.
        public private(set) var expandableView = UIControl()
        /// The word between "open on this device" and the QR code.
        public var orLabel = UILabel()
        /// The step's cancel button (a hidden one when it offers none).
        public private(set) var cancelButton = UIButton(type: .system)
        private var longestWait: Int?
        private lazy var qrHeight = bankIdImageView.heightAnchor.constraint(equalToConstant: 220)

        /// A BankID screen; `notificationCenter` is Curity's parameter (the flow's polling does not need it).
        public init(
            _ model: any BankIdModel, style: BankIdViewControllerStyle, commonStyle: HaapiUIViewControllerStyle,
            notificationCenter: NotificationCenter
        ) {
            super.init(model, style: style, commonStyle: commonStyle)
            bankIdStackView.axis = .vertical
            bankIdStackView.spacing = 8
            bankIdStackView.alignment = .center
            cancelButton.isHidden = true
        }

        /// A BankID screen.
        public override convenience init(
            _ model: any BankIdModel, style: BankIdViewControllerStyle, commonStyle: HaapiUIViewControllerStyle
        ) {
            self.init(model, style: style, commonStyle: commonStyle, notificationCenter: .default)
        }

        /// The kit's elements in the public parts: the QR code, the time left and its bar, the "or",
        /// the help, and the cancel button.
        open override func makeView(for item: ScreenItem) -> UIView? {
            switch item {
            case .qrCode(let data, let image):
                guard let drawn = super.makeView(for: item) as? UIImageView else { return nil }
                bankIdImageView.image = drawn.image
                bankIdImageView.contentMode = .scaleAspectFit
                bankIdImageView.isAccessibilityElement = true
                bankIdImageView.accessibilityLabel = drawn.accessibilityLabel
                // The server's image of the code arrives later: into the screen's own view.
                if data == nil, let image { load(image, into: bankIdImageView) }
                // Once: the same view takes every poll's code.
                if !qrHeight.isActive { qrHeight.isActive = true }
                for view in bankIdStackView.arrangedSubviews { view.removeFromSuperview() }
                bankIdStackView.addArrangedSubview(bankIdImageView)
                return bankIdStackView
            case .countdown(let countdown):
                // The whole wait is the server's when it says it, else the longest seen.
                longestWait = countdown.total ?? max(longestWait ?? countdown.seconds, countdown.seconds)
                countLabel.text = countdown.text
                countLabel.accessibilityLabel = countdown.text
                countLabel.accessibilityTraits.insert(.updatesFrequently)
                progressBar.progress = longestWait.map { $0 > 0 ? Float(countdown.seconds) / Float($0) : 0 } ?? 0
                progressBar.isHidden = !countdown.showsProgress
                let column = UIStackView(arrangedSubviews: [progressBar, countLabel])
                column.axis = .vertical
                column.spacing = 4
                return column
            case .text(let text):
                style.contentTextAppearance.apply(
                    to: orLabel, text: text, color: uiStylableThemeDelegate?.colorOptional(named: style.contentTextColorName))
                orLabel.textAlignment = .center
                return orLabel
            case .expandable(let title, let body):
                let help = makeExpandableView(title: title, body: body, style: style.expandableViewStyle)
                expandableView = ((help as? UIStackView)?.arrangedSubviews.first as? UIControl) ?? expandableView
                return help
            case .button(let button) where (button.action.submitted as? KitButtonItem)?.isCancel == true:
                guard let drawn = super.makeView(for: item) as? UIButton else { return nil }
                cancelButton = drawn
                return drawn
            default:
                return super.makeView(for: item)
            }
        }

        /// Shows the next poll's answer in place (a new QR code, the time left).
        public func update(model: any PollingModel) { show(model) }
    }

    /// A passkey or a security key, then the server's fallback (Curity's `WebAuthnViewController`).
    @MainActor @preconcurrency
    open class WebAuthnViewController: BaseViewController<any WebAuthnOperationModel, WebAuthnViewControllerStyle> {}

    /// A problem that ends the step: its title, messages and links (Curity's `ProblemViewController`).
    @MainActor @preconcurrency open class ProblemViewController: BaseViewController<any ProblemModel, ProblemViewControllerStyle> {}

    /// Any other step: its messages, forms, choices and links (Curity's `GenericViewController`).
    @MainActor @preconcurrency open class GenericViewController: BaseViewController<any GenericModel, GenericViewControllerStyle> {
        /// Shows the complaints of an invalid or rejected submission at the fields; `false` for other problems.
        @discardableResult
        @preconcurrency open override func handleProblemModel(_ problemModel: any ProblemModel) -> Bool { showCorrections(problemModel) }
    }

    extension ScreenAction {
        /// The button a submit action submits.
        var submitted: (any InteractionItemButtonModel)? {
            if case .submit(let button) = self { return button }
            return nil
        }
    }
#endif
