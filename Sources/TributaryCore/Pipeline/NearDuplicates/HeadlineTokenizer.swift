/// What kind of token a piece of a headline is.
enum HeadlineTokenKind: UInt8, Sendable {
    /// One Chinese, Japanese or Korean character.
    case ideograph
    /// A word of a Latin (or other alphabetic) script, lower-cased and lightly stemmed.
    case word
    /// A number, or a token with a digit in it (`6.10`, `2024`, `150000000000`, `4o`, `s24`, `24h2`).
    case number
}

/// One token of a headline: its kind, where its text is in ``HeadlineTokenizer/text``, and a stable hash of it.
struct HeadlineToken: Sendable {
    /// What the token is.
    var kind: HeadlineTokenKind
    /// Where the token's text starts in the tokenizer's `text`.
    var start: Int32
    /// Where the token's text ends in the tokenizer's `text`.
    var end: Int32
    /// A 64-bit hash of the kind and the text, the same in every process.
    var hash: UInt64
    /// Whether the token is a word that was capitalized in a sentence-case headline (a name or an acronym:
    /// `Kyiv`, `CEO`); always false in a Title Case or ALL CAPS headline, where capitals say nothing.
    var isName: Bool = false
}

/// The third step of headline normalization: split the core of a folded headline into tokens. CJK characters are
/// one token each (so they can be shingled as character bigrams); runs of letters and digits become words or
/// numbers. Numbers are canonical: grouping commas go (`1,000` → `1000`), magnitudes are applied (`$11B`,
/// `11bn`, `11 billion` → `11000000000`; `100K` → `100000`), ordinals lose their suffix (`4th` → `4`), scores and
/// times are one token (`3-1`, `3:1`, `3比1` → `3:1`), the English number words two…twelve and second…twelfth
/// become digits, and so do Chinese numerals that count or rank (`十九号` → `19`, `第五次` → `5`). English words
/// lose possessive `'s`, a few stop words are dropped, and a light stemmer folds `raises`/`raised`/`raise`
/// together. Grammatical Chinese particles (的, 了, …) are dropped.
///
/// The buffers are reused from headline to headline and token texts are written straight into `text`, so
/// tokenizing allocates nothing once the buffers have grown.
struct HeadlineTokenizer {
    private typealias ASCII = HeadlineFolding.ASCII

    /// The folded headline (``HeadlineFolding``) in `folded[0..<foldedCount]`; the buffer only grows.
    private(set) var folded: [UInt32] = []
    /// How many scalars of `folded` belong to the current headline.
    private(set) var foldedCount = 0
    /// Whether each scalar of `folded` was an upper-case letter.
    private var capitals: [Bool] = []
    /// The text of all tokens, back to back.
    private(set) var text: [UInt32] = []
    /// The tokens, in order.
    private(set) var tokens: [HeadlineToken] = []
    /// The hashes of the numbers in the bracketed tags that the core leaves out (`(v1.2.3)`, `（3月4日）`,
    /// `(March 2024)`): no shingles, but numbers that tell one issue of a series from the next.
    private(set) var tagNumbers: [UInt64] = []
    /// The insides of those tags in `folded`.
    private var tagRanges: [Range<Int>] = []

    /// Creates a tokenizer with empty buffers.
    init() {}

    /// Tokenizes `title`, replacing the previous headline's tokens.
    mutating func tokenize(_ title: String) {
        foldedCount = HeadlineFolding.fold(title, into: &folded, capitals: &capitals)
        text.removeAll(keepingCapacity: true)
        tokens.removeAll(keepingCapacity: true)
        tagNumbers.removeAll(keepingCapacity: true)
        let core = HeadlineDecorations.core(of: folded, count: foldedCount, tags: &tagRanges)
        scan(core)
        clearNamesInTitleCase()
        guard !tagRanges.isEmpty else { return }
        // The tags are tokenized like the core, and only their numbers kept.
        let tokenCount = tokens.count
        let textCount = text.count
        for range in tagRanges { scan(range) }
        for token in tokens[tokenCount...] where token.kind == .number { tagNumbers.append(token.hash) }
        tokens.removeSubrange(tokenCount...)
        truncateText(to: textCount)
    }

    /// Appends the tokens of `folded[range]`.
    private mutating func scan(_ range: Range<Int>) {
        var index = range.lowerBound
        let upper = range.upperBound
        while index < upper {
            let value = folded[index]
            if HeadlineFolding.isCJK(value) {
                if ChineseCharacters.isDigit(value), let end = chineseNumber(at: index, in: range) {
                    index = end
                    continue
                }
                if !ChineseCharacters.isParticle(value) {
                    let start = text.count
                    text.append(value)
                    finishToken(.ideograph, from: start, isName: false)
                }
                index += 1
            } else if HeadlineFolding.isWordCharacter(value) {
                let start = text.count
                let capitalized = capitals[index]
                index = scanRun(from: index, upTo: upper)
                index = processRun(from: start, capitalized: capitalized, next: index, upTo: upper)
            } else {
                index += 1
            }
        }
    }

    /// The text of `token` as a string (for tests and explanations).
    func string(of token: HeadlineToken) -> String {
        var result = String.UnicodeScalarView()
        for value in text[Int(token.start)..<Int(token.end)] {
            if let scalar = Unicode.Scalar(value) { result.append(scalar) }
        }
        return String(result)
    }

    /// In a headline where most words are capitalized (Title Case, ALL CAPS), capitals mark no names.
    private mutating func clearNamesInTitleCase() {
        var words = 0
        var names = 0
        for token in tokens where token.kind == .word {
            words += 1
            if token.isName { names += 1 }
        }
        guard words >= 3, names * 4 > words * 3 else { return }
        for index in tokens.indices { tokens[index].isName = false }
    }

    // MARK: Tokens

    /// Records `text[start...]` as a token of `kind`.
    @inline(__always)
    private mutating func finishToken(_ kind: HeadlineTokenKind, from start: Int, isName: Bool) {
        var hash = StableHash.start(UInt64(kind.rawValue))
        for index in start..<text.count { hash = StableHash.add(hash, text[index]) }
        tokens.append(
            HeadlineToken(kind: kind, start: Int32(start), end: Int32(text.count), hash: StableHash.finish(hash), isName: isName))
    }

    /// Cuts `text` back to `count` scalars.
    @inline(__always)
    private mutating func truncateText(to count: Int) {
        while text.count > count { text.removeLast() }
    }

    /// Emits a number given as a small integer (from a number word or a Chinese numeral).
    private mutating func emitNumber(_ value: Int) {
        let start = text.count
        var remaining = value
        repeat {
            text.append(ASCII.zero + UInt32(remaining % 10))
            remaining /= 10
        } while remaining > 0
        text[start...].reverse()
        finishToken(.number, from: start, isName: false)
    }

    // MARK: Runs of letters and digits

    /// Appends the run of letters and digits that starts at `start` to `text`; a `.` or `,` between digits and an
    /// apostrophe between letters belong to the run. Returns the index after the run.
    private mutating func scanRun(from start: Int, upTo upper: Int) -> Int {
        var index = start
        while index < upper {
            let value = folded[index]
            if HeadlineFolding.isWordCharacter(value) {
                text.append(value)
            } else if (value == ASCII.period || value == ASCII.comma) && index > start && index + 1 < upper
                && HeadlineFolding.isDigit(folded[index - 1]) && HeadlineFolding.isDigit(folded[index + 1])
            {
                text.append(value)
            } else if value == ASCII.apostrophe && index > start && index + 1 < upper
                && HeadlineFolding.isLetter(folded[index - 1]) && HeadlineFolding.isLetter(folded[index + 1])
            {
                text.append(value)
            } else {
                break
            }
            index += 1
        }
        return index
    }

    /// Turns the run in `text[start...]` into zero or one token; may consume a magnitude word that follows a number
    /// (`11 billion`) or the second half of a score (`3-1`). Returns the index in `folded` to continue from.
    private mutating func processRun(from start: Int, capitalized: Bool, next: Int, upTo upper: Int) -> Int {
        dropApostrophes(from: start)
        guard text.count > start else { return next }
        var hasDigit = false
        for index in start..<text.count where HeadlineFolding.isDigit(text[index]) {
            hasDigit = true
            break
        }
        guard hasDigit else {
            switch WordRoles.role(of: Self.key(text, start..<text.count)) {
            case .stop:
                truncateText(to: start)
            case .number(let value):
                truncateText(to: start)
                emitNumber(value)
            default:
                stem(from: start)
                finishToken(.word, from: start, isName: capitalized)
            }
            return next
        }
        guard HeadlineFolding.isDigit(text[start]) else {
            finishToken(.number, from: start, isName: false)  // s24, q3, su7: a model or period name
            return next
        }
        var numberEnd = start
        while numberEnd < text.count,
            HeadlineFolding.isDigit(text[numberEnd]) || text[numberEnd] == ASCII.period || text[numberEnd] == ASCII.comma
        {
            numberEnd += 1
        }
        if numberEnd == text.count {
            if numberEnd - start <= 2, let (second, end) = scoreContinuation(after: next, upTo: upper) {
                canonicalNumber(from: start, exponent: 0)
                text.append(ASCII.colon)
                for index in second { text.append(folded[index]) }
                finishToken(.number, from: start, isName: false)
                return end
            }
            var exponent = 0
            var resume = next
            if let (power, end) = magnitudeWord(after: next, upTo: upper) ?? chineseMagnitude(after: next, upTo: upper) {
                exponent = power
                resume = end
            }
            canonicalNumber(from: start, exponent: exponent)
            if resume < upper, folded[resume] == 0x25 { dropTrailingZeros(from: start) }  // 5.0% is 5%
            finishToken(.number, from: start, isName: false)
            return resume
        }
        switch WordRoles.role(of: Self.key(text, numberEnd..<text.count)) {
        case .magnitude(let power):
            truncateText(to: numberEnd)
            canonicalNumber(from: start, exponent: power)
        case .ordinal:
            truncateText(to: numberEnd)
            canonicalNumber(from: start, exponent: 0)
        default:
            break  // 4o, 5g, 24h2, 1990s: kept as written
        }
        finishToken(.number, from: start, isName: false)
        return next
    }

    /// Removes a possessive `'s` and any other apostrophes from `text[start...]` (`world's` → `world`, `don't` →
    /// `dont`).
    private mutating func dropApostrophes(from start: Int) {
        var apostrophe = false
        for index in start..<text.count where text[index] == ASCII.apostrophe {
            apostrophe = true
            break
        }
        guard apostrophe else { return }
        let count = text.count
        if count - start >= 2, text[count - 2] == ASCII.apostrophe, text[count - 1] == 0x73 {
            text.removeLast()
            text.removeLast()
        }
        var write = start
        for read in start..<text.count where text[read] != ASCII.apostrophe {
            text[write] = text[read]
            write += 1
        }
        truncateText(to: write)
    }

    /// If a score or a time continues after `index` (`3-1`, `2 - 0`, `3:0`, `3比0`, `14:30`: a separator and one or
    /// two digits), the range of the second number's digits in `folded` and the index after it. A score is one
    /// token, so `3:0` and `0:3` differ while `3:0` and `3比0` are the same.
    private func scoreContinuation(after index: Int, upTo upper: Int) -> (Range<Int>, Int)? {
        var position = index
        if position < upper, folded[position] == ASCII.space { position += 1 }
        guard position < upper else { return nil }
        let separator = folded[position]
        guard separator == ASCII.colon || separator == ASCII.hyphen || separator == 0x6BD4 else { return nil }  // 比
        position += 1
        if position < upper, folded[position] == ASCII.space { position += 1 }
        var end = position
        while end < upper, HeadlineFolding.isDigit(folded[end]) { end += 1 }
        guard end > position, end - position <= 2 else { return nil }
        if end < upper,
            HeadlineFolding.isLetter(folded[end]) || folded[end] == ASCII.period || folded[end] == ASCII.comma
        {
            return nil
        }
        if end - position == 2 && folded[position] == ASCII.zero { position += 1 }
        return (position..<end, end)
    }

    /// If a magnitude word (`million`, `billion`, `bn`, …) follows `index` after one space, its power of ten and
    /// the index after it.
    private func magnitudeWord(after index: Int, upTo upper: Int) -> (Int, Int)? {
        guard index + 1 < upper, folded[index] == ASCII.space, HeadlineFolding.isLetter(folded[index + 1]) else {
            return nil
        }
        var end = index + 1
        while end < upper, HeadlineFolding.isLetter(folded[end]) { end += 1 }
        guard end - index - 1 >= 2, case .magnitude(let power) = WordRoles.role(of: Self.key(folded, index + 1..<end))
        else { return nil }
        return (power, end)
    }

    /// If 万 (10⁴), 亿 (10⁸) or 万亿 (10¹²) follows `index` right after digits (`1万`, `1611亿`), its power of ten and
    /// the index after it: `1万人` and `10000人` are the same count.
    private func chineseMagnitude(after index: Int, upTo upper: Int) -> (Int, Int)? {
        let tenThousand: UInt32 = 0x4E07  // 万
        let hundredMillion: UInt32 = 0x4EBF  // 亿
        guard index < upper else { return nil }
        if folded[index] == hundredMillion { return (8, index + 1) }
        guard folded[index] == tenThousand else { return nil }
        if index + 1 < upper, folded[index + 1] == hundredMillion { return (12, index + 2) }
        return (4, index + 1)
    }

    /// Drops the zeros after a decimal point at the end of the number in `text[start...]`, and the point when
    /// nothing is left after it (`5.0` → `5`, `2.50` → `2.5`): for a percentage, where the digits are no version.
    private mutating func dropTrailingZeros(from start: Int) {
        guard text[start...].contains(ASCII.period) else { return }
        while text.count > start + 1, text[text.count - 1] == ASCII.zero { text.removeLast() }
        if text.count > start + 1, text[text.count - 1] == ASCII.period { text.removeLast() }
    }

    /// Rewrites the number in `text[start...]` in canonical form: grouping commas removed, multiplied by
    /// 10^`exponent`, leading zeros removed (`1,200` → `1200`; `2.4`, 9 → `2400000000`; `07` → `7`; `6.10` stays
    /// `6.10`; a version such as `6.10.1` stays as written).
    private mutating func canonicalNumber(from start: Int, exponent: Int) {
        var points = 0
        var write = start
        var integerDigits: Int?
        for read in start..<text.count {
            let value = text[read]
            if value == ASCII.comma { continue }
            if value == ASCII.period {
                points += 1
                if integerDigits == nil { integerDigits = write - start }
            }
            text[write] = value
            write += 1
        }
        truncateText(to: write)
        guard points <= 1 else { return }
        if let integerDigits {  // remove the point, then put it back where the exponent moves it
            text.remove(at: start + integerDigits)
            let integerCount = integerDigits + exponent
            if start + integerCount < text.count {
                text.insert(ASCII.period, at: start + integerCount)
            } else {
                for _ in 0..<(start + integerCount - text.count) { text.append(ASCII.zero) }
            }
        } else {
            for _ in 0..<exponent { text.append(ASCII.zero) }
        }
        var leading = start
        while leading + 1 < text.count, text[leading] == ASCII.zero, HeadlineFolding.isDigit(text[leading + 1]) {
            leading += 1
        }
        if leading > start { text.removeSubrange(start..<leading) }
    }

    // MARK: Chinese numerals

    /// If a Chinese numeral starts at `index` and is a count or an ordinal (after 第, or before a counter such as
    /// 号, 届, 次, 年, 季, 人, 审, or 中全会), or is a number by its own shape (two or more numerals with 十, 百, 千, 〇 or 零
    /// among them: `十二`, `二十`, `三百零五`, `二〇二四`), emits it as a number (`十九号` → 19, `第五次` → 5,
    /// `两年` → 2, `十二例` → 12) and returns the index after it. Numerals elsewhere (`一带一路`, `三星`, `五一`,
    /// `十全十美`) stay characters.
    private mutating func chineseNumber(at index: Int, in core: Range<Int>) -> Int? {
        var end = index
        while end < core.upperBound, ChineseCharacters.isDigit(folded[end]) { end += 1 }
        let afterOrdinal = index > core.lowerBound && folded[index - 1] == 0x7B2C  // 第
        // A counter, or a plenary session of a Central Committee (`三中全会`: its third).
        let beforeCounter =
            end < core.upperBound
            && (ChineseCharacters.isCounter(folded[end])
                || (end + 1 < core.upperBound && folded[end] == 0x4E2D && folded[end + 1] == 0x5168))  // 中全
        let run = folded[index..<end]
        guard afterOrdinal || beforeCounter || ChineseCharacters.isNumberByShape(run),
            let value = ChineseCharacters.value(of: run)
        else {
            return nil
        }
        emitNumber(value)
        return end
    }

    // MARK: English words

    /// A light English stemmer on `text[start...]` (ASCII words only): plural and third-person `s`, `ies` → `y`,
    /// then `ed` or `ing`, then a final `e`; a stem keeps at least three letters. `raises`, `raised`, `raise` →
    /// `rais`.
    private mutating func stem(from start: Int) {
        var count = text.count - start
        guard count > 3 else { return }
        for index in start..<text.count where text[index] >= 0x80 { return }
        let s: UInt32 = 0x73
        let e: UInt32 = 0x65
        let i: UInt32 = 0x69
        let u: UInt32 = 0x75
        let last = text[text.count - 1]
        let penultimate = text[text.count - 2]
        if count > 4, last == s, penultimate == e, text[text.count - 3] == i {
            text.removeLast(3)
            text.append(0x79)  // ies → y
        } else if last == s, penultimate != s, penultimate != u, penultimate != i {
            text.removeLast()
        }
        count = text.count - start
        if count > 4, text[text.count - 2] == e, text[text.count - 1] == 0x64 {
            text.removeLast(2)  // ed
        } else if count > 5, text[text.count - 3] == i, text[text.count - 2] == 0x6E, text[text.count - 1] == 0x67 {
            text.removeLast(3)  // ing
        }
        if text.count - start > 3, text[text.count - 1] == e { text.removeLast() }
    }

    /// A 64-bit key for a short ASCII word in `scalars[range]` (up to 8 letters; others get a key no table holds).
    @inline(__always)
    static func key(_ scalars: [UInt32], _ range: Range<Int>) -> UInt64 {
        guard range.count <= 8 else { return .max }
        var key: UInt64 = 0
        for index in range {
            let value = scalars[index]
            guard value < 0x80 else { return .max }
            key = key << 8 | UInt64(value)
        }
        return key
    }
}

/// What a short English word means to the tokenizer.
enum WordRole: Equatable {
    /// An ordinary word.
    case word
    /// A stop word: articles, prepositions, auxiliaries, `percent`.
    case stop
    /// A number word and its value (`two` … `twelve`, `second` … `twelfth`; not `one` or `first`, which are
    /// mostly not counts: `one of`, `first look`).
    case number(Int)
    /// A magnitude after a number (`k`, `m`, `bn`, `million`, …) and its power of ten.
    case magnitude(Int)
    /// An ordinal suffix after a number (`st`, `nd`, `rd`, `th`).
    case ordinal
}

/// The table of ``WordRole``s: a small open-addressing table keyed by ``HeadlineTokenizer/key(_:_:)``, so a lookup
/// is one multiply and a probe or two (Swift's `Set` and `Dictionary` hash with a per-process seed, slowly).
enum WordRoles {
    /// The words and their roles.
    static let entries: [(String, WordRole)] = {
        var entries: [(String, WordRole)] = []
        for word in [
            "a", "an", "the", "to", "of", "in", "on", "at", "for", "by", "with", "from", "into", "as", "and", "or",
            "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "will", "would", "can", "could",
            "its", "it", "this", "that", "percent", "per", "cent", "pct", "s",
        ] {
            entries.append((word, .stop))
        }
        let numbers = [
            ("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6), ("seven", 7), ("eight", 8), ("nine", 9),
            ("ten", 10), ("eleven", 11), ("twelve", 12), ("second", 2), ("third", 3), ("fourth", 4), ("fifth", 5),
            ("sixth", 6), ("seventh", 7), ("eighth", 8), ("ninth", 9), ("tenth", 10), ("eleventh", 11),
            ("twelfth", 12),
        ]
        for (word, value) in numbers { entries.append((word, .number(value))) }
        let magnitudes = [
            ("k", 3), ("thousand", 3), ("m", 6), ("mn", 6), ("mln", 6), ("million", 6), ("b", 9), ("bn", 9),
            ("billion", 9), ("t", 12), ("tn", 12), ("trillion", 12),
        ]
        for (word, power) in magnitudes { entries.append((word, .magnitude(power))) }
        for word in ["st", "nd", "rd", "th"] { entries.append((word, .ordinal)) }
        return entries
    }()

    /// The keys, by slot; 0 for an empty slot.
    private static let keys: [UInt64] = table.keys
    /// The roles, by slot.
    private static let roles: [WordRole] = table.roles
    /// `slots − 1`.
    private static let mask = 255

    /// The table, built once.
    private static let table: (keys: [UInt64], roles: [WordRole]) = {
        var keys = [UInt64](repeating: 0, count: mask + 1)
        var roles = [WordRole](repeating: .word, count: mask + 1)
        for (word, role) in entries {
            let key = HeadlineTokenizer.key(word.unicodeScalars.map(\.value), 0..<word.unicodeScalars.count)
            var slot = slot(of: key)
            while keys[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = key
            roles[slot] = role
        }
        return (keys, roles)
    }()

    /// The first slot to probe for `key`.
    @inline(__always)
    private static func slot(of key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 56) & mask }

    /// The role of the word with key `key`.
    @inline(__always)
    static func role(of key: UInt64) -> WordRole {
        guard key != .max, key != 0 else { return .word }
        var slot = slot(of: key)
        while true {
            let found = keys[slot]
            if found == key { return roles[slot] }
            if found == 0 { return .word }
            slot = (slot + 1) & mask
        }
    }
}

/// Facts about Chinese characters the tokenizer needs: particles, numerals and counters, as bitmaps over the
/// main CJK block.
enum ChineseCharacters {
    /// Grammatical particles that editors add or drop without changing the story: 的 了 着 啦 吗 呢 吧 啊 呀.
    static let particles = "的了着啦吗呢吧啊呀"
    /// Counters and units that make a preceding numeral a number.
    static let counters = "号届次期年月日天个人名季倍家项条款架艘辆元岁级轮场局周点分秒批台位座部集章版代颗枚套份件层成小审强"
    /// Numerals: 〇 零 一 二 两 三 四 五 六 七 八 九 十 百 千.
    static let numerals = "〇零一二两三四五六七八九十百千"

    /// Bit sets over U+4E00…U+9FFF.
    private static let particleBits = bits(particles)
    /// Bit sets over U+4E00…U+9FFF.
    private static let counterBits = bits(counters)

    /// A bit set of the characters of `characters` in U+4E00…U+9FFF.
    private static func bits(_ characters: String) -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: (0xA000 - 0x4E00) / 64)
        for scalar in characters.unicodeScalars where scalar.value >= 0x4E00 && scalar.value < 0xA000 {
            let offset = Int(scalar.value - 0x4E00)
            bits[offset >> 6] |= 1 << UInt64(offset & 63)
        }
        return bits
    }

    /// Whether `value` is in `bits`.
    @inline(__always)
    private static func contains(_ bits: [UInt64], _ value: UInt32) -> Bool {
        guard value >= 0x4E00 && value < 0xA000 else { return false }
        let offset = Int(value - 0x4E00)
        return bits[offset >> 6] & (1 << UInt64(offset & 63)) != 0
    }

    /// Whether `value` is a particle.
    @inline(__always)
    static func isParticle(_ value: UInt32) -> Bool { contains(particleBits, value) }

    /// Whether `value` is a counter.
    @inline(__always)
    static func isCounter(_ value: UInt32) -> Bool { contains(counterBits, value) }

    /// Whether `value` is a numeral.
    @inline(__always)
    static func isDigit(_ value: UInt32) -> Bool { digit(value) != nil }

    /// The value of a numeral: 0…9 for digits, −10, −100, −1000 for the units 十, 百, 千; nil for others.
    static func digit(_ value: UInt32) -> Int? {
        switch value {
        case 0x3007, 0x96F6: return 0  // 〇 零
        case 0x4E00: return 1  // 一
        case 0x4E8C, 0x4E24: return 2  // 二 两
        case 0x4E09: return 3  // 三
        case 0x56DB: return 4  // 四
        case 0x4E94: return 5  // 五
        case 0x516D: return 6  // 六
        case 0x4E03: return 7  // 七
        case 0x516B: return 8  // 八
        case 0x4E5D: return 9  // 九
        case 0x5341: return -10  // 十
        case 0x767E: return -100  // 百
        case 0x5343: return -1000  // 千
        default: return nil
        }
    }

    /// Whether a run of numerals reads as a number whatever surrounds it: two or more numerals, one of them a unit
    /// (十, 百, 千) or a zero (〇, 零): `十二`, `二十`, `三百零五`, `二〇二四`, but not `五一` or `三星`'s `三`.
    static func isNumberByShape(_ run: ArraySlice<UInt32>) -> Bool {
        guard run.count >= 2 else { return false }
        return run.contains { (digit($0) ?? 1) <= 0 }
    }

    /// The value of a run of numerals: `十九` = 19, `二十` = 20, `一百零五` = 105, `二〇二四` = 2024; nil when the
    /// run is no well-formed number (`十三五`: two digits after a unit, `千千`: a unit after one as large).
    static func value(of run: ArraySlice<UInt32>) -> Int? {
        guard !run.isEmpty, run.count <= 8 else { return nil }
        var hasUnit = false
        for value in run where (digit(value) ?? 0) < 0 { hasUnit = true }
        var total = 0
        var current: Int?
        var lastUnit = Int.max
        for value in run {
            guard let number = digit(value) else { return nil }
            if !hasUnit {
                total = total * 10 + number  // digit by digit, as in years
            } else if number == 0 {
                guard current == nil else { return nil }  // 零 stands between a unit and a digit
            } else if number > 0 {
                guard current == nil else { return nil }
                current = number
            } else {
                guard -number < lastUnit else { return nil }
                lastUnit = -number
                total += (current ?? 1) * -number
                current = nil
            }
        }
        return total + (current ?? 0)
    }
}

extension HeadlineTokenizer {
    /// The tokens of `title` as strings, names marked with a leading `^` (for tests and explanations).
    static func describe(_ title: String) -> [String] {
        var tokenizer = HeadlineTokenizer()
        tokenizer.tokenize(title)
        return tokenizer.tokens.map { ($0.isName ? "^" : "") + tokenizer.string(of: $0) }
    }

    /// The numbers of `title`'s core, in order (for tests and explanations).
    static func numbers(in title: String) -> [String] {
        var tokenizer = HeadlineTokenizer()
        tokenizer.tokenize(title)
        return tokenizer.tokens.filter { $0.kind == .number }.map { tokenizer.string(of: $0) }
    }
}
