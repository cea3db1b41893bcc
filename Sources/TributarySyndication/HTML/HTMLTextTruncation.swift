import TributaryModel

/// Shortens plain text to a number of Characters, preferring a word boundary.
enum HTMLTextTruncation {
    /// The marker appended to cut text.
    static let ellipsis = "…"

    /// `text` unchanged when it has at most `limit` Characters; otherwise its first `limit`
    /// Characters or fewer, cut back to the last whitespace when that lies within the final fifth
    /// of the limit, trailing whitespace removed, then `ellipsis`.
    static func truncate(_ text: String, limit: Int) -> String {
        let limit = max(0, limit)
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end < text.endIndex else {
            return text
        }
        var cut = end
        if !text[end].isWhitespace {
            // Mid-word: back up to a space, unless that would lose more than a fifth of the limit.
            let earliest = text.index(text.startIndex, offsetBy: limit - limit / 5)
            if let space = text[earliest..<end].lastIndex(where: \.isWhitespace) {
                cut = space
            }
        }
        var kept = text[..<cut]
        while kept.last?.isWhitespace == true { kept = kept.dropLast() }
        return kept + ellipsis
    }

    /// `truncate(String(decoding: text, as: UTF8.self), limit:)` for valid UTF-8, counted on the
    /// bytes when the text is made of scalars that are each a Character of their own (see
    /// `simpleScalarLength`), so only the kept part becomes a `String`; other text takes the
    /// `String` path.
    static func truncate(utf8 text: UnsafeBufferPointer<UInt8>, limit: Int) -> String {
        let limit = max(0, limit)
        let earliestCount = limit - limit / 5
        var earliest = 0
        var end = 0
        var walked = 0
        while walked < limit, end < text.count {
            if walked == earliestCount { earliest = end }
            guard let length = simpleScalarLength(text, at: end) else {
                return truncate(String(validUTF8: text), limit: limit)
            }
            end += length
            walked += 1
        }
        if walked == earliestCount { earliest = end }
        guard end < text.count else { return String(validUTF8: text) }
        // The Character at `end` is one scalar when the scalar after it is simple too.
        guard let length = simpleScalarLength(text, at: end),
            end + length == text.count || simpleScalarLength(text, at: end + length) != nil
        else { return truncate(String(validUTF8: text), limit: limit) }
        var cut = end
        if text[end] != 0x20 {
            // Mid-word: back up to a space, unless that would lose more than a fifth of the limit.
            var space = end
            while space > earliest, text[space - 1] != 0x20 { space -= 1 }
            if space > earliest { cut = space - 1 }
        }
        while cut > 0, text[cut - 1] == 0x20 { cut -= 1 }
        return String(validUTF8: UnsafeBufferPointer(rebasing: text[..<cut])) + ellipsis
    }

    /// Whether valid UTF-8 `text` has more than `count` Characters; nil when that cannot be told
    /// from the bytes (a scalar among the first `count + 1` is not simple).
    static func hasMoreCharacters(utf8 text: UnsafeBufferPointer<UInt8>, than count: Int) -> Bool? {
        var index = 0
        var walked = 0
        while walked <= count {
            guard index < text.count else { return false }
            guard let length = simpleScalarLength(text, at: index) else { return nil }
            index += length
            walked += 1
        }
        return true
    }

    /// The length of the scalar at `index` when it is "simple": printable ASCII, Latin-1 and
    /// Latin Extended-A/B letters and signs (U+00A1–U+024F but the soft hyphen), general
    /// punctuation U+2010–U+2027, CJK punctuation U+3001–U+3029, CJK ideographs U+4E00–U+9FFF
    /// and full-width forms U+FF01–U+FF5E. None of them joins a neighbour into one grapheme
    /// cluster (none is a control, an extending or spacing mark, a joiner, a Hangul jamo or a
    /// regional indicator), so between two simple scalars there is always a Character boundary;
    /// and the only whitespace among them is the space, 0x20. Nil for anything else.
    @inline(__always)
    static func simpleScalarLength(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = text[index]
        if lead < 0x80 { return lead >= 0x20 && lead < 0x7F ? 1 : nil }
        if lead < 0xE0 {
            guard index + 1 < text.count else { return nil }
            let scalar = UInt32(lead & 0x1F) << 6 | UInt32(text[index + 1] & 0x3F)
            return scalar >= 0xA1 && scalar <= 0x24F && scalar != 0xAD ? 2 : nil
        }
        guard lead < 0xF0, index + 2 < text.count else { return nil }
        let scalar = UInt32(lead & 0x0F) << 12 | UInt32(text[index + 1] & 0x3F) << 6 | UInt32(text[index + 2] & 0x3F)
        switch scalar {
        case 0x4E00...0x9FFF, 0x2010...0x2027, 0x3001...0x3029, 0xFF01...0xFF5E: return 3
        default: return nil
        }
    }
}
