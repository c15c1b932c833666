import Foundation
import HaapiUI
import Testing

/// Curity's default theme has a text field section `InputTextField.Curity`, which an app's plist
/// may name as `huiTextField`; the kit's theme has one too (its own values), so such an app builds.
@Suite struct CurityTextFieldThemeTests {
    @Test func anAppThemeNamingInputTextFieldCurityBuilds() throws {
        let (bundle, directory) = try ApplicationThemeTests.bundle(["AppTheme.plist": ["huiTextField": "InputTextField.Curity"]])
        defer { try? FileManager.default.removeItem(at: directory) }
        let built =
            try HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: ApplicationThemeTests.configuration)
            .setThemingPlistFileName("AppTheme", and: bundle).buildOrThrow() as? KitApplication
        let application = try #require(built)
        let curity = try Theme.kit.style(InputTextFieldStyle.self, named: "InputTextField.Curity")
        #expect(application.theme.textFieldSection == "InputTextField.Curity")
        #expect(sameValues(application.commonStyle.inputTextField, curity))
        #expect(!sameValues(curity, try Theme.kit.style(InputTextFieldStyle.self, named: "InputTextField")))
    }
}
