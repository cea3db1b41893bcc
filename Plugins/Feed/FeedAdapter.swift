public import Foundation
public import TributaryCore
import TributaryModel
import TributarySyndication

/// `adapter: rss` (also `feed`, `atom`) — any RSS 0.9x/1.0/2.0, Atom 0.3/1.0 or JSON Feed
/// document, sniffed by content, decoded with the HTTP charset, BOM and declaration rules.
public struct FeedAdapter: SourceAdapter {
    public static let kind = "rss"
    public static let aliases = ["feed", "atom"]
    public static let summary = "An RSS 0.9x/1.0/2.0, Atom 0.3/1.0 or JSON Feed document, recognized by its content"
    /// The feed parser's titles, summaries, author names and tags are plain text already.
    public static let itemText = ItemTextForm.plain
    public static let options = [
        AdapterOption("url", .url, required: true, help: "the feed: an http(s) URL, a file: URL or a path relative to the configuration"),
        AdapterOption(
            "sanitize", .boolean, default: .boolean(true), help: "rebuild item HTML from the allow-list (turn off only for trusted feeds)"),
    ]

    /// Where the feed is.
    public let url: URL
    /// Whether item HTML is sanitized.
    public let sanitize: Bool

    public init(options: AdapterOptions) throws(ConfigError) {
        guard let url = options.url("url") else { throw options.error("url", "missing 'url'") }
        self.url = url
        self.sanitize = options.boolean("sanitize") ?? true
    }

    public func fetch(in context: FetchContext) async throws -> SourceResult {
        let response = try await context.get(
            url,
            headers: [
                HTTPHeader(
                    "Accept",
                    "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5")
            ])
        let options = FeedParser.Options(
            source: context.sourceName, documentURL: response.url.isFileURL ? nil : response.url, charset: response.charset,
            timeZone: context.timeZone,
            now: context.now, sanitize: sanitize, maxBytes: context.maxResponseBytes, maxBytesSetting: "max_size",
            quotesContent: !response.url.isFileURL, maxItems: context.itemLimit)
        let parsed: ParsedFeed
        do {
            parsed = try FeedParser(options).parse(response.body)
        } catch {
            throw AdapterError("\(response.url.isFileURL ? response.url.path : response.url.absoluteString): \(error.description)")
        }
        var info = parsed.info
        // The source's URL stands for the feed, without the credentials it may be fetched with.
        if info.feedURL == nil, !response.url.isFileURL { info.feedURL = URLSecrets.withoutSecrets(response.url.absoluteString) }
        return SourceResult(items: parsed.items, feed: info, problems: parsed.problems, itemsLeftOut: parsed.itemsLeftOut)
    }
}
