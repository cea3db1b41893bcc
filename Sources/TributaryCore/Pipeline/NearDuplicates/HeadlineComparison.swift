/// Why two headlines that share most of their shingles are still different stories.
enum NearDuplicateVeto: String, Sendable, CaseIterable {
    /// Each headline has a number the other lacks (`Linux 6.10` vs `Linux 6.11`, `2023` vs `2024`, `3-1` vs `5-0`).
    case numbers
    /// A number in one headline where the other has words at the same place (`Model 3` vs `Model Y`, `第40金` vs
    /// `首金`).
    case replacedNumber
    /// A name in one headline replaced by another name at the same place in the other (`… attack on Kyiv` vs
    /// `… attack on Lviv`, `Boeing CEO` vs `Boeing CFO`, `Microsoft reports …` vs `Alphabet reports …`).
    case differentNames
    /// A Chinese headline whose opening words (its subject) are replaced (`阿里巴巴发布第三季度财报` vs
    /// `腾讯发布第三季度财报`), or a longer name elsewhere (`神行超充电池` vs `麒麟电池`); Chinese has no capitals to
    /// mark names, but the subject comes first and names are longer than the verbs editors swap.
    case differentSubject
    /// Words of opposite direction where the headlines differ (`rise` vs `fall`, `passes` vs `rejects`, `涨` vs `跌`,
    /// `加息` vs `降息`, `开幕` vs `闭幕`).
    case oppositeDirection
    /// The same words around a verb with the roles swapped (`Russia accuses Ukraine …` vs `Ukraine accuses Russia …`,
    /// `中国队3比1战胜日本队` vs `日本队3比1战胜中国队`).
    case reversedRoles
    /// A negation in one headline only (`will seek re-election` vs `will not seek re-election`, `将派代表出席` vs
    /// `不会派代表出席`, `加征关税` vs `暂停加征关税`).
    case negation
    /// Different members of a set whose members exclude each other (`semifinal` vs `final`, `女排` vs `男排`,
    /// `橙色预警` vs `红色预警`, `exports` vs `imports`).
    case exclusiveWords
    /// A Chinese place name in each headline, of one kind (countries, provinces, cities), that the other does not
    /// name (`杭州` vs `广州`, `瑞士` vs `瑞典`).
    case differentPlaces
}

/// The structural checks that run on a candidate pair once its shingles are similar enough: Jaccard similarity
/// cannot tell an edited headline from a template with one word swapped, so these look at *where* the two token
/// sequences differ.
///
/// The tokens that only one headline has are grouped into runs; a run in each headline with the same neighbour on
/// the left (or the same on the right, or both at the start or the end) is a replacement. Replaced names, numbers
/// and Chinese subjects are different stories; replaced common words (`acquire` / `buy`, `超越` / `超过`) are
/// editing. Opposite directions and swapped roles are checked on their own.
enum HeadlineComparison {
    private typealias Flags = HeadlineFingerprints.TokenFlags

    /// The reason headlines `first` and `second` of `store` are different stories despite their shared shingles, or
    /// nil if nothing in their structure says so. (The number veto is the detector's; this adds the rest.)
    static func veto(_ store: HeadlineFingerprints, _ first: Int, _ second: Int) -> NearDuplicateVeto? {
        // Read in place, with the scratch space on the stack: this runs for every candidate pair that reaches the
        // threshold, which in a large input of similar headlines is hundreds of thousands of times.
        let a = store.tokenRange(first)
        let b = store.tokenRange(second)
        return store.tokenIDs.withUnsafeBufferPointer { ids in
            store.tokenFlags.withUnsafeBufferPointer { flags in
                let idsA = UnsafeBufferPointer(rebasing: ids[a])
                let idsB = UnsafeBufferPointer(rebasing: ids[b])
                let flagsA = UnsafeBufferPointer(rebasing: flags[a])
                let flagsB = UnsafeBufferPointer(rebasing: flags[b])
                return withUnsafeTemporaryAllocation(of: Bool.self, capacity: a.count + b.count) { only in
                    let onlyA = UnsafeMutableBufferPointer(rebasing: only[0..<a.count])
                    let onlyB = UnsafeMutableBufferPointer(rebasing: only[a.count...])
                    for (index, id) in idsA.enumerated() { onlyA[index] = !idsB.contains(id) }
                    for (index, id) in idsB.enumerated() { onlyB[index] = !idsA.contains(id) }
                    return veto(idsA, flagsA, UnsafeBufferPointer(onlyA), idsB, flagsB, UnsafeBufferPointer(onlyB))
                }
            }
        }
    }

    /// ``veto(_:_:_:)`` on the two token sequences and which of their tokens only one of them has.
    private static func veto(
        _ idsA: UnsafeBufferPointer<UInt32>, _ flagsA: UnsafeBufferPointer<UInt8>, _ onlyA: UnsafeBufferPointer<Bool>,
        _ idsB: UnsafeBufferPointer<UInt32>, _ flagsB: UnsafeBufferPointer<UInt8>, _ onlyB: UnsafeBufferPointer<Bool>
    ) -> NearDuplicateVeto? {
        if let lexical = lexicalVeto(idsA, onlyA, idsB, onlyB) { return lexical }
        // A run needs at least one token of its own, so a headline has at most as many runs as tokens.
        let found = withUnsafeTemporaryAllocation(of: Run.self, capacity: idsA.count + idsB.count) { space -> NearDuplicateVeto? in
            let countA = runs(idsA, flagsA, onlyA, into: UnsafeMutableBufferPointer(rebasing: space[0..<idsA.count]))
            let runsB = UnsafeMutableBufferPointer(rebasing: space[idsA.count...])
            let countB = runs(idsB, flagsB, onlyB, into: runsB)
            for runA in space[0..<countA] {
                for runB in runsB[0..<countB] where runA.left == runB.left || runA.right == runB.right {
                    if (runA.numbers > 0) != (runB.numbers > 0) { return .replacedNumber }
                    if runA.names > 0 && runB.names > 0 { return .differentNames }
                    if isSubjectReplacement(runA, runB) { return .differentSubject }
                }
            }
            return nil
        }
        if let found { return found }
        if hasDifferentPlaces(idsA, flagsA, onlyA, idsB, flagsB, onlyB) { return .differentPlaces }
        if hasReversedRoles(idsA, flagsA, idsB) || hasReversedChineseRoles(idsA, flagsA, idsB, flagsB) { return .reversedRoles }
        return nil
    }

    // MARK: Replacements

    /// Whether two replacement runs replace a Chinese subject or object: both at the start with at least two
    /// characters (or a word) each, or anywhere with at least two characters each and three on one side
    /// (`神行超充电池` vs `麒麟电池`). One-character swaps (`超越` / `超过`) and two-for-two swaps in mid-sentence
    /// (`发布` / `推出`) are editing.
    static func isSubjectReplacement(_ a: Run, _ b: Run) -> Bool {
        guard a.ideographs + b.ideographs > 0 else { return false }
        if a.left == Run.start && b.left == Run.start { return a.weight >= 2 && b.weight >= 2 }
        return a.ideographs >= 2 && b.ideographs >= 2 && max(a.ideographs, b.ideographs) >= 3
    }

    /// A maximal run of tokens that only one headline has.
    struct Run {
        /// The anchor before a run at the start of the headline.
        static let start = UInt64.max
        /// The anchor after a run at the end of the headline.
        static let end = UInt64.max - 1

        /// The id of the token before the run, or ``start``.
        var left: UInt64
        /// The id of the token after the run, or ``end``.
        var right: UInt64
        /// How many CJK characters the run has.
        var ideographs = 0
        /// How many words the run has.
        var words = 0
        /// How many names the run has.
        var names = 0
        /// How many numbers the run has.
        var numbers = 0

        /// How much text the run replaces: a character counts one, a word two.
        var weight: Int { ideographs + 2 * words }
    }

    /// Writes the runs of tokens marked in `only` to `runs` (room for one per token); returns how many there are.
    private static func runs(
        _ ids: UnsafeBufferPointer<UInt32>, _ flags: UnsafeBufferPointer<UInt8>, _ only: UnsafeBufferPointer<Bool>,
        into runs: UnsafeMutableBufferPointer<Run>
    ) -> Int {
        var count = 0
        var index = 0
        while index < ids.count {
            guard only[index] else {
                index += 1
                continue
            }
            var run = Run(left: index == 0 ? Run.start : UInt64(ids[index - 1]), right: Run.end)
            while index < ids.count && only[index] {
                let flag = flags[index]
                if flag & Flags.ideograph != 0 { run.ideographs += 1 }
                if flag & Flags.word != 0 { run.words += 1 }
                if flag & Flags.name != 0 { run.names += 1 }
                if flag & Flags.number != 0 { run.numbers += 1 }
                index += 1
            }
            if index < ids.count { run.right = UInt64(ids[index]) }
            runs.initializeElement(at: count, to: run)
            count += 1
        }
        return count
    }

    // MARK: Words the lexicon knows

    /// What the lexicon says of the tokens of one headline.
    private struct LexicalFacts {
        /// The direction axes pointed up on.
        var up: UInt16 = 0
        /// The direction axes pointed down on.
        var down: UInt16 = 0
        /// Whether there is a negation.
        var negation = false
        /// The members of exclusive sets: bit `8 × set + member` (``HeadlineLexicon/exclusiveSets`` holds at most 16
        /// sets of at most 8 members).
        var members: UInt128 = 0

        mutating func add(_ entry: HeadlineLexicon.Entry) {
            up |= entry.up
            down |= entry.down
            negation = negation || entry.isNegation
            if entry.exclusiveSet != 0 { members |= 1 << (UInt128(entry.exclusiveSet - 1) * 8 + UInt128(entry.exclusiveMember)) }
        }
    }

    /// The lexicon's facts about the tokens of `ids` marked in `only` (all of them when nil), and about the words of
    /// two characters with one of them marked (`女排` / `男排` differ in one).
    private static func facts(_ ids: UnsafeBufferPointer<UInt32>, _ only: UnsafeBufferPointer<Bool>?) -> LexicalFacts {
        let entries = HeadlineLexicon.entries
        var facts = LexicalFacts()
        for index in ids.indices {
            let marked = only?[index] ?? true
            if marked, let entry = entries[HeadlineLexicon.key(ids[index])] { facts.add(entry) }
            if index + 1 < ids.count, marked || only?[index + 1] ?? true,
                let entry = entries[HeadlineLexicon.pairKey(ids[index], ids[index + 1])]
            {
                facts.add(entry)
            }
        }
        return facts
    }

    /// The veto the lexicon gives where the headlines differ: words of opposite direction, a negation on one side
    /// only, or different members of an exclusive set.
    private static func lexicalVeto(
        _ a: UnsafeBufferPointer<UInt32>, _ onlyA: UnsafeBufferPointer<Bool>, _ b: UnsafeBufferPointer<UInt32>,
        _ onlyB: UnsafeBufferPointer<Bool>
    ) -> NearDuplicateVeto? {
        let factsA = facts(a, onlyA)
        let factsB = facts(b, onlyB)
        if factsA.up & factsB.down != 0 || factsA.down & factsB.up != 0 { return .oppositeDirection }
        if factsA.negation != factsB.negation { return .negation }
        guard factsA.members | factsB.members != 0 else { return nil }
        if excludes(factsA.members, facts(b, nil).members) || excludes(factsB.members, facts(a, nil).members) {
            return .exclusiveWords
        }
        return nil
    }

    /// Whether a member in `own` (the members only one headline has) is missing from `other` (every member of the
    /// other headline) while `other` has another member of its set.
    private static func excludes(_ own: UInt128, _ other: UInt128) -> Bool {
        var remaining = own
        while remaining != 0 {
            let bit = remaining & (~remaining &+ 1)
            remaining &= remaining - 1
            let set = UInt128(0xFF) << (bit.trailingZeroBitCount / 8 * 8)
            if other & bit == 0 && other & set & ~bit != 0 { return true }
        }
        return false
    }

    // MARK: Places

    /// Whether each headline names a Chinese place (``HeadlineLexicon/placeNames``) of one kind that the other does
    /// not.
    private static func hasDifferentPlaces(
        _ a: UnsafeBufferPointer<UInt32>, _ flagsA: UnsafeBufferPointer<UInt8>, _ onlyA: UnsafeBufferPointer<Bool>,
        _ b: UnsafeBufferPointer<UInt32>, _ flagsB: UnsafeBufferPointer<UInt8>, _ onlyB: UnsafeBufferPointer<Bool>
    ) -> Bool {
        // A place only one headline names has a token only that headline has, and is written in ideographs.
        func hasOwnIdeograph(_ flags: UnsafeBufferPointer<UInt8>, _ only: UnsafeBufferPointer<Bool>) -> Bool {
            flags.indices.contains { only[$0] && flags[$0] & Flags.ideograph != 0 }
        }
        guard hasOwnIdeograph(flagsA, onlyA), hasOwnIdeograph(flagsB, onlyB) else { return false }
        return placeKindsMissing(from: b, in: a) & placeKindsMissing(from: a, in: b) != 0
    }

    /// The kinds of places (a bit each) that `ids` names and `other` does not.
    private static func placeKindsMissing(from other: UnsafeBufferPointer<UInt32>, in ids: UnsafeBufferPointer<UInt32>) -> UInt8 {
        var kinds: UInt8 = 0
        for start in ids.indices where HeadlineLexicon.entries[HeadlineLexicon.key(ids[start])]?.startsPlace == true {
            for place in HeadlineLexicon.places[ids[start]] ?? [] where starts(ids, at: start, with: place.ids) {
                if !contains(other, place.ids) { kinds |= 1 << UInt8(place.kind) }
            }
        }
        return kinds
    }

    // MARK: Roles

    /// Whether `a` has words `x v y` (x ≠ y) and `b` has `y v x`.
    private static func hasReversedRoles(
        _ a: UnsafeBufferPointer<UInt32>, _ flagsA: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt32>
    ) -> Bool {
        guard a.count >= 3, b.count >= 3 else { return false }
        for middle in 1..<a.count - 1 {
            let x = a[middle - 1]
            let verb = a[middle]
            let y = a[middle + 1]
            guard x != y, flagsA[middle - 1] & Flags.ideograph == 0, flagsA[middle] & Flags.word != 0,
                flagsA[middle + 1] & Flags.ideograph == 0
            else { continue }
            for index in 1..<b.count - 1 where b[index] == verb && b[index - 1] == y && b[index + 1] == x {
                return true
            }
        }
        return false
    }

    /// Whether two Chinese headlines put the same sides around the same contest the other way round: `P M S` and
    /// `P′ M S′`, where the middle `M` is their longest common run that holds a score or a contest character, `P`
    /// appears in `S′` and `P′` in `S` (`中国队3比1战胜日本队` vs `日本队3比1战胜中国队`, `王某起诉李某` vs `李某起诉王某`).
    private static func hasReversedChineseRoles(
        _ a: UnsafeBufferPointer<UInt32>, _ flagsA: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt32>,
        _ flagsB: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard flagsA.contains(where: { $0 & Flags.ideograph != 0 }), flagsB.contains(where: { $0 & Flags.ideograph != 0 }),
            a.indices.contains(where: { isContest(a[$0], flagsA[$0]) })
        else { return false }
        guard let middle = longestCommonContestRun(a, flagsA, b), middle.length >= 2 else { return false }
        let prefixA = UnsafeBufferPointer(rebasing: a[..<middle.startA])
        let suffixA = UnsafeBufferPointer(rebasing: a[(middle.startA + middle.length)...])
        let prefixB = UnsafeBufferPointer(rebasing: b[..<middle.startB])
        let suffixB = UnsafeBufferPointer(rebasing: b[(middle.startB + middle.length)...])
        guard !prefixA.isEmpty, !prefixB.isEmpty, !prefixA.elementsEqual(prefixB) else { return false }
        return contains(suffixB, prefixA) && contains(suffixA, prefixB)
    }

    /// Whether a token is a score or a contest character.
    private static func isContest(_ id: UInt32, _ flags: UInt8) -> Bool {
        flags & Flags.number != 0 || HeadlineLexicon.entries[HeadlineLexicon.key(id)]?.isContest == true
    }

    /// The longest run of tokens that `a` and `b` share and that holds a contest token (the first found when several
    /// are as long), or nil when they share none.
    private static func longestCommonContestRun(
        _ a: UnsafeBufferPointer<UInt32>, _ flagsA: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt32>
    ) -> (startA: Int, startB: Int, length: Int)? {
        guard !a.isEmpty, !b.isEmpty else { return nil }
        // Two rows of the usual table of common run lengths, and whether each run holds a contest token.
        return withUnsafeTemporaryAllocation(of: (length: Int, contest: Bool).self, capacity: 2 * (b.count + 1)) { space in
            space.initialize(repeating: (0, false))
            var previous = UnsafeMutableBufferPointer(rebasing: space[0...b.count])
            var current = UnsafeMutableBufferPointer(rebasing: space[(b.count + 1)...])
            var best: (startA: Int, startB: Int, length: Int)?
            for i in 1...a.count {
                let contest = isContest(a[i - 1], flagsA[i - 1])
                for j in 1...b.count {
                    guard a[i - 1] == b[j - 1] else {
                        current[j] = (0, false)
                        continue
                    }
                    let run = (length: previous[j - 1].length + 1, contest: previous[j - 1].contest || contest)
                    current[j] = run
                    if run.contest && run.length > (best?.length ?? 0) { best = (i - run.length, j - run.length, run.length) }
                }
                swap(&previous, &current)
            }
            return best
        }
    }

    /// Whether `ids` has `part` at `start`.
    private static func starts(_ ids: UnsafeBufferPointer<UInt32>, at start: Int, with part: [UInt32]) -> Bool {
        guard start + part.count <= ids.count else { return false }
        for (offset, id) in part.enumerated() where ids[start + offset] != id { return false }
        return true
    }

    /// Whether `ids` has the run `part` anywhere.
    private static func contains(_ ids: UnsafeBufferPointer<UInt32>, _ part: some Collection<UInt32>) -> Bool {
        let part = Array(part)
        guard !part.isEmpty, part.count <= ids.count else { return part.isEmpty }
        return (0...ids.count - part.count).contains { starts(ids, at: $0, with: part) }
    }
}
