import Foundation
import TributaryJSON
public import TributaryModel

/// Writes JSON Feed 1.1 documents, with Tributary's extras under `_tributary` in each item.
public struct JSONFeedWriter: Sendable {
    /// The version URL written as `version`.
    public static let versionURL = "https://jsonfeed.org/version/1.1"

    /// Whether items carry the `_tributary` extension object.
    public var includeExtensions: Bool
    /// Pretty (indented) or compact output.
    public var pretty: Bool
    /// Whether items get the ids an Atom output gives them, unique within the document (the item's
    /// id when it is an absolute IRI, else `urn:tributary:<source>:<id>`; see `EntryIDs`), as a
    /// river's must be: items of two sources may have the same id (`1`, `paper:1792`). Without it,
    /// each item's own id is written, for a document of one source's items.
    public var uniqueIDs: Bool

    /// Creates a writer.
    public init(includeExtensions: Bool = true, pretty: Bool = true, uniqueIDs: Bool = false) {
        self.includeExtensions = includeExtensions
        self.pretty = pretty
        self.uniqueIDs = uniqueIDs
    }

    /// The whole document as text.
    public func document(feed: FeedInfo, items: [Item]) -> String {
        String(decoding: documentBytes(feed: feed, items: items), as: UTF8.self)
    }

    /// The whole document as UTF-8 bytes, for writing a file without a second copy as text.
    ///
    /// Written straight into one buffer, member by member; the tests hold the bytes to those
    /// `JSONWriter` writes for the document as a `JSONValue` (the writer's earlier form).
    public func documentBytes(feed: FeedInfo, items: [Item]) -> [UInt8] {
        // Room for the texts with a margin for escapes, keys and indentation, reserved up front.
        let texts = items.reduce(0) { total, item in
            total + (item.contentHTML?.utf8.count ?? 0) + (item.summary?.utf8.count ?? 0) + (item.title?.utf8.count ?? 0) + 1024
        }
        var writer = JSONByteWriter(style: pretty ? .pretty : .compact, capacity: texts + texts / 4)
        write(feed: feed, items: items, into: &writer)
        return writer.finish()
    }

    /// The document in pieces of about `pieceSize` bytes (whole items), handed to `emit` in
    /// order: a river of any size is written with one piece in memory.
    public func write(feed: FeedInfo, items: [Item], pieceSize: Int = 1 << 20, to emit: (UnsafeRawBufferPointer) -> Void) {
        var writer = JSONByteWriter(style: pretty ? .pretty : .compact, capacity: pieceSize + 64 << 10)
        write(feed: feed, items: items, into: &writer) { writer in
            if writer.bytes.count >= pieceSize { writer.flush(to: emit) }
        }
        writer.finish().withUnsafeBytes { emit($0) }
    }

    /// Writes the document into `writer`, member by member, calling `itemWritten` after each item.
    func write(
        feed: FeedInfo, items: [Item], into writer: inout JSONByteWriter, itemWritten: (inout JSONByteWriter) -> Void = { _ in }
    ) {
        writer.beginObject()
        writer.key("version")
        writer.string(Self.versionURL)
        writer.key("title")
        writer.string(feed.title ?? "")
        write(&writer, "home_page_url", feed.homePageURL)
        write(&writer, "feed_url", feed.feedURL)
        write(&writer, "description", feed.description)
        write(&writer, "icon", feed.icon)
        write(&writer, "favicon", feed.favicon)
        write(&writer, "language", feed.language)
        if feed.authors.contains(where: { !$0.isEmpty }) {
            writer.key("authors")
            writeAuthors(feed.authors, into: &writer)
        }
        writer.key("items")
        writer.beginArray()
        var ids = uniqueIDs ? EntryIDs(capacity: items.count) : nil
        for item in items {
            write(item, id: ids?.id(for: item) ?? item.id, into: &writer)
            itemWritten(&writer)
        }
        writer.endArray()
        writer.endObject()
    }

    private func write(_ item: Item, id: String, into writer: inout JSONByteWriter) {
        writer.beginObject()
        writer.key("id")
        writer.string(id)
        write(&writer, "url", item.url)
        write(&writer, "external_url", item.externalURL)
        write(&writer, "title", item.title)
        if let html = item.contentHTML, !html.isEmpty {
            writer.key("content_html")
            writer.string(html)
        } else {
            writer.key("content_text")
            writer.string(item.summary ?? item.title ?? "")
        }
        write(&writer, "summary", item.summary)
        write(&writer, "image", item.image)
        if let published = item.published {
            writer.key("date_published")
            writer.string(RFC3339.string(from: published))
        }
        if let updated = item.updated {
            writer.key("date_modified")
            writer.string(RFC3339.string(from: updated))
        }
        if item.authors.contains(where: { !$0.isEmpty }) {
            writer.key("authors")
            writeAuthors(item.authors, into: &writer)
        }
        if !item.tags.isEmpty {
            writer.key("tags")
            writer.beginArray()
            for tag in item.tags { writer.string(tag) }
            writer.endArray()
        }
        if item.attachments.contains(where: { !$0.url.isEmpty }) {
            writer.key("attachments")
            writer.beginArray()
            for file in item.attachments where !file.url.isEmpty { writer.value(attachment(file)) }
            writer.endArray()
        }
        if includeExtensions {
            writer.key("_tributary")
            writer.value(extensionObject(item))
        }
        writer.endObject()
    }

    private func writeAuthors(_ authors: [Author], into writer: inout JSONByteWriter) {
        writer.beginArray()
        for author in authors where !author.isEmpty {
            writer.beginObject()
            write(&writer, "name", author.name)
            write(&writer, "url", author.url)
            write(&writer, "avatar", author.avatar)
            writer.endObject()
        }
        writer.endArray()
    }

    private func write(_ writer: inout JSONByteWriter, _ key: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        writer.key(key)
        writer.string(value)
    }

    /// The `_tributary` object of an item.
    func extensionObject(_ item: Item) -> JSONValue {
        var object = JSONObject()
        object["source"] = .string(item.source)
        if let score = item.score, score.isFinite { object["score"] = JSONNumber(score).map(JSONValue.number) ?? .null }
        if !item.metrics.isEmpty {
            var metrics = JSONObject()
            for key in item.metrics.keys.sorted() { metrics[key] = .number(JSONNumber(item.metrics[key] ?? 0)) }
            object["metrics"] = .object(metrics)
        }
        if !item.extras.isEmpty {
            var extras = JSONObject()
            for key in item.extras.keys.sorted() {
                switch item.extras[key] {
                case .string(let text): extras[key] = .string(text)
                case .int(let number): extras[key] = .number(JSONNumber(number))
                case .double(let number): extras[key] = JSONNumber(number).map(JSONValue.number) ?? .null
                case .bool(let flag): extras[key] = .bool(flag)
                case nil: break
                }
            }
            object["extras"] = .object(extras)
        }
        if !item.duplicates.isEmpty {
            object["duplicates"] = .array(
                item.duplicates.map { duplicate in
                    var entry = JSONObject()
                    entry["source"] = .string(duplicate.source)
                    if let url = duplicate.url { entry["url"] = .string(url) }
                    if let title = duplicate.title { entry["title"] = .string(title) }
                    return .object(entry)
                })
        }
        return .object(object)
    }

    /// An attachment object.
    func attachment(_ attachment: Attachment) -> JSONValue {
        var object = JSONObject()
        object["url"] = .string(attachment.url)
        object["mime_type"] = .string(attachment.mimeType.isEmpty ? "application/octet-stream" : attachment.mimeType)
        set(&object, "title", attachment.title)
        if let size = attachment.sizeInBytes { object["size_in_bytes"] = .number(JSONNumber(size)) }
        if let duration = attachment.durationInSeconds { object["duration_in_seconds"] = .number(JSONNumber(duration)) }
        return .object(object)
    }

    /// Sets `key` to the text when there is one.
    func set(_ object: inout JSONObject, _ key: String, _ value: String?) {
        if let value, !value.isEmpty { object[key] = .string(value) }
    }
}
