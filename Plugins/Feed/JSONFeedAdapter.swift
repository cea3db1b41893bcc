public import Foundation
public import TributaryCore
import TributaryModel
import TributarySyndication

/// `adapter: jsonfeed` — reads a JSON Feed 1.0 or 1.1 document from a URL or a local file.
public struct JSONFeedAdapter: SourceAdapter {
    public static let kind = "jsonfeed"
    public static let aliases = ["json_feed"]
    public static let summary = "A JSON Feed 1.0/1.1 document (https://jsonfeed.org) from a URL or a file"
    /// JSON Feed's titles and summaries are plain text (the specification's), and the parser keeps them so.
    public static let itemText = ItemTextForm.plain
    public static let options = [
        AdapterOption("url", .url, required: true, help: "the feed: an http(s) URL, a file: URL or a path relative to the configuration")
    ]

    /// Where the feed is.
    public let url: URL

    public init(options: AdapterOptions) throws(ConfigError) {
        guard let url = options.url("url") else { throw options.error("url", "missing 'url'") }
        self.url = url
    }

    public func fetch(in context: FetchContext) async throws -> SourceResult {
        let response = try await context.get(url)
        let parsed: ParsedFeed
        do {
            parsed = try JSONFeedParser(
                source: context.sourceName, timeZone: context.timeZone, now: context.now,
                baseURL: response.url.isFileURL ? nil : response.url, maxItems: context.itemLimit
            )
            .parse(response.body)
        } catch {
            throw AdapterError("\(response.url.isFileURL ? response.url.path : response.url.absoluteString): \(error.description)")
        }
        var info = parsed.info
        // The source's URL stands for the feed, without the credentials it may be fetched with.
        if info.feedURL == nil, !response.url.isFileURL { info.feedURL = URLSecrets.withoutSecrets(response.url.absoluteString) }
        return SourceResult(items: parsed.items, feed: info, problems: parsed.problems, itemsLeftOut: parsed.itemsLeftOut)
    }
}
