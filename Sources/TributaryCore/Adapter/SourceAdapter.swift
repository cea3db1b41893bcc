public import Foundation
public import TributaryModel

/// A source adapter: turns what one kind of source speaks into items.
///
/// An adapter declares its `kind` (the word after `adapter:` in YAML) and the options it accepts;
/// the engine validates a source's options against that declaration and builds the adapter with
/// `init(options:)`, which may reject combinations the declaration cannot express. `fetch(in:)`
/// then reads the source through the context, never by opening connections of its own, so that
/// timeouts, size limits, caching and concurrency hold for every adapter alike.
///
/// Adapters are values shared across tasks: keep per-fetch state in local variables.
public protocol SourceAdapter: Sendable {
    /// The word used as `adapter:` in YAML, e.g. `jsonfeed`.
    static var kind: String { get }
    /// Other words that select this adapter, e.g. `feed` for `rss`.
    static var aliases: [String] { get }
    /// One line saying what the adapter reads.
    static var summary: String { get }
    /// The options the adapter accepts, besides the common ones every source has.
    static var options: [AdapterOption] { get }
    /// The time zone the source's API writes zone-less dates in (IANA name), e.g.
    /// `Asia/Shanghai` for Chinese apps; a source's own `timezone` overrides it, and it
    /// overrides `defaults.timezone`. Nil (the default) for none.
    static var defaultTimeZone: String? { get }
    /// Whether the items' titles, summaries, author names and tags are plain text already or may still hold HTML
    /// tags and entities for the pipeline to remove (``ItemTextForm``). `.markup` (the default) for an adapter that
    /// does not say: its text is cleaned as a page's would be, and a `<` or `&` of plain text is read as markup.
    static var itemText: ItemTextForm { get }

    /// Builds the adapter from validated options; throws a located error for bad combinations.
    init(options: AdapterOptions) throws(ConfigError)

    /// Reads the source once and returns its items, feed metadata and any problems met.
    func fetch(in context: FetchContext) async throws -> SourceResult

    /// Whether "not modified" for the first request (the only one made conditional) means the whole source is
    /// unchanged, so that a run may reuse its stored items. An adapter that reads several pages says no: a page
    /// further on (a thread's last) may have changed while the first did not. True unless the adapter says otherwise.
    var firstAnswerCoversTheSource: Bool { get }

    /// The local files the source reads that its `url`-kind options do not name already (an address built from
    /// `{variables}`), with the option each comes from, resolved against `directory`: no output may be written over
    /// one. None unless the adapter says otherwise.
    func localFiles(relativeTo directory: URL) -> [(option: String, file: URL)]
}

extension SourceAdapter {
    /// No aliases unless the adapter declares some.
    public static var aliases: [String] { [] }

    /// No zone of its own unless the adapter declares one.
    public static var defaultTimeZone: String? { nil }

    /// Text that may hold markup unless the adapter declares it plain.
    public static var itemText: ItemTextForm { .markup }

    /// One answer covers the source unless the adapter says otherwise.
    public var firstAnswerCoversTheSource: Bool { true }

    /// No files beyond those of `url`-kind options unless the adapter says otherwise.
    public func localFiles(relativeTo directory: URL) -> [(option: String, file: URL)] { [] }
}

/// What one fetch of a source produced.
public struct SourceResult: Sendable {
    /// The items, in the source's order.
    public var items: [Item]
    /// What the source says about itself, when it says anything.
    public var feed: FeedInfo?
    /// Problems that did not stop the fetch (recovered parse errors, skipped items).
    public var problems: [Problem]
    /// How many more items the source had that the adapter did not read, having reached `FetchContext.itemLimit`.
    public var itemsLeftOut: Int

    /// Creates a result.
    public init(items: [Item], feed: FeedInfo? = nil, problems: [Problem] = [], itemsLeftOut: Int = 0) {
        self.items = items
        self.feed = feed
        self.problems = problems
        self.itemsLeftOut = itemsLeftOut
    }
}

/// An adapter's own failure: the source answered, but not with what the adapter can read.
public struct AdapterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, naming the field or URL concerned.
    public var message: String

    /// Creates an adapter error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
