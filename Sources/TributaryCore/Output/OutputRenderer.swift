public import Foundation
public import TributaryModel
import TributarySyndication

/// Turns the river into the bytes of each configured output.
public struct OutputRenderer: Sendable {
    /// The configuration the outputs belong to.
    public var configuration: Configuration
    /// What each source said about itself, for Atom's `<source>`.
    public var sourceInfo: [String: FeedInfo]
    /// When the run started.
    public var now: Date

    /// Creates a renderer.
    public init(configuration: Configuration, sourceInfo: [String: FeedInfo], now: Date) {
        self.configuration = configuration
        self.sourceInfo = sourceInfo
        self.now = now
    }

    /// The output's content as text.
    public func render(_ output: OutputConfig, items allItems: [Item]) -> String {
        let items = output.limit.map { Array(allItems.prefix($0)) } ?? allItems
        switch (output.kind, output.format) {
        case (.atom, _):
            return atom(output, items: items)
        case (.jsonfeed, _), (.stdout, .json):
            return JSONFeedWriter(includeExtensions: true, pretty: output.kind == .jsonfeed)
                .document(feed: feedInfo(output), items: items)
        case (.stdout, .text):
            return TextListing(now: now).render(items)
        }
    }

    /// Writes a file output atomically. A JSON Feed goes to the file as the writer's bytes and
    /// an Atom document as its text's UTF-8, so a large river is never held twice as output.
    public func write(_ output: OutputConfig, items allItems: [Item], to path: URL) throws(AtomicFile.WriteError) {
        if output.kind == .jsonfeed {
            let items = output.limit.map { Array(allItems.prefix($0)) } ?? allItems
            try AtomicFile.write(
                JSONFeedWriter(includeExtensions: true, pretty: true).documentBytes(feed: feedInfo(output), items: items), to: path)
        } else {
            try AtomicFile.write(render(output, items: allItems).utf8, to: path)
        }
    }

    /// The combined feed's metadata as JSON Feed sees it.
    func feedInfo(_ output: OutputConfig) -> FeedInfo {
        FeedInfo(
            title: output.title ?? configuration.title, homePageURL: configuration.link, feedURL: output.url,
            authors: configuration.author.map { [$0] } ?? [])
    }

    private func atom(_ output: OutputConfig, items: [Item]) -> String {
        let title = output.title ?? configuration.title
        let head = AtomWriter.Head(
            id: feedID(output, title: title), title: title, author: configuration.author ?? Author(name: "Tributary"),
            selfURL: output.url, homePageURL: configuration.link,
            updated: items.compactMap { $0.updated ?? $0.published }.filter { $0 <= now }.max() ?? now)
        return AtomWriter(generatorVersion: Tributary.version, sources: sourceInfo, fallbackDate: now)
            .document(head: head, items: items)
    }

    /// The configured `id`, else the output's public URL, else a URN derived from the title.
    func feedID(_ output: OutputConfig, title: String) -> String {
        if let id = configuration.id, !id.isEmpty { return id }
        if let url = output.url, !url.isEmpty { return url }
        return "urn:tributary:feed:" + StableID.digest(title)
    }
}
