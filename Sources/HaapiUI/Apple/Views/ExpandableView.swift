#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
    import UIKit

    extension ElementDrawing {
        /// A title that opens to show `body` (`ExpandableView`), in `style` (plain when `nil`).
        func expandableView(title: String, body: String, style: ExpandableViewStyle?) -> UIView {
            // A configured button: its title wraps at every text size (an old-style button's title
            // label, even set to any number of lines, is clipped at the largest).
            var configuration = UIButton.Configuration.plain()
            configuration.contentInsets = .zero
            configuration.titleAlignment = .leading
            configuration.imagePadding = 8
            if let style {
                let label = UILabel()
                style.titleTextAppearance.apply(to: label, text: title, color: color(style.titleTextColorName))
                configuration.attributedTitle =
                    label.attributedText.flatMap { try? AttributedString($0, including: \.uiKit) } ?? AttributedString(title)
            } else {
                configuration.title = title
            }
            configuration.image = image(style?.iconImageName)
            let header = UIButton(configuration: configuration)
            header.contentHorizontalAlignment = .leading
            header.tintColor = color(style?.iconTintColorName)
            let text = UILabel()
            if let style {
                style.contentTextAppearance.apply(to: text, text: body, color: color(style.contentTextColorName))
            } else {
                text.text = body
                text.numberOfLines = 0
            }
            text.isHidden = true
            header.addAction(
                UIAction { [weak header] _ in
                    text.isHidden.toggle()
                    // The chevron points down while the text shows.
                    header?.imageView?.transform = text.isHidden ? .identity : CGAffineTransform(rotationAngle: .pi / 2)
                    if !text.isHidden { UIAccessibility.post(notification: .layoutChanged, argument: text) }
                }, for: .touchUpInside)
            let column = UIStackView(arrangedSubviews: [header, text])
            column.axis = .vertical
            column.spacing = 8
            border(column, colorNamed: style?.borderColorName, width: style?.borderWidth ?? 0, cornerRadius: style?.cornerRadius ?? 0)
            column.backgroundColor = color(style?.backgroundColorName)
            column.isLayoutMarginsRelativeArrangement = true
            column.directionalLayoutMargins = style?.directionalInsets ?? .zero
            return column
        }
    }
#endif
