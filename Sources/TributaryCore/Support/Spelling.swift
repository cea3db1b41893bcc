/// Edit-distance helpers for "did you mean …?" suggestions.
public enum Spelling {
    /// Edit distance between `a` and `b` (optimal string alignment: insertions, deletions,
    /// substitutions and swaps of two neighbours each cost 1), counted in Unicode scalars,
    /// lowercasing both first when `ignoringCase`. Swaps count once because "titel" for "title"
    /// is one slip of the fingers, not two.
    public static func distance(_ a: String, _ b: String, ignoringCase: Bool = false) -> Int {
        let lhs = Array((ignoringCase ? a.lowercased() : a).unicodeScalars)
        let rhs = Array((ignoringCase ? b.lowercased() : b).unicodeScalars)
        guard !lhs.isEmpty else { return rhs.count }
        guard !rhs.isEmpty else { return lhs.count }

        var beforePrevious = [Int](repeating: 0, count: rhs.count + 1)
        var previous = Array(0...rhs.count)
        var current = [Int](repeating: 0, count: rhs.count + 1)
        for i in 1...lhs.count {
            current[0] = i
            for j in 1...rhs.count {
                let substitution = previous[j - 1] + (lhs[i - 1] == rhs[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[rhs.count]
    }

    /// The candidate worth suggesting for a mistyped `word`, or nil when none is close enough.
    ///
    /// In order of preference: the first case-insensitive match; the candidate with the smallest
    /// case-insensitive distance, if that distance is at most `min(3, max(1, length / 3))`
    /// (ties go to the earlier candidate); the only candidate that `word` (at least 3 scalars) is a
    /// case-insensitive prefix of. An empty word gets no suggestion.
    public static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
        let length = word.unicodeScalars.count
        guard length > 0 else { return nil }
        let candidates = Array(candidates)
        let lowered = word.lowercased()

        if let match = candidates.first(where: { $0.lowercased() == lowered }) {
            return match
        }

        let limit = min(3, max(1, length / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let d = distance(word, candidate, ignoringCase: true)
            if d <= limit, d < (best?.distance ?? Int.max) {
                best = (candidate, d)
            }
        }
        if let best { return best.candidate }

        guard length >= 3 else { return nil }
        let extensions = candidates.filter { $0.lowercased().hasPrefix(lowered) }
        guard let first = extensions.first, Set(extensions).count == 1 else { return nil }
        return first
    }
}
