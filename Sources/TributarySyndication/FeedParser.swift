public import Foundation
import TributaryModel

/// Reads any supported feed document — RSS 0.90–2.0, RSS 1.0 (RDF), Atom 0.3 and 1.0, JSON
/// Feed — choosing the format by content.
///
/// XML is streamed through libxml2's SAX2 push parser (no document tree), after the bytes are
/// decoded to UTF-8 (`DocumentDecoder`) and repaired (`XMLPrepass`: undeclared HTML entities,
/// bare `&`, unclosed `<br>`, entity expansion under a budget). Parsing is lenient like Python's
/// feedparser: what can be read is returned, with a `Problem` (and line:column) for everything
/// that was guessed, repaired or lost. It throws only when there is nothing usable: the input
/// is not XML or JSON, not a feed, too large, or hostile (entity-expansion attacks, absurd
/// nesting). External entities and DTDs are never loaded, and nothing touches the network.
///
/// A `FeedParser` is an immutable value; `parse` may be called from any thread, concurrently.
public struct FeedParser: Sendable {
    /// How to read a document and label its items.
    public struct Options: Sendable {
        /// The source name given to every item.
        public var source: String
        /// The feed's own URL: the base for relative links when the document gives no `xml:base`.
        public var documentURL: URL?
        /// The charset from the HTTP `Content-Type`, if any.
        public var charset: String?
        /// The zone for dates written without one.
        public var timeZone: TimeZone
        /// The instant relative dates ("2 hours ago") are read against.
        public var now: Date
        /// Whether item HTML is run through `HTMLSanitizer`.
        public var sanitize: Bool
        /// The largest document accepted, in bytes.
        public var maxBytes: Int
        /// The setting `maxBytes` comes from (`max_size`), named when a document is refused for its size so that the
        /// message says what to raise; nil for none.
        public var maxBytesSetting: String?
        /// Whether the error for a document that is no markup may quote its first characters (`it starts with
        /// 'hello world'`). False for a local file: the error is a source's failure, shown on the published page
        /// and in reports, and a file the source was pointed at by mistake (a secret) must not appear there.
        public var quotesContent: Bool
        /// The most items read, in document order; later ones are skipped unread and counted
        /// (`ParsedFeed.itemsLeftOut`). Int.max for all.
        public var maxItems: Int

        /// Creates options; only the source name is required.
        public init(
            source: String, documentURL: URL? = nil, charset: String? = nil, timeZone: TimeZone = .gmt, now: Date = Date(),
            sanitize: Bool = true, maxBytes: Int = 20 << 20, maxBytesSetting: String? = nil, quotesContent: Bool = true,
            maxItems: Int = .max
        ) {
            self.source = source
            self.documentURL = documentURL
            self.charset = charset
            self.timeZone = timeZone
            self.now = now
            self.sanitize = sanitize
            self.maxBytes = maxBytes
            self.maxBytesSetting = maxBytesSetting
            self.quotesContent = quotesContent
            self.maxItems = maxItems
        }
    }

    /// The most attachments (enclosures, `media:content`, Atom `link rel="enclosure"`, JSON Feed
    /// `attachments`) one item keeps, after merging those with the same URL; later ones are left
    /// out, with one warning for the item. Far above what a real item carries (a gallery of a few
    /// hundred images), it keeps a hostile one from filling every output and the state.
    public static let maxAttachmentsPerItem = 10_000

    /// The most authors one item, or a feed, keeps (and as many lower-ranked ones, `itunes:author`),
    /// after leaving out duplicates; later ones are left out, with one warning. A physics paper's
    /// author list (some 3,000 names) fits.
    public static let maxAuthors = 10_000

    /// The options every parse uses.
    public var options: Options

    /// Creates a parser.
    public init(_ options: Options) {
        self.options = options
    }

    /// Parses a document: its metadata, items and problems. Throws only when nothing usable can
    /// be read (see the type's documentation); everything else is a `Problem` in the result.
    public func parse(_ bytes: [UInt8]) throws(FeedParseError) -> ParsedFeed {
        try parse(bytes, liftingCDATA: true)
    }

    /// `parse(_:)`, with CDATA sections lifted out of libxml2's way (`LiftedContent`) or not; the
    /// result is the same either way.
    func parse(_ bytes: [UInt8], liftingCDATA: Bool) throws(FeedParseError) -> ParsedFeed {
        guard bytes.count <= options.maxBytes else {
            throw FeedParseError(
                "refused: the document is \(bytes.count) bytes, more than the limit of \(options.maxBytes)"
                    + (options.maxBytesSetting.map { " bytes (\($0))" } ?? ""))
        }
        guard !FormatSniffer.startsWithBrace(bytes) else { return try parseJSON(bytes) }
        var document: (feed: ParsedFeed, utf8: [UInt8], contentAfterRoot: Bool)
        do {
            document = try parseXML(bytes, charset: options.charset, liftingCDATA: liftingCDATA)
        } catch {
            throw notMarkup(bytes) ?? error
        }
        var feed = document.feed
        // Documents after the first (see `ConcatenatedDocuments`), read from the first one's UTF-8. The first may
        // follow text a server printed (a PHP warning), blanked as the prepass blanked it so its root is found.
        var ids: Set<String> = []
        var position = (line: 1, column: 1)
        var count = 1
        while document.contentAfterRoot, count < ConcatenatedDocuments.limit,
            let start = ConcatenatedDocuments.nextDocument(
                in: count == 1 ? XMLPrepass.blankingTextBeforeDocument(document.utf8).bytes : document.utf8)
        {
            let next = document.utf8.withUnsafeBufferPointer { XMLPrepass.position(of: start, in: $0) }
            position = (position.line + next.line - 1, Self.column(next.column, onLine: next.line, in: position))
            // What libxml2 said of the bytes after the last document's root element concerns this one's start.
            feed.problems.removeAll { problem in
                guard let line = problem.line, let column = problem.column else { return false }
                return (line, column) >= (position.line, position.column)
            }
            if count == 1 { ids = Set(feed.items.map(\.id)) }
            feed.problems.append(
                Problem(.warning, "another document follows; its items are read too", line: position.line, column: position.column))
            do {
                document = try parseXML(Array(document.utf8[start...]), charset: "utf-8", liftingCDATA: liftingCDATA)
            } catch {
                feed.problems.append(Problem(.error, error.description, line: position.line, column: position.column))
                break
            }
            for item in document.feed.items where ids.insert(item.id).inserted {
                if feed.items.count < options.maxItems {
                    feed.items.append(item)
                } else {
                    feed.itemsLeftOut += 1
                }
            }
            feed.itemsLeftOut += document.feed.itemsLeftOut
            for var problem in document.feed.problems {
                if let line = problem.line {
                    problem.line = position.line + line - 1
                    problem.column = problem.column.map { Self.column($0, onLine: line, in: position) }
                }
                feed.problems.append(problem)
            }
            count += 1
        }
        return feed
    }

    /// One XML document: what it gave, its bytes in UTF-8, and whether libxml2 met content after its root element.
    private func parseXML(_ bytes: [UInt8], charset: String?, liftingCDATA: Bool) throws(FeedParseError) -> (
        feed: ParsedFeed, utf8: [UInt8], contentAfterRoot: Bool
    ) {
        let decoded = DocumentDecoder(httpCharset: charset).decode(bytes)
        let builder = FeedBuilder(
            settings: FeedBuilder.Settings(
                source: options.source, documentURL: options.documentURL,
                dateParser: DateParser(timeZone: options.timeZone, now: options.now), sanitize: options.sanitize,
                maxItems: options.maxItems))
        let lifted = liftingCDATA ? LiftedContent() : nil
        let stream = XMLStreamParser(builder: builder, lifted: lifted)
        try stream.begin()
        let repairs = try XMLPrepass(expansionLimit: max(1 << 20, decoded.bytes.count)).run(decoded.bytes, lifting: lifted) {
            stream.feed($0)
        }
        try stream.finish()
        var feed = builder.result()
        feed.problems = decoded.problems + repairs + feed.problems
        return (feed, decoded.bytes, stream.contentAfterRoot)
    }

    /// Why a document that libxml2 found no root element in is no feed, when it does not start with markup at all
    /// (plain text, a log line before the feed, a JSON array): what it starts with, which libxml2's "Document is
    /// empty" does not say. Nil when it starts with `<` or is empty, for libxml2's own message. Without
    /// `quotesContent` it names only what kind of start it is.
    private func notMarkup(_ bytes: [UInt8]) -> FeedParseError? {
        let text = String(decoding: DocumentDecoder(httpCharset: options.charset).decode(bytes).bytes, as: UTF8.self)
        let content = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard let first = content.first, first != "<" else { return nil }
        var shown = ""
        for character in content.prefix(40) {
            switch character {
            case "\n": shown += "\\n"
            case "\r\n": shown += "\\r\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            case "'": shown += "\\'"
            case _ where character.unicodeScalars.contains { $0.properties.generalCategory == .control }:
                shown += character.unicodeScalars.map { "\\u{\(String($0.value, radix: 16))}" }.joined()
            default: shown.append(character)
            }
        }
        if content.count > 40 { shown += "…" }
        if first == "[" {
            return FeedParseError(
                (options.quotesContent ? "it starts with '\(shown)', a JSON array" : "it is a JSON array")
                    + ": a JSON Feed is an object ({…})")
        }
        var message =
            options.quotesContent
            ? "it starts with '\(shown)', which is neither XML nor JSON" : "it starts with neither '<' nor '{': it is neither XML nor JSON"
        let lines = content.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if let later = lines.dropFirst().firstIndex(where: { $0.first == "{" || $0.first == "<" }) {
            let skipped = text[..<content.startIndex].filter(\.isNewline).count
            message += "; a document seems to begin on line \(skipped + later + 1): is something printed before it?"
        }
        return FeedParseError(message)
    }

    /// A column on a line of a document that begins at `document` in the whole response, as a column in the response:
    /// only the document's first line is shifted.
    private static func column(_ column: Int, onLine line: Int, in document: (line: Int, column: Int)) -> Int {
        line == 1 ? document.column + column - 1 : column
    }

    /// The format of a document, judged by its content: a byte order mark and whitespace are
    /// skipped; `{` means JSON Feed; otherwise the root element after the XML prolog decides
    /// (`rss`, `rdf:RDF` or `channel` → RSS, `feed` → Atom). Nil when it is none of these.
    public static func sniff(_ bytes: [UInt8]) -> FeedFormat? {
        FormatSniffer.format(of: bytes)
    }

    private func parseJSON(_ bytes: [UInt8]) throws(FeedParseError) -> ParsedFeed {
        try JSONFeedParser(
            source: options.source, timeZone: options.timeZone, now: options.now, sanitize: options.sanitize, baseURL: options.documentURL,
            maxItems: options.maxItems
        ).parse(bytes)
    }
}
