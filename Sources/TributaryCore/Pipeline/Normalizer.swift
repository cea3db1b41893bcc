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
        var problems: [Problem] = []
        let limit = now.addingTimeInterval(futureTolerance.inSeconds)
        let normalized = items.map { original in
            var item = original
            item.title = item.title.map(Self.plainLine).flatMap { $0.isEmpty ? nil : $0 }
            item.summary = item.summary.map(Self.plainLine).flatMap { $0.isEmpty ? nil : $0 }
            item.url = item.url.map { canonicalURL.clean($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.flatMap {
                $0.isEmpty ? nil : $0
            }
            item.authors = item.authors.map { author in
                var author = author
                author.name = author.name.map(Self.plainLine).flatMap { $0.isEmpty ? nil : $0 }
                return author
            }.filter { !$0.isEmpty }
            var seenTags = Set<String>()
            item.tags = item.tags.map(Self.plainLine).filter { !$0.isEmpty && seenTags.insert($0.lowercased()).inserted }
            for keyPath in [\Item.published, \Item.updated] {
                if let date = item[keyPath: keyPath], date > limit {
                    problems.append(
                        Problem(
                            .warning, "item '\(item.id)': date \(RFC3339.string(from: date)) is in the future; using the time of this run"))
                    item[keyPath: keyPath] = now
                }
            }
            if item.published == nil, item.updated == nil { item.published = now }
            return item
        }
        return (normalized, problems)
    }

    /// One line of plain text: tags stripped and entities decoded when there are any, runs of
    /// whitespace (newlines included) collapsed, ends trimmed.
    static func plainLine(_ text: String) -> String {
        // Byte searches: String.contains(String) would go through Foundation's locale-aware search.
        let markup = text.utf8.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }
        let plain = markup ? HTMLSanitizer.plainText(fromHTML: text) : text
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
}
