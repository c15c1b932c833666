// The floor of `haapi token`'s row in Scripts/bench.sh: a Swift program that imports
// Foundation, reads a JSON file and prints one field. What any Swift CLI pays to start.
import Foundation

let data = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
print(object?["accessToken"] as? String ?? "")
