/// The known name a mistyped one most likely meant, for "did you mean" in errors: a command
/// (`haapi loign`), a configuration key, a theme's section or key.
package enum NearestName {
    /// The name of `names` closest to `word`, case aside, by edits (an insertion, a deletion, a
    /// change, or a swap of two neighbours: `loign` is one from `login`), when it is close enough
    /// to be a typo: at most a third of its letters, and one at least. `nil` when none is.
    package static func to(_ word: String, among names: some Sequence<String>) -> String? {
        let typed = Array(word.lowercased())
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = Self.distance(typed, Array(name.lowercased()))
            if distance < best?.distance ?? .max { best = (name, distance) }
        }
        guard let best, best.distance <= max(1, best.name.count / 3) else { return nil }
        return best.name
    }

    /// The optimal-string-alignment distance between `a` and `b`.
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Three rows: the one before the previous (for swaps), the previous and the current.
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let change = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + change)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous) = (previous, current)
        }
        return previous[b.count]
    }
}
