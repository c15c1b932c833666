#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
import UIKit

extension ElementDrawing {
    /// A title that opens to show `body` (`ExpandableView`), in `style` (plain when `nil`).
    func expandableView(title: String, body: String, style: ExpandableViewStyle?) -> UIView {
        let header = UIButton(type: .system)
        header.contentHorizontalAlignment = .leading
        if let style {
            let label = UILabel()
            style.titleTextAppearance.apply(to: label, text: title, color: color(style.titleTextColorName))
            header.setAttributedTitle(label.attributedText, for: .normal)
            header.titleLabel?.adjustsFontForContentSizeCategory = true
            header.titleLabel?.numberOfLines = 0
        } else {
            header.setTitle(title, for: .normal)
        }
        header.setImage(image(style?.iconImageName), for: .normal)
        header.tintColor = color(style?.iconTintColorName)
        let text = UILabel()
        if let style {
            style.contentTextAppearance.apply(to: text, text: body, color: color(style.contentTextColorName))
        } else {
            text.text = body
            text.numberOfLines = 0
        }
        text.isHidden = true
        header.addAction(UIAction { [weak header] _ in
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
