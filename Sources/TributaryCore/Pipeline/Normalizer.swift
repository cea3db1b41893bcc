public import Foundation
public import TributaryModel
import TributarySyndication

/// The first pipeline stage: makes every item's text, links and dates uniform, whatever the
/// adapter gave. Titles, summaries, author names and tags become one line of plain text (whitespace
/// collapsed; from an adapter whose text may hold markup, ``ItemTextForm/markup``, tags stripped and
/// entities decoded first); links lose their tracking parameters; undated items get the time they
/// were first seen; dates too far in the future are clamped and reported.
public struct Normalizer: Sendable {
    /// The moment the run started: "first seen" for undated items, "now" for future dates.
    public var now: Date
    /// How far in the future a date may be before it is clamped (clocks and zones are sloppy).
    public var futureTolerance: Duration
    /// How links are cleaned.
    public var canonicalURL: CanonicalURL

    /// Creates a normalizer.
    public init(now: Date, futureTolerance: Duration = .seconds(600), canonicalURL: CanonicalURL = CanonicalURL()) {
        self.now = now
        self.futureTolerance = futureTolerance
        self.canonicalURL = canonicalURL
    }

    /// The items made uniform, and what was changed that the user should hear about; `text` says whether their text
    /// is plain already or may hold markup (``SourceAdapter/itemText`` of the adapter that made them).
    public func normalize(_ items: [Item], text: ItemTextForm = .markup) -> (items: [Item], problems: [Problem]) {
        var items = items
        var problems: [Problem] = []
        for index in items.indices { normalize(&items[index], text: text, problems: &problems) }
        return (items, problems)
    }

    /// Makes one item uniform in place, adding what the user should hear about to `problems`.
    public func normalize(_ item: inout Item, text: ItemTextForm = .markup, problems: inout [Problem]) {
        normalize(&item, text: text, problems: &problems, limit: futureLimit)
    }

    /// The latest date an item may have: `now` plus the tolerance.
    var futureLimit: Date { now.addingTimeInterval(futureTolerance.inSeconds) }

    /// ``normalize(_:text:problems:)`` with ``futureLimit`` worked out once by the caller.
    func normalize(_ item: inout Item, text form: ItemTextForm, problems: inout [Problem], limit: Date) {
        if let title = item.title { item.title = Self.nonEmpty(Self.plainLine(title, form)) }
        if let summary = item.summary { item.summary = Self.nonEmpty(Self.plainLine(summary, form)) }
        if let url = item.url { item.url = Self.nonEmpty(canonicalURL.clean(Self.trimmed(url))) }
        if let external = item.externalURL {
            item.externalURL = Self.nonEmpty(canonicalURL.clean(Self.trimmed(external))).flatMap { $0 == item.url ? nil : $0 }
        }
        if !item.authors.isEmpty {
            item.authors = item.authors.map { author in
                var author = author
                author.name = author.name.map { Self.plainLine($0, form) }.flatMap { $0.isEmpty ? nil : $0 }
                return author
            }.filter { !$0.isEmpty }
        }
        if item.tags.count == 1 {
            let tag = Self.plainLine(item.tags[0], form)
            if tag.isEmpty { item.tags = [] } else if tag != item.tags[0] { item.tags[0] = tag }
        } else if !item.tags.isEmpty, !Self.areDistinctPlainTags(item.tags, form) {
            var seenTags = Set<String>()
            item.tags = item.tags.map { Self.plainLine($0, form) }.filter { !$0.isEmpty && seenTags.insert($0.lowercased()).inserted }
        }
        if let date = item.published, date > limit {
            problems.append(futureDate(item, date))
            item.published = now
        }
        if let date = item.updated, date > limit {
            problems.append(futureDate(item, date))
            item.updated = now
        }
        if item.published == nil, item.updated == nil { item.published = now }
    }

    /// ``areDistinctPlainTags(_:_:)`` for tags that may hold markup.
    static func areDistinctPlainTags(_ tags: [String]) -> Bool { areDistinctPlainTags(tags, .markup) }

    /// Whether normalizing would leave these tags (text of the given form) as they are, found without a new string:
    /// a few tags, each one plain line already and case-simple (``ByteSearch/isCaseSimple(_:)``: `lowercased()`
    /// changes only A–Z and bytes compare as the strings do), no two the same once lower-cased.
    static func areDistinctPlainTags(_ tags: [String], _ form: ItemTextForm) -> Bool {
        guard tags.count <= 8 else { return false }
        for index in tags.indices {
            let plain = tags[index].withUTF8Bytes { bytes in
                !bytes.isEmpty && isPlainLine(bytes, markup: form == .plain) && ByteSearch.isCaseSimple(bytes)
            }
            guard plain else { return false }
            for earlier in tags[..<index] {
                let same = tags[index].withUTF8Bytes { tag in
                    earlier.withUTF8Bytes { earlier in ByteSearch.equalIgnoringASCIICase(tag, earlier) }
                }
                if same { return false }
            }
        }
        return true
    }

    private func futureDate(_ item: Item, _ date: Date) -> Problem {
        Problem(.warning, "item '\(item.id)': date \(RFC3339.string(from: date)) is in the future; using the time of this run")
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// ``plainLine(_:_:)`` for text that may hold markup.
    static func plainLine(_ text: String) -> String { plainLine(text, .markup) }

    /// One line of plain text: runs of whitespace (newlines included) collapsed, ends trimmed; for text that may
    /// hold markup (`form`), tags stripped and entities decoded first when there are any. Plain text keeps its `<`
    /// and `&`: `Vec<T>` stays `Vec<T>`, `R&amp;D` stays `R&amp;D`.
    static func plainLine(_ text: String, _ form: ItemTextForm) -> String {
        if form == .plain { return alreadyPlainLine(text, markup: true) ?? collapsingWhitespace(text) }
        if let plain = alreadyPlainLine(text, markup: false) { return plain }
        // Byte searches: String.contains(String) would go through Foundation's locale-aware search.
        let plain = text.utf8.contains(0x3C) || text.utf8.contains(0x26) ? HTMLSanitizer.plainText(fromHTML: text) : text
        return alreadyPlainLine(plain, markup: true) ?? collapsingWhitespace(plain)
    }

    /// `text` collapsed character by character: what ``plainLine(_:)`` does with text that is not already one line
    /// (the fast paths must agree with it). Control characters (NUL, BEL, …) and the noncharacters U+FFFE and
    /// U+FFFF are left out, as the XML outputs must leave them out: the JSON Feed and the listing say what they say.
    static func collapsingWhitespace(_ plain: String) -> String {
        var output = ""
        output.reserveCapacity(plain.utf8.count)
        var pendingSpace = false
        for character in plain {
            if character.isWhitespace {
                pendingSpace = !output.isEmpty
            } else if isLeftOut(character) {
                continue
            } else {
                if pendingSpace { output.append(" ") }
                pendingSpace = false
                output.append(character)
            }
        }
        return output
    }

    /// Whether a character has no place in a line of text: a control character or a noncharacter XML refuses.
    private static func isLeftOut(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: return character.unicodeScalars.count == 1
        default: return false
        }
    }

    /// `text` when it is one line already (``isPlainLine(_:)``), or `text` without the ASCII spaces at its ends
    /// when that is (``withoutOuterSpaces(_:markup:)``); nil otherwise. With `markup`, `<` and `&` count as
    /// ordinary characters (the text is plain text already, markup removed).
    static func alreadyPlainLine(_ text: String, markup: Bool) -> String? {
        switch text.withUTF8Bytes({ plainLineForm($0, markup: markup) }) {
        case .unchanged: return text
        case .trimmed(let trimmed): return trimmed
        case .neither: return nil
        }
    }

    /// What ``alreadyPlainLine(_:markup:)`` finds in a text's bytes.
    private enum PlainLineForm {
        /// The text is a plain line as it is.
        case unchanged
        /// The text without its outer spaces is one.
        case trimmed(String)
        /// Neither.
        case neither
    }

    private static func plainLineForm(_ bytes: UnsafeBufferPointer<UInt8>, markup: Bool) -> PlainLineForm {
        if isPlainLine(bytes, markup: markup) { return .unchanged }
        return withoutOuterSpaces(bytes, markup: markup).map(PlainLineForm.trimmed) ?? .neither
    }

    /// Whether ``plainLine(_:)`` would return `text` as it is: no markup or entity, no control
    /// character, no whitespace but single spaces between other characters (most titles). A space
    /// before a character outside ASCII and CJK ideographs sends the text the slow way, since it
    /// could begin a grapheme cluster with a combining mark.
    static func isPlainLine(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isPlainLine($0, markup: false) }
    }

    /// ``isPlainLine(_:)`` on the text's UTF-8 bytes (valid UTF-8); with `markup`, `<` and `&` are ordinary.
    static func isPlainLine(_ bytes: UnsafeBufferPointer<UInt8>, markup: Bool) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var atStart = true
        var afterSpace = false
        let count = bytes.count
        var index = 0
        while index < count {
            // Sixteen, then eight bytes at a time while no byte needs a closer look
            // (``plainWord(_:afterSpace:markup:)``).
            while index + 16 <= count {
                let pair = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD2<UInt64>.self)
                guard let endsWithSpace = Self.plainPair(pair, afterSpace: atStart || afterSpace, markup: markup) else { break }
                index += 16
                atStart = false
                afterSpace = endsWithSpace
            }
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                guard let endsWithSpace = Self.plainWord(word, afterSpace: atStart || afterSpace, markup: markup) else { break }
                index += 8
                atStart = false
                afterSpace = endsWithSpace
            }
            guard index < count else { break }
            let byte = bytes[index]
            if byte & 0xC0 == 0x80 {
                // The rest of a scalar whose first byte the word loop passed (no space comes before one).
                index += 1
                atStart = false
                afterSpace = false
                continue
            }
            if byte == 0x20 {
                if atStart || afterSpace { return false }
                afterSpace = true
                index += 1
                continue
            }
            if byte < 0x80 {
                if byte < 0x20 || byte == 0x7F { return false }  // controls
                if !markup && (byte == 0x3C || byte == 0x26) { return false }  // < and &
                index += 1
            } else {
                let value = Self.scalar(bytes, at: &index)
                if afterSpace && !(0x3400...0x9FFF).contains(value) { return false }
                if isWhitespaceAbove127(value) { return false }
                if value <= 0x9F || value == 0xFFFE || value == 0xFFFF { return false }  // C1 controls, noncharacters
            }
            atStart = false
            afterSpace = false
        }
        return !afterSpace
    }

    /// For eight bytes of a text (valid UTF-8, read from anywhere in it) that hold nothing ``isPlainLine(_:markup:)``
    /// must look at closely, whether the last is a space; nil when one needs a closer look: a control or DEL, `<` or
    /// `&` (without `markup`), the first byte of a scalar that may be whitespace above ASCII (every such whitespace
    /// is in U+0080–U+00FF or U+1000–U+3FFF, whose first bytes are C2–C3 and E1–E3: C0–C3 and E0–E3 are caught, one
    /// mask for all; the C1 controls U+0080–U+009F are among them), the EF BF that begins U+FFC0–U+FFFF (where the
    /// noncharacters U+FFFE and U+FFFF are), an EF in the last byte (its BF may follow), a space after a space (or
    /// after the start of the text, when `afterSpace` says the byte before the word counts as one), or a byte outside
    /// ASCII after a space (which the scalar rule decides). Exact bit tricks: no byte is flagged by its neighbour's
    /// borrow or carry.
    @inline(__always)
    private static func plainWord(_ word: UInt64, afterSpace: Bool, markup: Bool) -> Bool? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        /// The high bit of each zero byte of `value`.
        func zeros(_ value: UInt64) -> UInt64 { ~(((value & lows) &+ lows) | value) & highs }
        let controls = ~((word & lows) &+ ones &* (0x80 - 0x20)) & ~word & highs  // ASCII below 0x20
        var special = controls | zeros(word ^ ones &* 0x7F)
        special |= zeros((word & (ones &* 0xDC)) ^ (ones &* 0xC0))  // first bytes C0–C3 and E0–E3
        let efs = zeros(word ^ ones &* 0xEF)
        special |= efs << 8 & zeros(word ^ ones &* 0xBF) | efs & (0x80 << 56)  // EF BF, and EF last
        if !markup { special |= zeros(word ^ ones &* 0x3C) | zeros(word ^ ones &* 0x26) }
        let spaces = zeros(word ^ ones &* 0x20)
        let afterSpaces = spaces << 8 | (afterSpace ? 0x80 : 0)
        special |= afterSpaces & (spaces | word & highs)
        guard special == 0 else { return nil }
        return spaces >> 63 != 0
    }

    /// ``plainWord(_:afterSpace:markup:)`` on sixteen bytes, two words side by side in one vector register (SSE2 on
    /// x86-64), so that they cost about what eight did; the flag of a space at the end of the first word carries into
    /// the second.
    @inline(__always)
    private static func plainPair(_ pair: SIMD2<UInt64>, afterSpace: Bool, markup: Bool) -> Bool? {
        typealias Pair = SIMD2<UInt64>
        /// `byte` in every byte of both words.
        func all(_ byte: UInt64) -> Pair { Pair(repeating: 0x0101_0101_0101_0101 &* byte) }
        let highs = all(0x80)
        let lows = all(0x7F)
        /// The high bit of each zero byte of `value`.
        func zeros(_ value: Pair) -> Pair { ~(((value & lows) &+ lows) | value) & highs }
        let controls = ~((pair & lows) &+ all(0x80 - 0x20)) & ~pair & highs  // ASCII below 0x20
        var special = controls | zeros(pair ^ all(0x7F))
        special |= zeros((pair & all(0xDC)) ^ all(0xC0))  // first bytes C0–C3 and E0–E3
        let efs = zeros(pair ^ all(0xEF))
        special |= efs &<< 8 & zeros(pair ^ all(0xBF)) | efs & Pair(repeating: 0x80 << 56)  // EF BF, and EF last
        if !markup { special |= zeros(pair ^ all(0x3C)) | zeros(pair ^ all(0x26)) }
        let spaces = zeros(pair ^ all(0x20))
        let afterSpaces = spaces &<< 8 | Pair(afterSpace ? 0x80 : 0, spaces[0] &>> 56)
        special |= afterSpaces & (spaces | pair & highs)
        guard special[0] | special[1] == 0 else { return nil }
        return spaces[1] &>> 63 != 0
    }

    /// The scalar whose UTF-8 sequence starts at `index` (valid UTF-8); moves `index` past it.
    @inline(__always)
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> UInt32 {
        let byte = bytes[index]
        switch byte {
        case 0..<0x80:
            index += 1
            return UInt32(byte)
        case 0xC0..<0xE0:
            defer { index += 2 }
            return UInt32(byte & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
        case 0xE0..<0xF0:
            defer { index += 3 }
            return UInt32(byte & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
        default:
            defer { index += 4 }
            return UInt32(byte & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F) << 6
                | UInt32(bytes[index + 3] & 0x3F)
        }
    }

    /// The scalar whose UTF-8 sequence ends at `end` (exclusive).
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, endingAt end: Int) -> UInt32 {
        var start = end - 1
        while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return scalar(bytes, at: &start)
    }

    /// Whether a scalar above U+007F has the Unicode White_Space property (none is above U+3000).
    @inline(__always)
    static func isWhitespaceAbove127(_ value: UInt32) -> Bool {
        switch value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Whether a space next to this scalar is a character of its own: ASCII, CJK ideographs and punctuation and
    /// full-width forms are no combining mark, spacing mark or joiner (which would join a space before them into one
    /// character) and no prepended concatenation mark (which would join a space after them).
    @inline(__always)
    static func standsApartFromSpaces(_ value: UInt32) -> Bool {
        switch value {
        case 0..<0x80, 0x3001...0x3029, 0x3030...0x303F, 0x3400...0x9FFF, 0xFF01...0xFF9D, 0xFFA0...0xFFEF: true
        default: false
        }
    }

    /// `text` without the ASCII spaces at its ends, when what is left is a plain line (``isPlainLine(_:markup:)``)
    /// and the characters next to the spaces stand apart from them (``standsApartFromSpaces(_:)``), so that no space
    /// was part of a larger character; nil otherwise.
    static func withoutOuterSpaces(_ text: String) -> String? {
        var copy = text
        return copy.withUTF8 { withoutOuterSpaces($0, markup: false) }
    }

    /// ``withoutOuterSpaces(_:)`` on UTF-8 bytes.
    static func withoutOuterSpaces(_ bytes: UnsafeBufferPointer<UInt8>, markup: Bool) -> String? {
        guard let start = bytes.firstIndex(where: { $0 != 0x20 }), let last = bytes.lastIndex(where: { $0 != 0x20 }) else { return nil }
        guard start > 0 || last < bytes.count - 1 else { return nil }
        var index = start
        guard standsApartFromSpaces(scalar(bytes, at: &index)), standsApartFromSpaces(scalar(bytes, endingAt: last + 1)) else {
            return nil
        }
        let inner = UnsafeBufferPointer(rebasing: bytes[start...last])  // spaces are whole scalars: no cut in one
        // Cut at ASCII spaces from a string's bytes: valid UTF-8 by construction.
        return isPlainLine(inner, markup: markup) ? String(validUTF8: inner) : nil
    }

    /// `text` without whitespace at either end; links almost never have any, and then are not copied.
    static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        let clean = { (byte: UInt8) in byte > 0x20 && byte < 0x7F }
        return clean(first) && clean(last) ? text : text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
