public import Foundation
public import TributaryModel
import TributarySyndication

/// Turns the river into the bytes of each configured output: it picks each output's items (its
/// own rules, then its limit), applies its content mode and writes the format.
public struct OutputRenderer: Sendable {
    /// The configuration the outputs belong to.
    public var configuration: Configuration
    /// What each source said about itself, for Atom's `<source>` and RSS's `source`.
    public var sourceInfo: [String: FeedInfo]
    /// How each source fared in this run, for the HTML page's header.
    public var sourceReports: [SourceReport]
    /// When the run started.
    public var now: Date

    /// Creates a renderer.
    public init(configuration: Configuration, sourceInfo: [String: FeedInfo], sourceReports: [SourceReport] = [], now: Date) {
        self.configuration = configuration
        self.sourceInfo = sourceInfo
        self.sourceReports = sourceReports
        self.now = now
    }

    /// The items an output holds: the river filtered by the output's rules, then cut to its limit.
    public func items(for output: OutputConfig, from river: [Item]) -> [Item] {
        var items = river
        if !output.rules.isEmpty {
            items = items.filter { item in
                if case .pass = output.rules.verdict(on: item, now: now) { return true }
                return false
            }
        }
        if let limit = output.limit, items.count > limit { items = Array(items.prefix(limit)) }
        return items
    }

    /// The output's content as text.
    public func render(_ output: OutputConfig, items river: [Item]) -> String {
        render(output, selected: items(for: output, from: river))
    }

    /// The output's content as text, from the items `items(for:from:)` selected for it.
    public func render(_ output: OutputConfig, selected: [Item]) -> String {
        let items = contents(of: output, selected: selected)
        switch (output.kind, output.format) {
        case (.atom, _):
            return atom(output, items: items)
        case (.rss, _):
            return rss(output, items: items)
        case (.html, _):
            var page = HTMLRiver(
                title: title(output), selfURL: output.url, homePageURL: configuration.link, feeds: alternateFeeds(),
                sources: sourceReports, timeZone: configuration.defaults.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt,
                now: now)
            page.showsContent = output.content == .full
            return page.render(items)
        case (.jsonfeed, _):
            return JSONFeedWriter(includeExtensions: true, pretty: true, uniqueIDs: true).document(feed: feedInfo(output), items: items)
        case (.stdout, .json):
            // One line, ended like any line a command prints (a terminal's prompt or the report starts after it).
            return JSONFeedWriter(includeExtensions: true, pretty: false, uniqueIDs: true).document(feed: feedInfo(output), items: items)
                + "\n"
        case (.stdout, .text):
            return TextListing(now: now).render(items)
        }
    }

    /// The output's selected items as it writes them: in its content mode.
    private func contents(of output: OutputConfig, selected items: [Item]) -> [Item] {
        // The page chooses between summary and content itself.
        output.content == .summary && output.kind != .html ? items.map(OutputRenderer.summaryOnly) : items
    }

    /// An item with its content HTML replaced by its plain-text summary (derived from the
    /// content when the source gave none), for `content: summary`.
    static func summaryOnly(_ item: Item) -> Item {
        var item = item
        if (item.summary ?? "").isEmpty, let html = item.contentHTML, !html.isEmpty {
            let text = HTMLSanitizer.plainText(fromHTML: html, limit: 500)
            item.summary = text.isEmpty ? nil : text
        }
        item.contentHTML = nil
        return item
    }

    /// Writes a file output atomically. Atom and JSON Feed go to the file in pieces as they are
    /// made, the other formats as their text's UTF-8, so a large river is never held twice.
    public func write(_ output: OutputConfig, items river: [Item], to path: URL) throws(AtomicFile.WriteError) {
        try write(output, selected: items(for: output, from: river), to: path)
    }

    /// Writes a file output atomically from the items `items(for:from:)` selected for it.
    public func write(_ output: OutputConfig, selected: [Item], to path: URL) throws(AtomicFile.WriteError) {
        switch output.kind {
        case .jsonfeed:
            let items = contents(of: output, selected: selected)
            try AtomicFile.write(to: path) { emit in
                JSONFeedWriter(includeExtensions: true, pretty: true, uniqueIDs: true).write(feed: feedInfo(output), items: items, to: emit)
            }
        case .atom:
            let items = contents(of: output, selected: selected)
            let writer = atomWriter(output, items: items)
            try AtomicFile.write(to: path) { emit in writer.writer.write(head: writer.head, items: items, to: emit) }
        default:
            try AtomicFile.write(render(output, selected: selected).utf8, to: path)
        }
    }

    /// The combined feed's metadata as JSON Feed sees it.
    func feedInfo(_ output: OutputConfig) -> FeedInfo {
        FeedInfo(
            title: title(output), homePageURL: configuration.link, feedURL: output.url,
            authors: configuration.author.map { [$0] } ?? [])
    }

    private func title(_ output: OutputConfig) -> String {
        output.title ?? configuration.title
    }

    /// The newest item date that is not in the future, else the run's start.
    private func updated(_ items: [Item]) -> Date {
        items.compactMap { $0.updated ?? $0.published }.filter { $0 <= now }.max() ?? now
    }

    private func atom(_ output: OutputConfig, items: [Item]) -> String {
        let atom = atomWriter(output, items: items)
        return atom.writer.document(head: atom.head, items: items)
    }

    private func atomWriter(_ output: OutputConfig, items: [Item]) -> (writer: AtomWriter, head: AtomWriter.Head) {
        let title = title(output)
        let head = AtomWriter.Head(
            id: feedID(output, title: title), title: title, author: configuration.author ?? Author(name: "Tributary"),
            selfURL: output.url, homePageURL: configuration.link, updated: updated(items))
        return (AtomWriter(generatorVersion: Tributary.version, sources: sourceInfo, fallbackDate: now), head)
    }

    private func rss(_ output: OutputConfig, items: [Item]) -> String {
        let head = RSSWriter.Head(
            title: title(output), homePageURL: configuration.link, selfURL: output.url, author: configuration.author,
            updated: updated(items))
        return RSSWriter(generatorVersion: Tributary.version, sources: sourceInfo).document(head: head, items: items)
    }

    /// The feed outputs that have a public URL, for the HTML page's `<link rel="alternate">`.
    private func alternateFeeds() -> [HTMLRiver.AlternateFeed] {
        configuration.outputs.compactMap { output in
            guard let url = output.url, !url.isEmpty else { return nil }
            let type: String
            switch output.kind {
            case .atom: type = "application/atom+xml"
            case .rss: type = "application/rss+xml"
            case .jsonfeed: type = "application/feed+json"
            case .html, .stdout: return nil
            }
            return HTMLRiver.AlternateFeed(title: title(output), url: url, type: type, kind: output.kind.rawValue)
        }
    }

    /// The configured `id`, else the output's public URL, else a URN derived from the title.
    func feedID(_ output: OutputConfig, title: String) -> String {
        if let id = configuration.id, !id.isEmpty { return id }
        if let url = output.url, !url.isEmpty { return url }
        return "urn:tributary:feed:" + StableID.digest(title)
    }
}
