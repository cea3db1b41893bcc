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
    /// The same words around a verb with the roles swapped (`Russia accuses Ukraine …` vs `Ukraine accuses Russia …`).
    case reversedRoles
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
        if hasOppositeDirections(idsA, onlyA, idsB, onlyB) { return .oppositeDirection }
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
        if hasReversedRoles(idsA, flagsA, idsB) { return .reversedRoles }
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

    // MARK: Directions

    /// Whether the tokens only `a` has and the tokens only `b` has point in opposite directions on some axis.
    private static func hasOppositeDirections(
        _ a: UnsafeBufferPointer<UInt32>, _ onlyA: UnsafeBufferPointer<Bool>, _ b: UnsafeBufferPointer<UInt32>,
        _ onlyB: UnsafeBufferPointer<Bool>
    ) -> Bool {
        let directions = Self.directions
        var upA: UInt8 = 0
        var downA: UInt8 = 0
        for (index, id) in a.enumerated() where onlyA[index] {
            if let direction = directions[id] {
                upA |= direction.up
                downA |= direction.down
            }
        }
        guard upA | downA != 0 else { return false }
        var upB: UInt8 = 0
        var downB: UInt8 = 0
        for (index, id) in b.enumerated() where onlyB[index] {
            if let direction = directions[id] {
                upB |= direction.up
                downB |= direction.down
            }
        }
        return upA & downB != 0 || downA & upB != 0
    }

    /// Which axes a token points up or down on (one bit per axis).
    struct Direction {
        /// The axes the token points up on.
        var up: UInt8
        /// The axes the token points down on.
        var down: UInt8
    }

    /// Words of opposite direction, grouped by axis: each axis is (up words, down words). English words are
    /// stemmed like headline words, so `rises`, `rose`, `rising` all count.
    static let axes: [(up: [String], down: [String])] = [
        (
            up: [
                "rise", "rises", "rose", "risen", "up", "gain", "gains", "surge", "surges", "soar", "soars", "jump",
                "jumps", "climb", "climbs", "rally", "rallies", "grow", "grows", "grew", "expand", "expands", "raise",
                "raises", "hike", "hikes", "increase", "increases", "boost", "higher", "high", "beat", "beats",
                "win", "wins", "won", "add", "adds", "profit", "涨", "升", "增", "加", "高", "盈", "赢", "胜",
            ],
            down: [
                "fall", "falls", "fell", "fallen", "down", "lose", "loses", "lost", "loss", "losses", "plunge",
                "plunges", "drop", "drops", "dropped", "slide", "slides", "slump", "slumps", "tumble", "tumbles",
                "sink", "sinks", "sank", "shrink", "shrinks", "contract", "contracts", "cut", "cuts", "decrease",
                "decreases", "decline", "declines", "lower", "low", "dip", "dips", "slip", "slips", "miss", "misses",
                "跌", "降", "减", "低", "亏", "输", "负", "落",
            ]
        ),
        (
            up: ["pass", "passes", "passed", "approve", "approves", "approved", "accept", "accepts", "accepted"],
            down: ["reject", "rejects", "rejected", "block", "blocks", "blocked", "veto", "vetoes", "vetoed", "deny", "denies"]
        ),
        (up: ["开"], down: ["闭"]),
        (up: ["上"], down: ["下"]),
        (up: ["买"], down: ["卖"]),
        (up: ["收"], down: ["免"]),
    ]

    /// The direction of each lexicon token, by token id.
    static let directions: [UInt32: Direction] = {
        var directions: [UInt32: Direction] = [:]
        var tokenizer = HeadlineTokenizer()
        for (axis, words) in axes.enumerated() {
            let bit = UInt8(1) << UInt8(axis)
            for (list, isUp) in [(words.up, true), (words.down, false)] {
                for word in list {
                    tokenizer.tokenize(word)
                    guard tokenizer.tokens.count == 1, let token = tokenizer.tokens.first else { continue }
                    let id = StableHash.fold(token.hash)
                    var direction = directions[id] ?? Direction(up: 0, down: 0)
                    if isUp { direction.up |= bit } else { direction.down |= bit }
                    directions[id] = direction
                }
            }
        }
        return directions
    }()

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
}
