import Foundation
import HaapiSDK
import HaapiUI
import OAuthCore
import Testing

@testable import HaapiCLICore

/// Numbers from outside the process (a provider's, a HAAPI server's, an argument) on their way to
/// what `haapi` shows: clamped by `OutsideNumber`, never a trap (security review, round 3).
@Suite("Numbers from outside")
struct NumbersFromOutsideTests {
    static let longest = OutsideNumber.longestSeconds

    @Test func outsideNumbersClampAndRefuseWhatIsNoNumber() throws {
        #expect(OutsideNumber.seconds(Int.max) == Self.longest)
        #expect(OutsideNumber.seconds(Int.min) == 0)
        #expect(OutsideNumber.seconds(-1) == 0 && OutsideNumber.seconds(300) == 300)
        #expect(try OutsideNumber.seconds(1e308, of: "x") == TimeInterval(Self.longest))
        #expect(try OutsideNumber.seconds(-5.5, of: "x") == 0)
        #expect(throws: OutsideNumberError(what: "x", value: .nan)) { try OutsideNumber.seconds(.nan, of: "x") }
        #expect(throws: OutsideNumberError(what: "x", value: .infinity)) { try OutsideNumber.seconds(.infinity, of: "x") }
        #expect(throws: OutsideNumberError(what: "x", value: -.infinity)) { try OutsideNumber.seconds(-Double.infinity, of: "x") }
        #expect(OutsideNumber.wholeSeconds(.nan) == 0)
        #expect(OutsideNumber.wholeSeconds(.infinity) == Self.longest && OutsideNumber.wholeSeconds(-.infinity) == -Self.longest)
        #expect(OutsideNumber.wholeSeconds(9.9) == 9 && OutsideNumber.wholeSeconds(-9.9) == -9)
        #expect(OutsideNumber.count(Int.max, atMost: 10) == 10 && OutsideNumber.count(-3, atMost: 10) == 0)
        #expect(OutsideNumber.date(Date(timeIntervalSince1970: 1e300)) == OutsideNumber.latestDate)
        #expect(OutsideNumber.date(Date(timeIntervalSince1970: -1e300)) == OutsideNumber.earliestDate)
        #expect(
            OutsideNumber.date(seconds: Int.max, after: Date(timeIntervalSince1970: 0)).timeIntervalSince1970 == TimeInterval(Self.longest))
        // Arithmetic on clamped values cannot overflow: milliseconds and nanoseconds of the longest fit.
        #expect(Self.longest.multipliedReportingOverflow(by: 1_000_000_000).overflow == false)
    }

    /// Finding 3: a provider's `expires_in` of `Int.max` trapped `haapi refresh` and
    /// `token --json` (`Int(Double)`), and `status` showed the year 506713.
    @Test func aProvidersExpiresInOfIntMaxIsAHundredYearsAndShowsWithoutTrapping() throws {
        let now = Date()
        for body in [
            #"{"access_token":"a","token_type":"Bearer","expires_in":9223372036854775807}"#,
            #"{"access_token":"a","token_type":"Bearer","expires_in":"9223372036854775807"}"#,
        ] {
            let response = TransportResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8),
                url: URL(string: "https://op.example/token")!)
            guard case .success(let tokens) = try TokenEndpointResponse(response, receivedAt: now) else {
                Issue.record("not a success: \(body)")
                continue
            }
            #expect(tokens.expiresIn == Self.longest)
            let state = AuthState(
                issuer: "https://op.example", clientID: "c", accessToken: "a", tokenType: "Bearer", accessTokenExpiresAt: tokens.expiresAt)
            let expiry = try #require(state.accessTokenExpiresAt)
            #expect(expiry <= OutsideNumber.latestDate)
            #expect(Calendar(identifier: .gregorian).component(.year, from: expiry) < 2200)
            let members = try ProfileReport.tokenMembers(state, profile: "p", now: now)
            #expect(members["expiresIn"]?.intValue.map { $0 > 0 && $0 <= Self.longest } == true)
            #expect(RefreshCommand.tokenAndExpiry(state).description.contains("expires in"))
        }
        // A stored expiry far beyond (a tampered tokens.json) is clamped when read.
        let far = AuthState(
            issuer: "i", clientID: "c", accessToken: "a", tokenType: "Bearer", accessTokenExpiresAt: Date(timeIntervalSince1970: 1e18))
        #expect(far.accessTokenExpiresAt == OutsideNumber.latestDate)
        #expect(try ProfileReport.tokenMembers(far, profile: "p", now: now)["expiresIn"]?.intValue != nil)
    }

    /// Finding 4: a HAAPI polling step's `maxWaitRemainingTime` of `Int.min` trapped `haapi login`
    /// (arithmetic overflow in the countdown).
    @Test func aPollingStepsMaxWaitRemainingTimeOfIntMinCountsDownFromZero() throws {
        for (sent, kept) in [("-9223372036854775808", 0), ("9223372036854775807", Self.longest), ("-1", 0)] {
            let json =
                #"{"type":"polling-step","properties":{"status":"pending","maxWaitTime":"\#(sent)","maxWaitRemainingTime":\#(sent),"interval":"\#(sent)"},"#
                + #""actions":[{"template":"form","kind":"poll","model":{"href":"/poll","method":"GET"}}]}"#
            guard
                case .representation(let step as PollingStep)? = try? HaapiModel.response(
                    from: Data(json.utf8), contentType: HaapiModel.authMediaType)
            else {
                Issue.record("not a polling step: \(json)")
                continue
            }
            #expect(step.pollingProperties.maxWaitRemainingTimeSeconds == kept)
            #expect(step.pollingProperties.maxWaitTimeSeconds == kept)
            let remaining = TimeInterval(try #require(step.pollingProperties.maxWaitRemainingTimeSeconds))
            // What the terminal computes every 150 ms, a minute into the wait.
            let left = ScreenBuilder.wholeSeconds(remaining - 60)
            #expect(left >= 0 && left <= Self.longest)
            if let interval = KitPollingModel.interval(
                serverMilliseconds: step.pollingProperties.intervalMilliseconds, autoPollingDuration: 3)
            {
                #expect(interval > 0 && interval <= KitPollingModel.longestServerInterval)
            }
        }
    }

    /// Finding 8: `haapi token --min-ttl 9223372036854775807` trapped (`Int(minimumLifetime)`).
    @Test func aMinTTLOfIntMaxIsAHundredYears() throws {
        let option = try MinimumLifetimeOption.parse(["--min-ttl", "9223372036854775807"])
        #expect(option.interval == TimeInterval(Self.longest))
        let quick = try #require(TokenCommand.quickArguments(["token", "--min-ttl", "9223372036854775807"]))
        // The quick path clamps as it parses (OutsideNumber.seconds(parsing:)); both say a hundred years.
        #expect(quick.minimumLifetime == Self.longest)
        #expect(
            TokenCommand.quickArguments(["token", "--min-ttl", "-5"]) == nil, "a negative value is left to the parser, which refuses it")
    }
}
