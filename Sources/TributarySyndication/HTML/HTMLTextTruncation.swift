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
}
