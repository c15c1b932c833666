#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
    import UIKit

    extension ElementDrawing {
        /// A message in `style` (`MessageView.*`): its icon, text, box and border; a heading is one
        /// to VoiceOver (`isHeader`).
        func messageView(_ text: String, style: MessageViewStyle, isHeader: Bool = false) -> UIView {
            let label = UILabel()
            style.textAppearance.apply(to: label, text: text, color: color(style.textColorName))
            if isHeader { label.accessibilityTraits.insert(.header) }
            let row = UIStackView(arrangedSubviews: [label])
            if let icon = image(style.imageName) {
                let iconView = UIImageView(image: icon)
                iconView.tintColor = color(style.imageTintColorName)
                iconView.setContentHuggingPriority(.required, for: .horizontal)
                row.insertArrangedSubview(iconView, at: 0)
            }
            row.spacing = style.iconTextPadding
            row.alignment = style.stackAlignment.uiAlignment
            row.isLayoutMarginsRelativeArrangement = true
            row.directionalLayoutMargins = style.directionalInsets
            row.backgroundColor = color(style.backgroundColorName)
            border(row, colorNamed: style.borderColorName, width: style.borderWidth, cornerRadius: style.cornerRadius)
            return row
        }
    }
#endif
