import Foundation

/// `--answers FILE`: `{"fields": {name: value}, "choices": ["username-password", ...]}`.
/// Choices are taken in order, one per selector or menu, matched by authenticatorType, kind or title.
struct Answers: Decodable, Sendable {
    var fields: [String: String] = [:]
    var choices: [String] = []

    private enum CodingKeys: String, CodingKey { case fields, choices }

    init(fields: [String: String] = [:], choices: [String] = []) {
        self.fields = fields
        self.choices = choices
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fields = try container.decodeIfPresent([String: String].self, forKey: .fields) ?? [:]
        choices = try container.decodeIfPresent([String].self, forKey: .choices) ?? []
    }

    static func load(_ path: String) throws -> Answers {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw CLIFailure("cannot read the answers file \(path): \(error.localizedDescription)")
        }
        do { return try JSONDecoder().decode(Answers.self, from: data) } catch {
            throw CLIFailure("the answers file \(path) is not {\"fields\": {...}, \"choices\": [...]}: \(error)")
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
        let shared = options.count > 1
            ? options.dropFirst().reduce(Set(options[0].names.map { $0.lowercased() })) { $0.intersection($1.names.map { $0.lowercased() }) }
            : []
        return options.map { option in
            var seen: Set<String> = [option.title.lowercased()]
            let others = option.names.filter { !shared.contains($0.lowercased()) && seen.insert($0.lowercased()).inserted }
            return "\"\(option.title)\"" + (others.isEmpty ? "" : " (\(others.joined(separator: ", ")))")
        }.joined(separator: ", ")
    }
}
