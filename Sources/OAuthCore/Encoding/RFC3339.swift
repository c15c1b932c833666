import Foundation

/// RFC 3339 date-times (`2026-11-29T10:00:00Z`, with fractional seconds or a `+01:00` offset),
/// read with arithmetic alone. Foundation's parsers set up a calendar and the time zones first:
/// a tenth of the memory of a `haapi token` that reads one stored expiry.
package enum RFC3339 {
    /// The moment `text` names; `nil` when it is not an RFC 3339 date-time (section 5.6) or names
    /// no real day (February 30th).
    package static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(at start: Int, digits count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ index: Int, is allowed: String) -> Bool { index < bytes.count && allowed.utf8.contains(bytes[index]) }
        guard let year = number(at: 0, digits: 4), byte(4, is: "-"), let month = number(at: 5, digits: 2), byte(7, is: "-"),
            let day = number(at: 8, digits: 2), byte(10, is: "Tt "), let hour = number(at: 11, digits: 2), byte(13, is: ":"),
            let minute = number(at: 14, digits: 2), byte(16, is: ":"), let second = number(at: 17, digits: 2),
            (1...12).contains(month), (1...daysIn(month, of: year)).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if byte(index, is: ".") {
            index += 1
            var scale = 0.1
            let first = index
            while let digit = number(at: index, digits: 1) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > first else { return nil }
        }
        var offset = 0
        if byte(index, is: "Zz") {
            index += 1
        } else if byte(index, is: "+-"), let hours = number(at: index + 1, digits: 2), byte(index + 3, is: ":"),
            let minutes = number(at: index + 4, digits: 2), hours < 24, minutes < 60
        {
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// The days of `month` (1 to 12) in `year` of the Gregorian calendar.
    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date, in the proleptic Gregorian calendar (the civil-from-days
    /// inverse of Howard Hinnant's chrono algorithms: years counted from March, in 400-year eras).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
