import OAuthCore

/// An app's theme checked as a whole, beyond what reading each style checks: reading a style
/// fails on a missing key or a value of the wrong type, but a misspelt key or section is simply
/// never read, and a colour name found nowhere draws nothing. Either would leave the screen
/// silently unlike what the app asked for (a Login button white on a transparent background).
public enum ThemeCheck {
    /// What is wrong with `app`, laid over `kit`, each a ``ThemeError`` naming the section and key:
    /// - a key the kit's section of that name does not have (`backgroundColourName`), naming the
    ///   nearest one it has;
    /// - a section the kit does not have whose name is near one it has (`ActionableButton.Primery`):
    ///   a section far from all of them is the app's own (for its custom screens), and is kept;
    /// - a top-level value the kit does not have (`fontNmae`);
    /// - with `colorExists`, a colour name (a key ending in `ColorName`) of the app's that names no
    ///   colour, saying where it was looked for (`lookedIn`: "the kit's colours and Assets.xcassets").
    public static func problems(
        of app: Theme, over kit: Theme, colorExists: ((String) -> Bool)? = nil, lookedIn: String = "the kit's colours"
    ) -> [ThemeError] {
        var problems: [ThemeError] = []
        let kitSections = kit.values.compactMap { name, value -> String? in if case .dictionary = value { name } else { nil } }
        for (name, value) in app.values.sorted(by: { $0.key < $1.key }) {
            switch (value, kit.values[name]) {
            case (.dictionary(let keys), .dictionary(let known)?):
                for key in keys.keys.sorted() where known[key] == nil {
                    let nearest = NearestName.to(key, among: known.keys.sorted()).map { "; did you mean \"\($0)\"?" } ?? ""
                    problems.append(
                        ThemeError(source: app.source, section: name, key: key, reason: "the kit's \"\(name)\" has no such key\(nearest)"))
                }
            case (.dictionary, nil):
                if let nearest = NearestName.to(name, among: kitSections.sorted()) {
                    problems.append(
                        ThemeError(source: app.source, section: name, reason: "the kit has no such section; did you mean \"\(nearest)\"?"))
                }
            case (_, nil):
                let known = kit.values.keys.filter { !kitSections.contains($0) }.sorted()
                let nearest = NearestName.to(name, among: known).map { "; did you mean \"\($0)\"?" } ?? ""
                problems.append(ThemeError(source: app.source, key: name, reason: "the kit's theme has no such value\(nearest)"))
            default:
                break
            }
        }
        guard let colorExists else { return problems }
        for (name, value) in app.values.sorted(by: { $0.key < $1.key }) {
            guard case .dictionary(let keys) = value else { continue }
            for (key, value) in keys.sorted(by: { $0.key < $1.key }) where key.hasSuffix("ColorName") {
                guard case .string(let color) = value, !color.isEmpty, !colorExists(color) else { continue }
                problems.append(
                    ThemeError(
                        source: app.source, section: name, key: key, reason: "names the colour \"\(color)\", which is not among \(lookedIn)"
                    ))
            }
        }
        return problems
    }
}
