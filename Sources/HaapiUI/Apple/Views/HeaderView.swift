#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
    import UIKit

    extension ElementDrawing {
        /// The header above a screen (`HeaderView`): the app's logo and a fixed title, each when the
        /// theme names one; `nil` when it names neither.
        func headerView(_ style: HeaderViewStyle) -> UIView? {
            let logo = image(style.imageName)
            let title = style.titleText.map { strings.string(forKey: $0) }
            guard logo != nil || title != nil else { return nil }
            let column = UIStackView()
            column.axis = .vertical
            column.alignment = .center
            column.spacing = style.iconTextPadding
            if let logo {
                let logoView = UIImageView(image: logo)
                logoView.contentMode = .scaleAspectFit
                logoView.tintColor = color(style.imageTintColorName)
                // The title says who the app is; a logo alone is hidden from VoiceOver as decoration.
                logoView.isAccessibilityElement = false
                column.addArrangedSubview(logoView)
            }
            if let title {
                let label = UILabel()
                style.textAppearance.apply(to: label, text: title, color: color(style.textColorName))
                label.accessibilityTraits.insert(.header)
                column.addArrangedSubview(label)
            }
            column.isLayoutMarginsRelativeArrangement = true
            column.directionalLayoutMargins = style.directionalInsets
            column.backgroundColor = color(style.backgroundColorName)
            return column
        }
    }
#endif
