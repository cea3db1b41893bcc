import Foundation
import TributaryJSON
import TributaryModel

/// Stores items and feed descriptions losslessly: every field of the model, dates as seconds
/// since 1970 with their fraction.
///
/// Items are written in a compact binary form (``ItemBinary``, marked by its first byte), read
/// several times faster than JSON: a run whose sources changed reads every stored item. Items
/// stored as JSON by earlier versions (first byte `{`) are still read, and rewritten in the binary
/// form when they change. Feed descriptions stay JSON text, where unknown keys are ignored.
enum ItemCodec {
    /// The item as bytes for the `items.data` column.
    static func encode(_ item: Item) -> [UInt8] {
        ItemBinary.encode(item)
    }

    /// The item the bytes describe, or nil when they are not an item this codec wrote.
    static func decodeItem(_ bytes: UnsafeRawBufferPointer) -> Item? {
        guard let first = bytes.first else { return nil }
        if first == ItemBinary.marker || first == ItemBinary.markerWithExternalURL { return ItemBinary.decode(bytes) }
        return decodeJSONItem(Array(bytes))
    }

    /// The item the bytes describe, or nil when they are not an item this codec wrote.
    static func decodeItem(_ bytes: [UInt8]) -> Item? {
        bytes.withUnsafeBytes { decodeItem($0) }
    }

    /// The item JSON bytes describe, or nil when they are not an item this codec wrote.
    static func decodeJSONItem(_ bytes: [UInt8]) -> Item? {
        guard let value = try? JSON.parse(bytes), let id = value["id"]?.string, let source = value["source"]?.string else {
            return nil
        }
        var item = Item(id: id, source: source)
        item.url = value["url"]?.string
        item.title = value["title"]?.string
        item.summary = value["summary"]?.string
        item.contentHTML = value["content_html"]?.string
        item.image = value["image"]?.string
        item.authors = value["authors"]?.arrayValue.map(decodeAuthor) ?? []
        item.published = value["published"].flatMap(decodeDate)
        item.updated = value["updated"].flatMap(decodeDate)
        item.tags = value["tags"]?.arrayValue.compactMap(\.string) ?? []
        item.attachments =
            value["attachments"]?.arrayValue.compactMap { entry in
                guard let url = entry["url"]?.string else { return nil }
                return Attachment(
                    url: url, mimeType: entry["mime_type"]?.string ?? "", title: entry["title"]?.string,
                    sizeInBytes: entry["size"]?.int, durationInSeconds: entry["duration"]?.int)
            } ?? []
        if case .object(let metrics)? = value["metrics"] {
            for (name, count) in metrics { item.metrics[name] = count.int }
        }
        if case .object(let extras)? = value["extras"] {
            for (name, extra) in extras { item.extras[name] = decodeExtra(extra) }
        }
        item.duplicates =
            value["duplicates"]?.arrayValue.compactMap { entry in
                entry["source"]?.string.map { DuplicateReference(source: $0, url: entry["url"]?.string, title: entry["title"]?.string) }
            } ?? []
        return item
    }

    /// A feed description as compact JSON text.
    static func encode(_ feed: FeedInfo) -> String {
        var object = JSONObject()
        object["title"] = feed.title.map(JSONValue.string)
        object["home_page_url"] = feed.homePageURL.map(JSONValue.string)
        object["feed_url"] = feed.feedURL.map(JSONValue.string)
        object["description"] = feed.description.map(JSONValue.string)
        if !feed.authors.isEmpty { object["authors"] = .array(feed.authors.map(encode)) }
        object["icon"] = feed.icon.map(JSONValue.string)
        object["favicon"] = feed.favicon.map(JSONValue.string)
        object["language"] = feed.language.map(JSONValue.string)
        object["updated"] = feed.updated.map(encode)
        object["id"] = feed.id.map(JSONValue.string)
        return JSONWriter.string(from: .object(object), style: .compact)
    }

    /// The feed description the text holds, or nil when it is not one.
    static func decodeFeed(_ text: String) -> FeedInfo? {
        guard let value = try? JSON.parse(text), case .object = value else { return nil }
        return FeedInfo(
            title: value["title"]?.string, homePageURL: value["home_page_url"]?.string, feedURL: value["feed_url"]?.string,
            description: value["description"]?.string, authors: value["authors"]?.arrayValue.map(decodeAuthor) ?? [],
            icon: value["icon"]?.string, favicon: value["favicon"]?.string, language: value["language"]?.string,
            updated: value["updated"].flatMap(decodeDate), id: value["id"]?.string)
    }

    static func encode(_ author: Author) -> JSONValue {
        var entry = JSONObject()
        entry["name"] = author.name.map(JSONValue.string)
        entry["url"] = author.url.map(JSONValue.string)
        entry["avatar"] = author.avatar.map(JSONValue.string)
        entry["email"] = author.email.map(JSONValue.string)
        return .object(entry)
    }

    private static func decodeAuthor(_ value: JSONValue) -> Author {
        Author(name: value["name"]?.string, url: value["url"]?.string, avatar: value["avatar"]?.string, email: value["email"]?.string)
    }

    /// Seconds since 1970 in the shortest text that reads back to the same `Double`.
    static func encode(_ date: Date) -> JSONValue {
        JSONNumber(date.timeIntervalSince1970).map(JSONValue.number) ?? .null
    }

    private static func decodeDate(_ value: JSONValue) -> Date? {
        value.double.map(Date.init(timeIntervalSince1970:))
    }

    /// Extras keep their type: `{"s": …}`, `{"i": …}`, `{"d": …}` or `{"b": …}`.
    private static func decodeExtra(_ value: JSONValue) -> ExtraValue? {
        if let text = value["s"]?.string { return .string(text) }
        if let number = value["i"]?.int { return .int(number) }
        if let number = value["d"]?.double { return .double(number) }
        if case .bool(let flag)? = value["b"] { return .bool(flag) }
        return nil
    }
}

extension JSONValue {
    /// The elements of an array, empty for anything else.
    fileprivate var arrayValue: [JSONValue] {
        if case .array(let elements) = self { return elements }
        return []
    }
}
