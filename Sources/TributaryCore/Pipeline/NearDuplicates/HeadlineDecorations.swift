/// The second step of headline normalization: find the part of a folded headline that tells the story, without the
/// decorations that editors and sites put around it: bracketed tags at either end (`【独家】`, `[Update]`, `(视频)`,
/// `(video)`), label prefixes followed by a delimiter (`独家：`, `突发！`, `视频｜`, `BREAKING:`, `Exclusive |`), and
/// a short site name after the last separator (` - Reuters`, ` | TechCrunch`, `｜36氪`, `_网易新闻`).
///
/// Works on the output of ``HeadlineFolding`` (lower case, ASCII punctuation) and only moves the two ends of a range,
/// so it allocates nothing (but for the list of removed tags, which its caller reuses). A removed tag is not forgotten:
/// its numbers still tell stories apart (`Changelog (v1.2.3)` and `Changelog (v1.2.4)`, `记者会（3月4日）` and
/// `记者会（3月5日）`), so ``core(of:count:tags:)`` says where the tags were.
enum HeadlineDecorations {
    private typealias ASCII = HeadlineFolding.ASCII

    /// Labels that introduce a headline when a delimiter follows them (folded: lower case, simplified Chinese).
    static let labels: [String] = [
        "breaking", "breaking news", "exclusive", "update", "updated", "updates", "live", "live updates", "watch",
        "video", "videos", "photos", "in pictures", "just in", "developing", "developing story", "opinion",
        "analysis", "explainer", "factbox", "urgent", "alert", "news alert", "podcast", "editorial", "new",
        "独家", "快讯", "突发", "重磅", "最新", "视频", "图集", "组图", "直播", "原创", "深度", "更新", "首发", "官宣",
        "刚刚", "热点", "号外", "速报", "要闻", "独家报道", "最新消息", "突发新闻", "快报",
    ]

    /// The labels' scalars, back to back.
    private static let labelScalars: [UInt32] = labels.flatMap { $0.unicodeScalars.map(\.value) }
    /// For a first scalar, the labels that start with it (bit `i` for label `i`), in a small open-addressing table
    /// of (scalar, mask) pairs; 64 slots, so lookups are a probe or two.
    private static let labelsByFirst: [(UInt32, UInt64)] = {
        precondition(labels.count <= 64, "a label mask has 64 bits")
        var table = [(UInt32, UInt64)](repeating: (0, 0), count: 64)
        for (index, label) in labels.enumerated() {
            guard let first = label.unicodeScalars.first?.value else { continue }
            var slot = Int((first &* 0x9E37_79B1) >> 26)
            while table[slot].0 != 0 && table[slot].0 != first { slot = (slot + 1) & 63 }
            table[slot] = (first, table[slot].1 | 1 << UInt64(index))
        }
        return table
    }()

    /// The labels that start with `first`, as a bit mask.
    private static func labels(startingWith first: UInt32) -> UInt64 {
        var slot = Int((first &* 0x9E37_79B1) >> 26)
        while true {
            let (scalar, mask) = labelsByFirst[slot]
            if scalar == first { return mask }
            if scalar == 0 { return 0 }
            slot = (slot + 1) & 63
        }
    }

    /// Where each label ends in `labelScalars`.
    private static let labelEnds: [Int] = {
        var end = 0
        return labels.map { label in
            end += label.unicodeScalars.count
            return end
        }
    }()

    /// The characters that may end a label.
    private static func isLabelDelimiter(_ value: UInt32) -> Bool {
        value == ASCII.colon || value == ASCII.bar || value == ASCII.exclamation || value == ASCII.hyphen
            || value == ASCII.comma
    }

    /// The longest bracketed tag, in scalars, that is removed from either end.
    static let maximumTagLength = 16
    /// The longest site-name suffix, in scalars.
    static let maximumSuffixLength = 32
    /// The most words a site-name suffix may have.
    static let maximumSuffixWords = 4
    /// The most CJK characters a site-name suffix may have (`新浪财经`, `中国新闻网`, `澎湃新闻`).
    static let maximumSuffixCJK = 8

    /// The range of `text[0..<count]` that remains once the decorations are removed; never empty unless the text
    /// has nothing but spaces and punctuation. `tags` is set to the insides of the bracketed tags removed.
    static func core(of text: [UInt32], count: Int, tags: inout [Range<Int>]) -> Range<Int> {
        tags.removeAll(keepingCapacity: true)
        var range = trimmed(text, 0..<count)
        var separators = false
        for index in range where text[index] == ASCII.bar || text[index] == ASCII.underscore || text[index] == ASCII.hyphen {
            separators = true
            break
        }
        for _ in 0..<6 {
            guard !range.isEmpty else { break }
            let before = range
            range = withoutBracketedTags(text, range, tags: &tags)
            range = withoutLabel(text, range)
            if separators { range = withoutSiteSuffix(text, range) }
            if range == before { break }
        }
        return range
    }

    /// `range` without spaces and trailing sentence punctuation at either end.
    static func trimmed(_ text: [UInt32], _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, text[lower] == ASCII.space { lower += 1 }
        while upper > lower, text[upper - 1] == ASCII.space { upper -= 1 }
        return lower..<upper
    }

    /// Whether `range` holds a letter, digit or CJK character (something worth keeping).
    private static func hasContent(_ text: [UInt32], _ range: Range<Int>) -> Bool {
        for index in range where HeadlineFolding.isWordCharacter(text[index]) || HeadlineFolding.isCJK(text[index]) {
            return true
        }
        return false
    }

    /// Removes a short `[...]` or `(...)` tag from the start and from the end, if something remains, adding the
    /// insides of those removed to `tags`.
    private static func withoutBracketedTags(_ text: [UInt32], _ range: Range<Int>, tags: inout [Range<Int>]) -> Range<Int> {
        var range = range
        let lower = range.lowerBound
        if lower < range.upperBound, let close = closer(of: text[lower]) {
            let limit = min(range.upperBound, lower + maximumTagLength + 2)
            if let end = (lower + 1..<limit).first(where: { text[$0] == close }), end > lower + 1 {
                let rest = trimmed(text, end + 1..<range.upperBound)
                if hasContent(text, rest) {
                    tags.append(lower + 1..<end)
                    range = rest
                }
            }
        }
        let upper = range.upperBound
        if upper > range.lowerBound, let open = opener(of: text[upper - 1]) {
            let limit = max(range.lowerBound, upper - maximumTagLength - 2)
            if let start = (limit..<upper - 1).reversed().first(where: { text[$0] == open }), start < upper - 2 {
                let rest = trimmed(text, range.lowerBound..<start)
                if hasContent(text, rest) {
                    tags.append(start + 1..<upper - 1)
                    range = rest
                }
            }
        }
        return range
    }

    /// The closing bracket for an opening one.
    private static func closer(of value: UInt32) -> UInt32? {
        switch value {
        case ASCII.openBracket: return ASCII.closeBracket
        case ASCII.openParen: return ASCII.closeParen
        default: return nil
        }
    }

    /// The opening bracket for a closing one.
    private static func opener(of value: UInt32) -> UInt32? {
        switch value {
        case ASCII.closeBracket: return ASCII.openBracket
        case ASCII.closeParen: return ASCII.openParen
        default: return nil
        }
    }

    /// Removes a known label and its delimiter from the start (`BREAKING:`, `独家｜`, `突发！`).
    private static func withoutLabel(_ text: [UInt32], _ range: Range<Int>) -> Range<Int> {
        var candidates = labels(startingWith: text[range.lowerBound])
        while candidates != 0 {
            let label = candidates.trailingZeroBitCount
            candidates &= candidates - 1
            let start = label == 0 ? 0 : labelEnds[label - 1]
            let length = labelEnds[label] - start
            guard length < range.count else { continue }
            var matches = true
            for offset in 1..<length where text[range.lowerBound + offset] != labelScalars[start + offset] {
                matches = false
                break
            }
            guard matches else { continue }
            var index = range.lowerBound + length
            while index < range.upperBound, text[index] == ASCII.space { index += 1 }
            guard index < range.upperBound, isLabelDelimiter(text[index]) else { continue }
            while index < range.upperBound, isLabelDelimiter(text[index]) || text[index] == ASCII.space { index += 1 }
            let rest = trimmed(text, index..<range.upperBound)
            if hasContent(text, rest) { return rest }
        }
        return range
    }

    /// Removes a short site name after the last separator: ` - `, `|` or `_`.
    private static func withoutSiteSuffix(_ text: [UInt32], _ range: Range<Int>) -> Range<Int> {
        guard let (separatorStart, separatorEnd) = lastSeparator(text, range) else { return range }
        let suffix = trimmed(text, separatorEnd..<range.upperBound)
        let prefix = trimmed(text, range.lowerBound..<separatorStart)
        guard !suffix.isEmpty, suffix.count <= maximumSuffixLength, prefix.count > suffix.count,
            hasContent(text, prefix), isSiteName(text, suffix)
        else { return range }
        return prefix
    }

    /// The last ` - ` (spaced dash), `|` or `_` in `range`, as the range of the separator.
    private static func lastSeparator(_ text: [UInt32], _ range: Range<Int>) -> (Int, Int)? {
        var index = range.upperBound - 1
        while index > range.lowerBound {
            let value = text[index]
            if value == ASCII.bar || value == ASCII.underscore { return (index, index + 1) }
            if value == ASCII.hyphen, text[index - 1] == ASCII.space, index + 1 < range.upperBound,
                text[index + 1] == ASCII.space
            {
                return (index, index + 1)
            }
            index -= 1
        }
        return nil
    }

    /// Whether `range` looks like a site name: at most a few words and no stand-alone number (a number glued to
    /// letters, as in `36氪` or `9to5mac`, is part of a name; ` - 2024` or ` - 3 - 1` is not).
    private static func isSiteName(_ text: [UInt32], _ range: Range<Int>) -> Bool {
        var words = 0
        var chinese = 0
        var inWord = false
        var index = range.lowerBound
        while index < range.upperBound {
            let value = text[index]
            if value == ASCII.space {
                inWord = false
            } else if !inWord {
                inWord = true
                words += 1
            }
            if HeadlineFolding.isCJK(value) { chinese += 1 }
            if HeadlineFolding.isDigit(value) {
                var end = index
                while end < range.upperBound, HeadlineFolding.isDigit(text[end]) { end += 1 }
                let before = index > range.lowerBound ? text[index - 1] : ASCII.space
                let after = end < range.upperBound ? text[end] : ASCII.space
                let glued = isNameCharacter(before) || isNameCharacter(after)
                if !glued { return false }
                index = end
                continue
            }
            index += 1
        }
        return words <= maximumSuffixWords && chinese <= maximumSuffixCJK
    }

    /// A letter or CJK character (which a digit can be glued to in a name).
    private static func isNameCharacter(_ value: UInt32) -> Bool {
        HeadlineFolding.isLetter(value) || HeadlineFolding.isCJK(value)
    }
}
