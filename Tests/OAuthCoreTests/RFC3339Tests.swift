import Foundation
import HaapiTesting
import Testing

@testable import OAuthCore

/// The stored expiry's reader: the moment RFC 3339 says, as Foundation's own ISO 8601 parser
/// reads it, for any date, and nothing for text that is not one.
@Suite struct RFC3339Tests {
    @Test func theExamplesOfTheRFCReadAsTheySay() throws {
        // RFC 3339 section 5.8.
        func seconds(_ text: String) -> Double { RFC3339.date(text)?.timeIntervalSince1970 ?? .nan }
        #expect(abs(seconds("1985-04-12T23:20:50.52Z") - 482_196_050.52) < 1e-6)
        #expect(RFC3339.date("1996-12-19T16:39:57-08:00")?.timeIntervalSince1970 == 851_042_397)
        #expect(abs(seconds("1937-01-01T12:00:27.87+00:20") - -1_041_337_172.13) < 1e-6)
        #expect(RFC3339.date("1970-01-01T00:00:00Z")?.timeIntervalSince1970 == 0)
        #expect(RFC3339.date("2000-02-29T00:00:00Z")?.timeIntervalSince1970 == 951_782_400)
    }

    @Test func anyMomentReadsAsFoundationReadsIt() throws {
        var random = SplitMix(state: 3339)
        let formats = [Date.ISO8601FormatStyle(), Date.ISO8601FormatStyle(includingFractionalSeconds: true)]
        for index in 0..<2_000 {
            // From 1600 to 9999 (before the Gregorian calendar Foundation counts in the Julian one,
            // where RFC 3339 keeps to the Gregorian), whole and fractional seconds.
            let seconds = Double(random.next() % 265_078_396_800) - 11_676_096_000 + Double(random.next() % 1000) / 1000
            let date = Date(timeIntervalSince1970: seconds)
            let text = date.formatted(formats[index % 2])
            let expected = try formats[index % 2].parse(text)
            let read = RFC3339.date(text)?.timeIntervalSince1970 ?? .nan
            #expect(abs(read - expected.timeIntervalSince1970) < 1e-3, "\(text)")
        }
    }

    @Test func textThatIsNoMomentIsRefused() {
        for text in [
            "", "2026-11-29", "2026-11-29T10:00:00", "2026-11-29T10:00Z", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T10:60:00Z", "2026-11-29T10:00:00.Z",
            "2026-11-29T10:00:00+0100", "2026-11-29T10:00:00Z ", " 2026-11-29T10:00:00Z", "２０２６-11-29T10:00:00Z",
            "2026-11-29T10:00:00+24:00", "+2026-11-29T10:00:00Z",
        ] {
            #expect(RFC3339.date(text) == nil, "\(text)")
        }
    }
}
