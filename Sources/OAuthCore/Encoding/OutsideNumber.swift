import Foundation

/// The one way a number from outside the process (a provider's `expires_in`, a HAAPI step's
/// `maxWaitRemainingTime`, a stored expiry, a command-line argument, a caller's lifetime) becomes
/// a duration, a date or a count.
///
/// Such a number can be anything its sender likes: `Int.max`, `Int.min`, `1e308`. Used as it
/// comes, `Int(someDouble)` traps on NaN, on infinities and on values past `Int`'s range, and
/// `a + b` or `a * 1000` traps on overflow. Every conversion here clamps into a documented range
/// instead (durations into `0...longestSeconds`, dates into ``earliestDate``...``latestDate``),
/// so later arithmetic on the result cannot overflow; a floating value that is no number at
/// all (NaN, an infinity) is refused with an ``OutsideNumberError``.
///
/// CI keeps it the one way: `Scripts/check-numbers.py` fails on a new conversion of a floating
/// value to an integer type, and `Scripts/lint.py` on a new read of a decoded integer, outside it.
public enum OutsideNumber {
    /// The longest duration kept: 100 years, in seconds. Far beyond any token's or step's life,
    /// and small enough that milliseconds or nanoseconds of it still fit in `Int64`.
    public static let longestSeconds = 3_155_760_000

    /// The largest count kept (a length, a number of items): 2³¹ − 1.
    public static let largestCount = Int(Int32.max)

    /// The earliest date kept: 1970-01-01.
    public static let earliestDate = Date(timeIntervalSince1970: 0)
    /// The latest date kept: 2200-01-01.
    public static let latestDate = Date(timeIntervalSince1970: 7_258_118_400)

    /// Whole seconds from an integer: clamped into `0...longestSeconds` (a negative one is 0).
    public static func seconds(_ value: Int) -> Int {
        min(max(value, 0), longestSeconds)
    }

    /// Whole seconds written as text (`"300"`, as some servers send `expires_in` and as a
    /// command-line option is typed): ``seconds(_:)-(Int)`` of them, or `nil` when the text is
    /// not a whole number of seconds (a negative number, a fraction, a space, letters).
    public static func seconds(parsing text: some StringProtocol) -> Int? {
        guard let value = Int(text), value >= 0 else { return nil }
        return seconds(value)
    }

    /// Seconds from a floating value: clamped into `0...longestSeconds`.
    /// - Throws: ``OutsideNumberError`` when `value` is NaN or infinite; `what` names it there.
    public static func seconds(_ value: Double, of what: String) throws(OutsideNumberError) -> TimeInterval {
        guard value.isFinite else { throw OutsideNumberError(what: what, value: value) }
        return min(max(value, 0), TimeInterval(longestSeconds))
    }

    /// Whole seconds of an interval (rounded toward zero), for a message, a countdown or a JSON
    /// member: clamped into `-longestSeconds...longestSeconds`; NaN is 0. Never traps.
    public static func wholeSeconds(_ interval: TimeInterval) -> Int {
        guard !interval.isNaN else { return 0 }
        let limit = TimeInterval(longestSeconds)
        return Int(min(max(interval, -limit), limit).rounded(.towardZero))
    }

    /// A count (a length, a number of tries): clamped into `0...limit`.
    public static func count(_ value: Int, atMost limit: Int) -> Int {
        min(max(value, 0), max(limit, 0))
    }

    /// A date from outside (a stored expiry, a token's claim): clamped into
    /// ``earliestDate``...``latestDate``.
    public static func date(_ date: Date) -> Date {
        guard !date.timeIntervalSince1970.isNaN else { return earliestDate }
        return min(max(date, earliestDate), latestDate)
    }

    /// `seconds` from outside after `start`: ``seconds(_:)-(Int)`` of them, then ``date(_:)``.
    public static func date(seconds: Int, after start: Date) -> Date {
        date(start.addingTimeInterval(TimeInterval(self.seconds(seconds))))
    }
}

/// A floating number from outside that is no number of anything: NaN or an infinity.
public struct OutsideNumberError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the number was meant to be (`minimumLifetime`, `the --min-ttl option`).
    public let what: String
    /// The value, as it came.
    public let value: Double

    /// Makes the error.
    public init(what: String, value: Double) {
        (self.what, self.value) = (what, value)
    }

    /// What the number was meant to be, and its value: "minimumLifetime must be a finite number, not nan".
    public var description: String { "\(what) must be a finite number, not \(value)" }

    /// Whether the two are about the same thing and the same value, bit for bit (so that NaN equals NaN).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.what == rhs.what && lhs.value.bitPattern == rhs.value.bitPattern
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(what)
        hasher.combine(value.bitPattern)
    }
}
