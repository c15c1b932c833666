#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
    import UIKit

    /// A select field (`TextPickerView`): it shows the chosen option, and opens a wheel with a
    /// toolbar whose Done closes it, in place of the keyboard.
    @MainActor final class PickerField: PaddedTextField, UIPickerViewDataSource, UIPickerViewDelegate {
        private let options: [ScreenItem.Picker.Option]
        private let style: TextPickerViewStyle
        private let color: (String?) -> UIColor?
        /// The option chosen.
        private(set) var chosen: ScreenItem.Picker.Option?

        init(_ picker: ScreenItem.Picker, style: TextPickerViewStyle, drawing: ElementDrawing) {
            options = picker.options
            self.style = style
            color = drawing.color
            chosen = picker.options.first(where: \.isSelected) ?? picker.options.first
            super.init(frame: .zero)
            text = chosen?.label
            font = style.textAppearance.fontText
            adjustsFontForContentSizeCategory = true
            textAlignment = style.textAppearance.textAlignment
            textColor = drawing.color(style.textColorName)
            backgroundColor = drawing.color(style.backgroundColorName)
            let insets = style.directionalInsets
            padding = UIEdgeInsets(top: insets.top, left: insets.leading, bottom: insets.bottom, right: insets.trailing)
            accessibilityLabel = picker.label
            let wheel = UIPickerView()
            wheel.dataSource = self
            wheel.delegate = self
            wheel.backgroundColor = drawing.color(style.itemBackgroundColorName)
            if let chosen, let row = options.firstIndex(of: chosen) { wheel.selectRow(row, inComponent: 0, animated: false) }
            inputView = wheel
            let toolbar = UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
            toolbar.barTintColor = drawing.color(style.toolbarBackgroundColorName)
            toolbar.tintColor = drawing.color(style.toolbarTextTintColorName)
            toolbar.items = [
                .flexibleSpace(),
                UIBarButtonItem(
                    title: drawing.strings.string(.done), primaryAction: UIAction { [weak self] _ in self?.resignFirstResponder() }),
            ]
            toolbar.sizeToFit()
            inputAccessoryView = toolbar
        }

        @available(*, unavailable)
        required init?(coder: NSCoder) { nil }

        // The field only opens the wheel: no caret, no editing menu.
        override func caretRect(for position: UITextPosition) -> CGRect { .zero }
        override func canPerformAction(_ action: Selector, withSender sender: Any?) -> Bool { false }
        // A hardware keyboard types nothing into it either: the wheel is the only way to choose.
        override func insertText(_ text: String) {}
        override func deleteBackward() {}

        func numberOfComponents(in pickerView: UIPickerView) -> Int { 1 }

        func pickerView(_ pickerView: UIPickerView, numberOfRowsInComponent component: Int) -> Int { options.count }

        func pickerView(_ pickerView: UIPickerView, viewForRow row: Int, forComponent component: Int, reusing view: UIView?) -> UIView {
            let label = (view as? UILabel) ?? UILabel()
            style.textAppearance.apply(to: label, text: options[row].label, color: color(style.textColorName))
            label.backgroundColor = color(style.itemBackgroundColorName)
            return label
        }

        func pickerView(_ pickerView: UIPickerView, didSelectRow row: Int, inComponent component: Int) {
            chosen = options[row]
            text = options[row].label
        }
    }
#endif
