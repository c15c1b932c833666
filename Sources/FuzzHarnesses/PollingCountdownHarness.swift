import Foundation
import HaapiSDK
import HaapiUI
import OAuthCore

extension FuzzHarness {
    /// How long the step has been shown, by the input's first byte: from a fresh step to one
    /// left open for over a year.
    static let elapsedSeconds: [TimeInterval] = [0, 0.4, 1, 2, 59.5, 61, 119, 121, 3599, 86_400, 40_000_000]

    /// A polling step around the fuzzed `properties`, as a push authenticator sends it: a poll
    /// while pending, a redirect once done or failed, a cancel.
    private static let pollingStep: [String: JSONValue] = [
        "type": "polling-step",
        "metadata": ["viewName": "authenticator/push/wait"],
        "actions": [
            ["template": "form", "kind": "poll", "model": ["href": "/authn/wait", "method": "GET"]],
            ["template": "form", "kind": "redirect", "model": ["href": "/authn/done", "method": "POST"]],
            ["template": "form", "kind": "cancel", "title": "Stop waiting", "model": ["href": "/authn/cancel", "method": "POST"]],
        ],
    ]

    /// The longest countdown shown: ``OutsideNumber/longestSeconds`` (the step's numbers are clamped to it).
    private static let longestCountdown = OutsideNumber.longestSeconds

    static func pollingCountdown(_ data: Data) -> [String] {
        let elapsed = elapsedSeconds[Int(data.first ?? 0) % elapsedSeconds.count]
        guard let properties = try? JSONValue(parsing: data.dropFirst()) else { return [] }
        var json = pollingStep
        json["properties"] = properties
        let step: any HaapiRepresentation
        do { step = try HaapiModel.representation(from: .object(json)) } catch is HaapiModelError { return [] } catch {
            return ["an untyped error: \(error)"]
        }
        guard step is PollingStep else { return ["a polling-step read as \(type(of: step))"] }
        let mapper = KitDataMapper(appRedirect: "app://haapi")
        guard let model = (try? mapper.mapHaapiRepresentationToInteraction(haapiRepresentation: step)) as? KitPollingModel else {
            return ["a polling step is not shown as a KitPollingModel"]
        }
        var violations: [String] = []
        // Automatic polls wait a positive time, at most the longest a server may ask for.
        if let interval = model.pollInterval,
            !(interval > 0 && interval <= max(KitPollingModel.longestServerInterval, mapper.autoPollingDuration))
        {
            violations.append("polls every \(interval) s")
        }
        // The kit's screens (its UIKit view controllers build them): one countdown when the
        // server gives the time left, never negative, at most the longest duration kept, with its text.
        let countdowns = MainActor.onMainThread {
            ScreenBuilder().screen(for: model).content.compactMap { item -> Countdown? in
                if case .countdown(let countdown) = item { return Countdown(text: countdown.text, seconds: countdown.seconds) }
                return nil
            }
        }
        if countdowns.count != (model.maxWaitRemainingTime == nil ? 0 : 1) {
            violations.append(
                "\(countdowns.count) countdowns for maxWaitRemainingTime \(model.maxWaitRemainingTime.map { "\($0)" } ?? "absent")")
        }
        let strings = LocalizableStrings()
        for countdown in countdowns {
            if !(0...longestCountdown).contains(countdown.seconds) { violations.append("a countdown of \(countdown.seconds) s") }
            if countdown.text != strings.timeLeft(seconds: countdown.seconds) || countdown.text.contains("%") {
                violations.append("a countdown of \(countdown.seconds) s reads \"\(countdown.text)\"")
            }
        }
        // The terminal redraws the time left as the wait goes on (TerminalRenderer's wait loop: the
        // server's time less the time elapsed, in whole seconds): never negative, never more than the
        // longest duration kept, never going up.
        if let remaining = model.maxWaitRemainingTime {
            let left = ScreenBuilder.wholeSeconds(remaining - elapsed)
            let later = ScreenBuilder.wholeSeconds(remaining - (elapsed + 1))
            if !(0...longestCountdown).contains(left) || later > left {
                violations.append("\(remaining) s less \(elapsed) s left \(left) s, a second later \(later) s")
            }
            if strings.string(.pollingSecondsRemaining, count: left).isEmpty { violations.append("no text for \(left) s left") }
        }
        return violations
    }
}

/// A countdown of a screen (``ScreenItem/countdown(text:seconds:)``).
private struct Countdown: Sendable {
    let text: String
    let seconds: Int
}
