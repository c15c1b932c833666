#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
    import UIKit

    extension ElementDrawing {
        /// A checkbox and its label (`CheckboxView`), and what reads whether it is checked.
        func checkboxView(_ checkbox: ScreenItem.Checkbox, style: CheckboxViewStyle) -> (view: UIView, isChecked: () -> Bool) {
            var checked = checkbox.isChecked
            let box = UIButton(type: .custom)
            box.widthAnchor.constraint(equalToConstant: style.checkboxWidth).isActive = true
            box.heightAnchor.constraint(equalToConstant: style.checkboxHeight).isActive = true
            border(box, colorNamed: style.borderColorName, width: style.borderWidth, cornerRadius: style.cornerRadius)
            let label = UILabel()
            style.textAppearance.apply(to: label, text: checkbox.label, color: color(style.textColorName))
            // The box speaks for the row: its label (with its error), and its state in the kit's words.
            label.isAccessibilityElement = false
            box.accessibilityLabel = ScreenBuilder(strings: strings).accessibility(of: .checkbox(checkbox)).label
            let strings = strings
            let draw = { [weak self, weak box] in
                box?.setImage(self?.image(checked ? style.imageNameChecked : style.imageNameUnchecked), for: .normal)
                box?.accessibilityTraits = checked ? [.button, .selected] : .button
                box?.accessibilityValue = strings.string(checked ? .checked : .notChecked)
            }
            draw()
            box.isEnabled = !checkbox.isReadonly
            box.addAction(
                UIAction { _ in
                    checked.toggle()
                    draw()
                }, for: .touchUpInside)
            let row = UIStackView(arrangedSubviews: [box, label])
            // The whole row is the target, its label too, at least 44 points high: the box keeps its look.
            row.heightAnchor.constraint(greaterThanOrEqualToConstant: ScreenAccessibility.minimumTarget).isActive = true
            if !checkbox.isReadonly {
                label.isUserInteractionEnabled = true
                row.addGestureRecognizer(UITapGestureRecognizer(target: box, action: #selector(UIButton.sendTap)))
            }
            row.spacing = style.iconTextPadding
            row.alignment = .center
            row.isLayoutMarginsRelativeArrangement = true
            row.directionalLayoutMargins = style.directionalInsets
            row.backgroundColor = color(style.backgroundColorName)
            return (row, { checked })
        }
    }

    extension UIButton {
        /// Taps the button, as a tap on a view that stands for it (a checkbox's label) does.
        @objc func sendTap() { sendActions(for: .touchUpInside) }
    }
#endif
