#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
    import UIKit

    /// A button of the theme (`ActionableButton.*`, `LinkView`) that shows a spinner in place of its
    /// title while its action runs.
    @MainActor final class ProgressButton: UIButton, ActionElement {
        private let spinner: UIActivityIndicatorView
        private var title: String?

        init(configuration: UIButton.Configuration, spinner: UIActivityIndicatorView) {
            self.spinner = spinner
            super.init(frame: .zero)
            self.configuration = configuration
            title = configuration.title
            spinner.translatesAutoresizingMaskIntoConstraints = false
            addSubview(spinner)
            NSLayoutConstraint.activate([
                spinner.centerXAnchor.constraint(equalTo: centerXAnchor), spinner.centerYAnchor.constraint(equalTo: centerYAnchor),
            ])
        }

        @available(*, unavailable)
        required init?(coder: NSCoder) { nil }

        var showsProgress: Bool = false {
            didSet {
                guard showsProgress != oldValue else { return }
                if showsProgress {
                    spinner.startAnimating()
                    configuration?.title = " "  // keeps the button's size
                    accessibilityValue = spinner.accessibilityLabel
                } else {
                    spinner.stopAnimating()
                    configuration?.title = title
                    accessibilityValue = nil
                }
            }
        }
    }

    extension ElementDrawing {
        /// A button titled `title` in `style`; its spinner is `style`'s, `spinnerSide` points wide.
        func button(
            _ title: String, style: ActionableButtonStyle, spinnerSide: Double? = nil, spinnerStyle: LoadingIndicatorViewStyle? = nil
        ) -> ProgressButton {
            var configuration = UIButton.Configuration.filled()
            configuration.title = title
            configuration.baseBackgroundColor = color(style.backgroundColorName) ?? .clear
            configuration.baseForegroundColor = color(style.textColorName)
            configuration.background.cornerRadius = style.cornerRadius
            configuration.background.strokeWidth = style.borderWidth
            configuration.background.strokeColor = color(style.borderColorName)
            configuration.image = image(style.imageName)
            configuration.imagePadding = style.iconTextPadding
            // A theme that gives no padding keeps the system's insets around the title.
            if style.directionalInsets != .zero { configuration.contentInsets = style.directionalInsets }
            let spinner = makeSpinner(spinnerStyle ?? style.loadingIndicatorViewStyle, side: spinnerSide, color: color)
            spinner.accessibilityLabel = strings.string(.waiting)
            let button = ProgressButton(configuration: configuration, spinner: spinner)
            let appearance = style.textAppearance
            // Runs again when the traits change: the title follows Dynamic Type without a redraw.
            button.configurationUpdateHandler = { button in
                let font = appearance.font(compatibleWith: button.traitCollection)
                button.configuration?.titleTextAttributesTransformer = UIConfigurationTextAttributesTransformer { attributes in
                    var attributes = attributes
                    attributes.font = font
                    return attributes
                }
            }
            // At least 44 points to tap (a theme's link is 36): the look stays, the target grows.
            button.heightAnchor.constraint(greaterThanOrEqualToConstant: max(style.minHeight, ScreenAccessibility.minimumTarget)).isActive =
                true
            return button
        }

        /// A link of the step (`LinkView`): a text button with the link's own spinner.
        func link(_ title: String, style: LinkViewStyle) -> ProgressButton {
            button(
                title, style: style.actionableButtonStyle, spinnerSide: style.loadingIndicatorSideDimension,
                spinnerStyle: style.loadingIndicatorViewStyle)
        }
    }
#endif
