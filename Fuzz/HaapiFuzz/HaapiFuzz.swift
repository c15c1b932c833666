import FuzzHarnesses
import Foundation

// Built by Scripts/fuzz.sh with `-sanitize=fuzzer -D FUZZING`: libFuzzer's entry point runs the
// harness named by HAAPI_FUZZ_TARGET. Built normally: `haapi-fuzz TARGET FILE|DIR...` replays inputs.

#if FUZZING
private let harness: FuzzHarness = {
    let name = ProcessInfo.processInfo.environment["HAAPI_FUZZ_TARGET"] ?? ""
    guard let harness = FuzzHarness(rawValue: name) else {
        fatalError("set HAAPI_FUZZ_TARGET to one of: \(FuzzHarness.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return harness
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func haapiFuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let violations = harness.run(Data(bytes: bytes, count: count))
    if !violations.isEmpty { fatalError(violations.joined(separator: "; ")) }
    return 0
}
#else
@main
enum HaapiFuzzReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let harness = FuzzHarness(rawValue: name), arguments.count > 1 else {
            FileHandle.standardError.write(Data("usage: haapi-fuzz \(FuzzHarness.allCases.map(\.rawValue).joined(separator: "|")) FILE|DIR...\n".utf8))
            exit(2)
        }
        let failures = harness.replay(Array(arguments.dropFirst()))
        failures.forEach { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        exit(failures.isEmpty ? 0 : 1)
    }
}
#endif
