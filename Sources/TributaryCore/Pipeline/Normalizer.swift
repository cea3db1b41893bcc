public import Foundation
public import TributaryModel
import TributarySyndication

/// The first pipeline stage: makes every item's text, links and dates uniform, whatever the
/// adapter gave. Titles, summaries, author names and tags become plain text (tags stripped,
/// entities decoded, whitespace collapsed); links lose their tracking parameters; undated items
/// get the time they were first seen; dates too far in the future are clamped and reported.
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

    /// The items made uniform, and what was changed that the user should hear about.
    public func normalize(_ items: [Item]) -> (items: [Item], problems: [Problem]) {
        var items = items
        var problems: [Problem] = []
        for index in items.indices { normalize(&items[index], problems: &problems) }
        return (items, problems)
    }

    /// Makes one item uniform in place, adding what the user should hear about to `problems`.
    public func normalize(_ item: inout Item, problems: inout [Problem]) {
        let limit = now.addingTimeInterval(futureTolerance.inSeconds)
        if let title = item.title { item.title = Self.nonEmpty(Self.plainLine(title)) }
        if let summary = item.summary { item.summary = Self.nonEmpty(Self.plainLine(summary)) }
        if let url = item.url { item.url = Self.nonEmpty(canonicalURL.clean(Self.trimmed(url))) }
        if !item.authors.isEmpty {
            item.authors = item.authors.map { author in
                var author = author
                author.name = author.name.map(Self.plainLine).flatMap { $0.isEmpty ? nil : $0 }
                return author
            }.filter { !$0.isEmpty }
        }
        if item.tags.count == 1 {
            let tag = Self.plainLine(item.tags[0])
            if tag.isEmpty { item.tags = [] } else if tag != item.tags[0] { item.tags[0] = tag }
        } else if !item.tags.isEmpty {
            var seenTags = Set<String>()
            item.tags = item.tags.map(Self.plainLine).filter { !$0.isEmpty && seenTags.insert($0.lowercased()).inserted }
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

    private func futureDate(_ item: Item, _ date: Date) -> Problem {
        Problem(.warning, "item '\(item.id)': date \(RFC3339.string(from: date)) is in the future; using the time of this run")
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// One line of plain text: tags stripped and entities decoded when there are any, runs of
    /// whitespace (newlines included) collapsed, ends trimmed.
    static func plainLine(_ text: String) -> String {
        if isPlainLine(text) { return text }
        if let trimmed = withoutOuterSpaces(text), isPlainLine(trimmed) { return trimmed }
        // Byte searches: String.contains(String) would go through Foundation's locale-aware search.
        let plain = text.utf8.contains(0x3C) || text.utf8.contains(0x26) ? HTMLSanitizer.plainText(fromHTML: text) : text
        var output = ""
        output.reserveCapacity(plain.utf8.count)
        var pendingSpace = false
        for character in plain {
            if character.isWhitespace {
                pendingSpace = !output.isEmpty
            } else {
                if pendingSpace { output.append(" ") }
                pendingSpace = false
                output.append(character)
            }
        }
        return output
    }

    /// Whether ``plainLine(_:)`` would return `text` as it is: no markup or entity, no control
    /// character, no whitespace but single spaces between other characters (most titles). A space
    /// before a character outside ASCII and CJK ideographs sends the text the slow way, since it
    /// could begin a grapheme cluster with a combining mark.
    static func isPlainLine(_ text: String) -> Bool {
        var atStart = true
        var afterSpace = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x20 {
                if atStart || afterSpace { return false }
                afterSpace = true
                continue
            }
            if value < 0x80 {
                if value < 0x20 || value == 0x7F || value == 0x3C || value == 0x26 { return false }  // controls, < and &
            } else {
                if afterSpace && !(0x3400...0x9FFF).contains(value) { return false }
                if value <= 0x3000 && scalar.properties.isWhitespace { return false }  // none above U+3000
            }
            atStart = false
            afterSpace = false
        }
        return !afterSpace
    }

    /// `text` without the ASCII spaces at its ends, when the characters next to them are ASCII or
    /// CJK ideographs (so that no space was part of a larger character); nil otherwise.
    static func withoutOuterSpaces(_ text: String) -> String? {
        let utf8 = text.utf8
        guard let start = utf8.firstIndex(where: { $0 != 0x20 }), let last = utf8.lastIndex(where: { $0 != 0x20 }) else { return nil }
        let inner = String(decoding: utf8[start...last], as: UTF8.self)  // spaces are whole scalars: no cut in one
        guard let first = inner.unicodeScalars.first, let final = inner.unicodeScalars.last else { return nil }
        let safe = { (scalar: Unicode.Scalar) in scalar.isASCII || (0x3400...0x9FFF).contains(scalar.value) }
        return safe(first) && safe(final) ? inner : nil
    }

    /// `text` without whitespace at either end; links almost never have any, and then are not copied.
    static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        let clean = { (byte: UInt8) in byte > 0x20 && byte < 0x7F }
        return clean(first) && clean(last) ? text : text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
