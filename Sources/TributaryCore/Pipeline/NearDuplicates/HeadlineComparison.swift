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
        let a = store.tokenRange(first)
        let b = store.tokenRange(second)
        let idsA = Array(store.tokenIDs[a])
        let idsB = Array(store.tokenIDs[b])
        let flagsA = Array(store.tokenFlags[a])
        let flagsB = Array(store.tokenFlags[b])
        let onlyA = idsA.map { !idsB.contains($0) }
        let onlyB = idsB.map { !idsA.contains($0) }

        if hasOppositeDirections(idsA, onlyA, idsB, onlyB) { return .oppositeDirection }

        let runsA = runs(idsA, flagsA, onlyA)
        let runsB = runs(idsB, flagsB, onlyB)
        for runA in runsA {
            for runB in runsB where runA.left == runB.left || runA.right == runB.right {
                if (runA.numbers > 0) != (runB.numbers > 0) { return .replacedNumber }
                if runA.names > 0 && runB.names > 0 { return .differentNames }
                if isSubjectReplacement(runA, runB) { return .differentSubject }
            }
        }
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

    /// The runs of tokens marked in `only`.
    static func runs(_ ids: [UInt32], _ flags: [UInt8], _ only: [Bool]) -> [Run] {
        var runs: [Run] = []
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
            runs.append(run)
        }
        return runs
    }

    // MARK: Directions

    /// Whether the tokens only `a` has and the tokens only `b` has point in opposite directions on some axis.
    private static func hasOppositeDirections(_ a: [UInt32], _ onlyA: [Bool], _ b: [UInt32], _ onlyB: [Bool]) -> Bool {
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
    private static func hasReversedRoles(_ a: [UInt32], _ flagsA: [UInt8], _ b: [UInt32]) -> Bool {
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
