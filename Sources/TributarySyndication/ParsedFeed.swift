public import TributaryModel

/// The syndication formats Tributary reads and writes.
public enum FeedFormat: String, Sendable, Hashable {
    case jsonFeed = "JSON Feed"
    case atom = "Atom"
    case rss = "RSS"
}

/// A feed document after parsing: its metadata, its items and what went wrong on the way.
public struct ParsedFeed: Sendable {
    /// The format the document turned out to be, with its version (e.g. `1.1`).
    public var format: FeedFormat
    /// The format's version as the document declared it.
    public var version: String?
    /// What the feed says about itself.
    public var info: FeedInfo
    /// The items, in document order.
    public var items: [Item]
    /// Problems met and recovered from, with positions where known.
    public var problems: [Problem]
    /// How many items followed the first `FeedParser.Options.maxItems` and were skipped unread.
    public var itemsLeftOut: Int

    /// Creates a parse result.
    public init(format: FeedFormat, version: String?, info: FeedInfo, items: [Item], problems: [Problem], itemsLeftOut: Int = 0) {
        self.format = format
        self.version = version
        self.info = info
        self.items = items
        self.problems = problems
        self.itemsLeftOut = itemsLeftOut
    }
}

/// A document that could not be read as a feed at all.
public struct FeedParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The line, from 1, when known.
    public var line: Int?
    /// The column, from 1, when known.
    public var column: Int?

    /// Creates a parse error.
    public init(_ message: String, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.line = line
        self.column = column
    }

    /// `"3:14: expected ',' …"`, or the message alone.
    public var description: String {
        guard let line else { return message }
        return "\(line):\(column.map { "\($0):" } ?? "") \(message)"
    }
}
