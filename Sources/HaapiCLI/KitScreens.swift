import ArgumentParser
import Foundation
import HaapiCLICore
import HaapiSDK
import HaapiUI

/// The kit's screens as the command line shows them (`inspect --screen`, `preview`): the
/// language asked, the theme (an app's plist laid over the kit's), and the model of a response.
struct KitScreens {
    let strings: LocalizableStrings
    let theme: Theme
    /// The app's own theme (`--theme`), before it was laid over the kit's.
    let appTheme: Theme?
    let mapper: KitDataMapper

    /// The screens in `lang` (default: the user's languages) and the theme at `themePath` (default: the kit's).
    /// - Throws: ``CLIFailure`` when the theme cannot be read or is not one.
    init(lang: String?, themePath: String?) throws {
        strings = LocalizableStrings(languages: lang.map { [$0] } ?? LocalizableStrings.preferredLanguages, appTable: { _ in nil })
        do {
            let app = try themePath.map {
                try Theme(plist: try InputFiles.read($0, "the theme", limit: InputFiles.Limit.small), source: $0)
            }
            appTheme = app
            theme = try app.map { try Theme.kit.merging($0) } ?? Theme.kit
        } catch let error as CLIFailure {
            throw error
        } catch {
            throw CLIFailure("the theme \(error)")
        }
        mapper = KitDataMapper(appRedirect: "app://haapi", strings: strings)
    }

    /// What decides the screens.
    var builder: ScreenBuilder { ScreenBuilder(strings: strings, theme: theme) }

    /// The kit's model of `response`: a step's, or the problem's.
    /// - Throws: ``CLIFailure`` when the kit has no model of the step.
    func model(of response: HaapiDocument) throws -> any UIModel {
        switch response {
        case .representation(let step):
            do { return try mapper.mapHaapiRepresentationToInteraction(haapiRepresentation: step) } catch {
                throw CLIFailure("the kit shows no screen for this response: \(error)")
            }
        case .problem(let problem): return KitProblemModel(problem, strings: strings)
        }
    }
}

/// `--theme` and `--lang`: the look and the language of the kit's screens, for the commands that
/// draw them (`preview`, and `inspect --screen`).
struct KitLookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("An app's theme plist, laid over the kit's theme.", valueName: "plist"))
    var theme: String?

    @Option(help: ArgumentHelp("The language of the kit's texts (en, sv).", valueName: "code"))
    var lang: String?
}
