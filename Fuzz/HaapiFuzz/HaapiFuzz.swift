import Foundation
import FuzzHarnesses

// Built by Scripts/fuzz.sh with HAAPI_FUZZ=1 (Package.swift adds `-sanitize=fuzzer -D FUZZING`):
// libFuzzer's entry point runs the harness named by HAAPI_FUZZ_TARGET. Built normally:
// `haapi-fuzz TARGET FILE|DIR...` replays inputs.

#if FUZZING
    private let harness: FuzzHarness = {
        let name = ProcessInfo.processInfo.environment["HAAPI_FUZZ_TARGET"] ?? ""
        guard let harness = FuzzHarness(rawValue: name) else {
            fatalError("set HAAPI_FUZZ_TARGET to one of: \(FuzzHarness.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return harness
    }()

    @_cdecl("LLVMFuzzerTestOneInput")
    public func haapiFuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
        let violations = harness.run(data)
        if !violations.isEmpty { fatalError(violations.joined(separator: "; ")) }
        return 0
    }

    /// libFuzzer's driver (LLVM 12 and later), started from the executable's entry point.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    // SwiftPM links an executable's entry point as `<module>_main`; libFuzzer's own `main` is not used.
    @_cdecl("haapi_fuzz_main")
    public func haapiFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments, haapiFuzzOneInput)
    }
#else
    @main
    enum HaapiFuzzReplay {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            guard let name = arguments.first, let harness = FuzzHarness(rawValue: name), arguments.count > 1 else {
                FileHandle.standardError.write(
                    Data("usage: haapi-fuzz \(FuzzHarness.allCases.map(\.rawValue).joined(separator: "|")) FILE|DIR...\n".utf8))
                exit(2)
            }
            let failures = harness.replay(Array(arguments.dropFirst()))
            for failure in failures { FileHandle.standardError.write(Data((failure + "\n").utf8)) }
            exit(failures.isEmpty ? 0 : 1)
        }
    }
#endif
