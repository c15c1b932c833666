import Foundation

/// PEM text (RFC 7468) as DER: what the platforms' certificate and key APIs take.
public enum PEM {
    /// The DER bytes of each `-----BEGIN <label>-----` block of `text`, in order.
    public static func blocks(in text: String, label: String) -> [Data] {
        var result: [Data] = []
        var remaining = Substring(text)
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        while let start = remaining.range(of: begin), let stop = remaining.range(of: end, range: start.upperBound..<remaining.endIndex) {
            let body = remaining[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            if let der = Data(base64Encoded: String(body)) { result.append(der) }
            remaining = remaining[stop.upperBound...]
        }
        return result
    }

    /// The label and DER bytes of the first block of `text`, whatever its label.
    /// - Throws: ``DER/Error`` when there is no complete block, or its body is not base64.
    static func firstBlock(in text: String) throws -> (label: String, der: Data) {
        guard let begin = text.range(of: "-----BEGIN "), let labelEnd = text.range(of: "-----", range: begin.upperBound..<text.endIndex)
        else {
            throw DER.Error(reason: "no PEM block (-----BEGIN ...-----) was found")
        }
        let label = String(text[begin.upperBound..<labelEnd.lowerBound])
        guard let der = blocks(in: String(text[begin.lowerBound...]), label: label).first, !der.isEmpty else {
            throw DER.Error(reason: "the PEM block \"\(label)\" has no END line or is not valid base64")
        }
        return (label, der)
    }
}
