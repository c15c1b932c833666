import Foundation
import Testing

@testable import HaapiUI

/// ``HaapiUIKitError`` as Curity declares it: `Equatable` and `LocalizedError`.
@Suite struct HaapiUIKitErrorTests {
    struct Wrapped: Error { let code: Int }

    @Test func errorsAreEqualCaseByCaseAndValueByValue() {
        #expect(HaapiUIKitError.illegalState("a") == .illegalState("a"))
        #expect(HaapiUIKitError.illegalState("a") != .illegalState("b"))
        #expect(HaapiUIKitError.unsupportedMap(objName: "X", expectedObjName: "Y") == .unsupportedMap(objName: "X", expectedObjName: "Y"))
        #expect(HaapiUIKitError.unsupportedMap(objName: "X", expectedObjName: "Y") != .unsupportedMap(objName: "X", expectedObjName: "Z"))
        #expect(HaapiUIKitError.unsupported(cause: "c") != .illegalState("c"))
        #expect(HaapiUIKitError.other(Wrapped(code: 1)) == .other(Wrapped(code: 1)))
        #expect(HaapiUIKitError.other(Wrapped(code: 1)) != .other(Wrapped(code: 2)))
    }

    @Test func itsDescriptionIsWhatFoundationShows() {
        let error: any Error = HaapiUIKitError.unsupported(cause: "the step kind X")
        #expect((error as? any LocalizedError)?.errorDescription == "the step kind X")
        #expect(error.localizedDescription == "the step kind X")
    }
}
