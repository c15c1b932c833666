import ArgumentParser

/// `--profile NAME`: which saved login a command works on.
struct ProfileOption: ParsableArguments {
    @Option(help: "The profile that keeps the settings and tokens.") var profile = "default"
}
