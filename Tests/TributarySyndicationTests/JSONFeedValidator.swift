import Foundation
import TributarySyndication

/// A structural check of JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/), written from the
/// specification and independent of the code under test: the JSON is read by Foundation's
/// `JSONDecoder`, dates are checked with a regular expression before `RFC3339` reads them.
enum JSONFeedValidator {
    /// A JSON value as `JSONDecoder` sees it, keeping booleans apart from numbers.
    indirect enum Value: Decodable, Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([Value])
        case object([String: Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if let array = try? container.decode([Value].self) {
                self = .array(array)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }
    }

    static let feedStrings = ["home_page_url", "feed_url", "description", "user_comment", "next_url", "icon", "favicon", "language"]
    static let itemStrings = ["url", "external_url", "title", "summary", "image", "banner_image", "language"]
    static let itemDates = ["date_published", "date_modified"]
    static func isRFC3339(_ text: String) -> Bool {
        text.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/#) != nil && RFC3339.date(from: text) != nil
    }

    /// Every way `text` breaks JSON Feed 1.1, as `path: problem` lines; empty when it is valid.
    static func violations(_ text: String) -> [String] {
        let root: Value
        do {
            root = try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            return ["$: not JSON: \(error)"]
        }
        guard case .object(let feed) = root else { return ["$: not an object"] }
        var found: [String] = []
        if feed["version"] != .string("https://jsonfeed.org/version/1.1") {
            found.append("$.version: not https://jsonfeed.org/version/1.1")
        }
        guard case .string = feed["title"] else { return found + ["$.title: missing or not a string"] }
        for key in feedStrings { found += optionalString(feed[key], "$.\(key)") }
        if let expired = feed["expired"] {
            if case .bool = expired {} else { found.append("$.expired: not a boolean") }
        }
        found += authors(feed["authors"], "$.authors")
        found += unknownKeys(feed, known: ["version", "title", "items", "authors", "expired", "hubs"] + feedStrings, "$")
        guard case .array(let items)? = feed["items"] else { return found + ["$.items: missing or not an array"] }
        for (index, value) in items.enumerated() {
            found += item(value, "$.items[\(index)]")
        }
        return found
    }

    private static func item(_ value: Value, _ path: String) -> [String] {
        guard case .object(let item) = value else { return ["\(path): not an object"] }
        var found: [String] = []
        if case .string(let id)? = item["id"], !id.isEmpty {} else { found.append("\(path).id: missing, empty or not a string") }
        let html = item["content_html"]
        let text = item["content_text"]
        if html == nil && text == nil { found.append("\(path): neither content_html nor content_text") }
        found += optionalString(html, "\(path).content_html") + optionalString(text, "\(path).content_text")
        for key in itemStrings { found += optionalString(item[key], "\(path).\(key)") }
        for key in itemDates {
            guard let date = item[key] else { continue }
            guard case .string(let text) = date, isRFC3339(text) else {
                found.append("\(path).\(key): not an RFC 3339 date")
                continue
            }
        }
        found += authors(item["authors"], "\(path).authors")
        if let tags = item["tags"] {
            if case .array(let values) = tags, values.allSatisfy({ if case .string = $0 { true } else { false } }) {
            } else {
                found.append("\(path).tags: not an array of strings")
            }
        }
        if let attachments = item["attachments"] {
            if case .array(let values) = attachments {
                for (index, value) in values.enumerated() { found += attachment(value, "\(path).attachments[\(index)]") }
            } else {
                found.append("\(path).attachments: not an array")
            }
        }
        let known = ["id", "content_html", "content_text", "authors", "tags", "attachments"] + itemStrings + itemDates
        found += unknownKeys(item, known: known, path)
        return found
    }

    private static func attachment(_ value: Value, _ path: String) -> [String] {
        guard case .object(let attachment) = value else { return ["\(path): not an object"] }
        var found: [String] = []
        for key in ["url", "mime_type"] {
            if case .string(let text)? = attachment[key], !text.isEmpty {
            } else {
                found.append("\(path).\(key): missing, empty or not a string")
            }
        }
        found += optionalString(attachment["title"], "\(path).title")
        for key in ["size_in_bytes", "duration_in_seconds"] {
            if let number = attachment[key] {
                if case .number = number {} else { found.append("\(path).\(key): not a number") }
            }
        }
        found += unknownKeys(attachment, known: ["url", "mime_type", "title", "size_in_bytes", "duration_in_seconds"], path)
        return found
    }

    private static func authors(_ value: Value?, _ path: String) -> [String] {
        guard let value else { return [] }
        guard case .array(let authors) = value else { return ["\(path): not an array"] }
        var found: [String] = []
        for (index, author) in authors.enumerated() {
            let authorPath = "\(path)[\(index)]"
            guard case .object(let fields) = author else {
                found.append("\(authorPath): not an object")
                continue
            }
            if fields.isEmpty { found.append("\(authorPath): none of name, url, avatar") }
            for key in ["name", "url", "avatar"] { found += optionalString(fields[key], "\(authorPath).\(key)") }
            found += unknownKeys(fields, known: ["name", "url", "avatar"], authorPath)
        }
        return found
    }

    private static func optionalString(_ value: Value?, _ path: String) -> [String] {
        guard let value else { return [] }
        if case .string = value { return [] }
        return ["\(path): not a string"]
    }

    /// Keys the specification does not define; extensions must start with an underscore.
    private static func unknownKeys(_ object: [String: Value], known: [String], _ path: String) -> [String] {
        object.keys.filter { !known.contains($0) && !$0.hasPrefix("_") }.sorted().map { "\(path).\($0): not a JSON Feed 1.1 key" }
    }
}
