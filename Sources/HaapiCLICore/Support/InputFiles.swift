import Foundation
import OAuthCore

/// The files a command line names (`--theme`, `--answers`, `--cacert`, `--client-secret-file`,
/// `--config`, `--data @FILE`...): each read through ``OutsideFile``, so a folder, a device or a
/// file past its kind's size is refused before it is read in, and a pipe (`<(…)`, `/dev/fd/N`)
/// is read like a file. `-` is standard input where a command says so.
package enum InputFiles {
    /// How large each kind of file may be.
    package enum Limit {
        /// A secret, a key or a certificate chain of the command's own.
        package static let small = 1 << 20
        /// A CA bundle (a system's holds a few hundred certificates).
        package static let certificates = 8 << 20
        /// What a command sends or shows (an API request's body, a token or response to inspect).
        package static let content = 64 << 20
    }

    /// The file at `path` (`what` names it in the error: "the answers file"); with
    /// `standardInput`, `-` reads standard input.
    /// - Throws: ``CLIFailure`` saying what could not be read and why.
    package static func read(_ path: String, _ what: String, limit: Int, standardInput: Bool = false) throws -> Data {
        do {
            return standardInput && path == "-" ? try OutsideFile.readStandardInput(limit: limit) : try OutsideFile.read(path, limit: limit)
        } catch let refusal as OutsideFile.Refusal {
            throw failure(what, refusal)
        }
    }

    /// `cannot read WHAT PATH: WHY` (`what` may be empty: the path says it all).
    private static func failure(_ what: String, _ refusal: OutsideFile.Refusal) -> CLIFailure {
        CLIFailure("cannot read \(what.isEmpty ? "" : what + " ")\(refusal.path): \(refusal.reason)")
    }

    /// The file `name` inside `folder` (a folder named on the command line, such as
    /// `--captured`): refused when, its links resolved, it is not inside it.
    package static func read(_ name: String, in folder: URL, _ what: String, limit: Int) throws -> Data {
        do { return try OutsideFile.read(name, in: folder, limit: limit) } catch let refusal as OutsideFile.Refusal {
            throw failure(what, refusal)
        }
    }

    /// The file at `path` as UTF-8 text.
    package static func text(_ path: String, _ what: String, limit: Int) throws -> String {
        let data = try read(path, what, limit: limit)
        guard let text = String(data: data, encoding: .utf8) else { throw CLIFailure("\(what) \(path) is not UTF-8 text") }
        return text
    }
}
