import Foundation
import HaapiCLICore
import OAuthCore

/// `--answers FILE`: `{"fields": {name: answer}, "choices": ["username-password", ...]}`.
/// Choices are taken in order, one per selector or menu, matched by authenticatorType, kind or title.
///
/// A field's answer is a string, or `{"file": PATH}` for a value that only exists once the login
/// has started, such as a one-time code sent by SMS or mail: when the field is asked, the login
/// waits (up to ``FieldAnswer/fileWaitLimit`` seconds) for PATH to exist and hold a non-empty
/// line, and answers with it. A relative PATH is taken from the answers file's directory. Write
/// the file in one go (write elsewhere, then rename), so that half a code is never read.
struct Answers: Decodable, Sendable {
    var fields: [String: FieldAnswer] = [:]
    var choices: [String] = []

    private enum CodingKeys: String, CodingKey { case fields, choices }

    init(fields: [String: FieldAnswer] = [:], choices: [String] = []) {
        self.fields = fields
        self.choices = choices
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fields = try container.decodeIfPresent([String: FieldAnswer].self, forKey: .fields) ?? [:]
        choices = try container.decodeIfPresent([String].self, forKey: .choices) ?? []
    }

    static func load(_ path: String) throws -> Answers {
        let data = try InputFiles.read(path, "the answers file", limit: InputFiles.Limit.small)
        var answers: Answers
        do { answers = try JSONDecoder().decode(Answers.self, from: data) } catch {
            throw CLIFailure(
                "the answers file \(path) is not {\"fields\": {name: \"value\" or {\"file\": PATH}}, \"choices\": [...]}: \(error)")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        answers.fields = answers.fields.mapValues { $0.resolvingFile(against: directory) }
        return answers
    }
}

/// The answer to one field of a form.
enum FieldAnswer: Decodable, Sendable, Equatable {
    /// The value itself.
    case value(String)
    /// The first line of a file, read when the field is asked (see ``Answers``).
    case file(String)

    /// How long a login waits for the file of a ``file(_:)`` answer, in seconds.
    static let fileWaitLimit: Double = 120

    /// A file answer is not an object with `"file"`.
    struct Malformed: Error, CustomStringConvertible {
        var description: String { "a field's answer is a string or {\"file\": PATH}" }
    }

    private enum CodingKeys: String, CodingKey { case file }

    init(from decoder: any Decoder) throws {
        if let value = try? decoder.singleValueContainer().decode(String.self) {
            self = .value(value)
            return
        }
        guard let container = try? decoder.container(keyedBy: CodingKeys.self), let path = try? container.decode(String.self, forKey: .file)
        else {
            throw Malformed()
        }
        self = .file(path)
    }

    /// A relative file path taken from `directory`.
    func resolvingFile(against directory: URL) -> FieldAnswer {
        guard case .file(let path) = self, !path.hasPrefix("/") else { return self }
        return .file(directory.appendingPathComponent(path).path)
    }

    /// The value, if it is there yet: a file's first line, without surrounding white space, once it is not empty.
    func currentValue() -> String? {
        switch self {
        case .value(let value): return value
        case .file(let path):
            guard let data = try? OutsideFile.read(path, limit: InputFiles.Limit.small) else { return nil }
            let line =
                String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            return line.isEmpty ? nil : line
        }
    }
}

/// One option of a question: what is shown and the names it can be answered with.
struct ChoiceOption {
    let title: String
    let names: [String]

    func matches(_ answer: String) -> Bool {
        let wanted = answer.lowercased()
        return title.lowercased() == wanted || names.contains { $0.lowercased() == wanted }
    }

    /// The options for a message about a choice that matched none: each title with the names
    /// that also choose it (`"One-time code" (sms, otp)`), leaving out a name every option has,
    /// which chooses nothing.
    static func describe(_ options: [ChoiceOption]) -> String {
        let shared =
            options.count > 1
            ? options.dropFirst().reduce(Set(options[0].names.map { $0.lowercased() })) {
                $0.intersection($1.names.map { $0.lowercased() })
            }
            : []
        return options.map { option in
            var seen: Set<String> = [option.title.lowercased()]
            let others = option.names.filter { !shared.contains($0.lowercased()) && seen.insert($0.lowercased()).inserted }
            return "\"\(option.title)\"" + (others.isEmpty ? "" : " (\(others.joined(separator: ", ")))")
        }.joined(separator: ", ")
    }
}
