import Foundation
import TributaryModel

/// The binary form of a stored item: a marker byte, then every field in a fixed order.
///
/// Integers are LEB128 varints (signed ones zigzag-encoded), strings a varint length and their
/// UTF-8 bytes, optional strings their length plus one (0 for none), dates a presence byte and
/// the 8 bytes of the `Double` seconds since 1970, collections a varint count and their elements.
/// Metrics and extras are written sorted by name, so the same item always gives the same bytes.
///
///     marker id source url? title? summary? content? image? [externalURL]
///     authors[name? url? avatar?] published? updated? tags[text]
///     attachments[url mime title? size? duration?] metrics[name int]
///     extras[name kind value] duplicates[source url? title?]
///
/// Changing the layout needs a new marker; the old one must stay readable.
enum ItemBinary {
    /// The first byte: JSON, the earlier form, starts with `{`.
    static let marker: UInt8 = 0x01
    /// The first byte of an item with an `externalURL`, written after `image`. Items without one keep the first
    /// layout, byte for byte, so the items stored before it compare equal to the same items read again.
    static let markerWithExternalURL: UInt8 = 0x02

    static func encode(_ item: Item) -> [UInt8] {
        var writer = Writer()
        writer.bytes.reserveCapacity(
            64 + item.id.utf8.count + (item.url?.utf8.count ?? 0) + (item.title?.utf8.count ?? 0) + (item.summary?.utf8.count ?? 0)
                + (item.contentHTML?.utf8.count ?? 0))
        writer.bytes.append(item.externalURL == nil ? marker : markerWithExternalURL)
        writer.string(item.id)
        writer.string(item.source)
        for text in [item.url, item.title, item.summary, item.contentHTML, item.image] { writer.optionalString(text) }
        if let external = item.externalURL { writer.string(external) }
        writer.count(item.authors.count)
        for author in item.authors {
            writer.optionalString(author.name)
            writer.optionalString(author.url)
            writer.optionalString(author.avatar)
        }
        writer.optionalDate(item.published)
        writer.optionalDate(item.updated)
        writer.count(item.tags.count)
        for tag in item.tags { writer.string(tag) }
        writer.count(item.attachments.count)
        for attachment in item.attachments {
            writer.string(attachment.url)
            writer.string(attachment.mimeType)
            writer.optionalString(attachment.title)
            writer.optionalInteger(attachment.sizeInBytes)
            writer.optionalInteger(attachment.durationInSeconds)
        }
        writer.count(item.metrics.count)
        for (name, value) in item.metrics.sorted(by: { $0.key < $1.key }) {
            writer.string(name)
            writer.integer(value)
        }
        writer.count(item.extras.count)
        for (name, value) in item.extras.sorted(by: { $0.key < $1.key }) {
            writer.string(name)
            switch value {
            case .string(let text):
                writer.bytes.append(0)
                writer.string(text)
            case .int(let number):
                writer.bytes.append(1)
                writer.integer(number)
            case .double(let number):
                writer.bytes.append(2)
                writer.double(number)
            case .bool(let flag):
                writer.bytes.append(flag ? 4 : 3)
            }
        }
        writer.count(item.duplicates.count)
        for duplicate in item.duplicates {
            writer.string(duplicate.source)
            writer.optionalString(duplicate.url)
            writer.optionalString(duplicate.title)
        }
        return writer.bytes
    }

    /// The item, or nil when the bytes are not one this layout wrote (cut short, or too long).
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Item? {
        var reader = Reader(bytes: bytes)
        let first = reader.byte()
        guard first == marker || first == markerWithExternalURL, let id = reader.string(), let source = reader.string() else { return nil }
        var item = Item(id: id, source: source)
        guard let url = reader.optionalString(), let title = reader.optionalString(), let summary = reader.optionalString(),
            let content = reader.optionalString(), let image = reader.optionalString()
        else { return nil }
        (item.url, item.title, item.summary, item.contentHTML, item.image) = (url, title, summary, content, image)
        if first == markerWithExternalURL {
            guard let external = reader.string() else { return nil }
            item.externalURL = external
        }
        guard
            let authors = reader.list({ reader -> Author? in
                guard let name = reader.optionalString(), let url = reader.optionalString(), let avatar = reader.optionalString()
                else { return nil }
                return Author(name: name, url: url, avatar: avatar)
            })
        else { return nil }
        item.authors = authors
        guard let published = reader.optionalDate(), let updated = reader.optionalDate() else { return nil }
        (item.published, item.updated) = (published, updated)
        guard let tags = reader.list({ reader -> String? in reader.string() }) else { return nil }
        item.tags = tags
        guard
            let attachments = reader.list({ reader -> Attachment? in
                guard let url = reader.string(), let mimeType = reader.string(), let title = reader.optionalString(),
                    let size = reader.optionalInteger(), let duration = reader.optionalInteger()
                else { return nil }
                return Attachment(url: url, mimeType: mimeType, title: title, sizeInBytes: size, durationInSeconds: duration)
            })
        else { return nil }
        item.attachments = attachments
        guard
            let metrics = reader.list({ reader -> (String, Int)? in
                guard let name = reader.string(), let value = reader.integer() else { return nil }
                return (name, value)
            })
        else { return nil }
        item.metrics = Dictionary(metrics, uniquingKeysWith: { _, last in last })
        guard
            let extras = reader.list({ reader -> (String, ExtraValue)? in
                guard let name = reader.string(), let kind = reader.byte() else { return nil }
                switch kind {
                case 0: return reader.string().map { (name, .string($0)) }
                case 1: return reader.integer().map { (name, .int($0)) }
                case 2: return reader.double().map { (name, .double($0)) }
                case 3, 4: return (name, .bool(kind == 4))
                default: return nil
                }
            })
        else { return nil }
        item.extras = Dictionary(extras, uniquingKeysWith: { _, last in last })
        guard
            let duplicates = reader.list({ reader -> DuplicateReference? in
                guard let source = reader.string(), let url = reader.optionalString(), let title = reader.optionalString()
                else { return nil }
                return DuplicateReference(source: source, url: url, title: title)
            })
        else { return nil }
        item.duplicates = duplicates
        return reader.isAtEnd ? item : nil
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func varint(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }

        mutating func count(_ count: Int) { varint(UInt64(count)) }

        mutating func integer(_ value: Int) {
            let value = Int64(value)
            varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
        }

        mutating func string(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                count(utf8.count)
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func optionalString(_ text: String?) {
            guard var text else { return bytes.append(0) }
            text.withUTF8 { utf8 in
                count(utf8.count + 1)
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func double(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func optionalDate(_ date: Date?) {
            guard let date else { return bytes.append(0) }
            bytes.append(1)
            double(date.timeIntervalSince1970)
        }

        mutating func optionalInteger(_ value: Int?) {
            guard let value else { return bytes.append(0) }
            bytes.append(1)
            integer(value)
        }
    }

    /// Reads the layout; every read is nil past the end or on a malformed value.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let byte = byte() {
                guard shift < 64 else { return nil }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }

        /// A count or length that fits what is left of the bytes.
        mutating func count() -> Int? {
            guard let value = varint(), value <= UInt64(bytes.count - offset) else { return nil }
            return Int(value)
        }

        mutating func integer() -> Int? {
            guard let raw = varint() else { return nil }
            return Int(truncatingIfNeeded: Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
        }

        mutating func text(length: Int) -> String? {
            guard length <= bytes.count - offset else { return nil }
            defer { offset += length }
            // Checked, not repaired: bytes damaged on disk make the item unreadable rather than publish U+FFFD in it.
            return String(validating: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        }

        mutating func string() -> String? {
            guard let length = count() else { return nil }
            return text(length: length)
        }

        /// `.some(nil)` for an absent string, nil when the bytes are malformed.
        mutating func optionalString() -> String?? {
            guard let stored = varint() else { return nil }
            if stored == 0 { return .some(nil) }
            guard stored - 1 <= UInt64(bytes.count - offset) else { return nil }
            return text(length: Int(stored - 1)).map { .some($0) }
        }

        mutating func double() -> Double? {
            guard bytes.count - offset >= 8 else { return nil }
            defer { offset += 8 }
            return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }

        mutating func optionalDate() -> Date?? {
            switch byte() {
            case 0: return .some(nil)
            case 1: return double().map { .some(Date(timeIntervalSince1970: $0)) }
            default: return nil
            }
        }

        mutating func optionalInteger() -> Int?? {
            switch byte() {
            case 0: return .some(nil)
            case 1: return integer().map { .some($0) }
            default: return nil
            }
        }

        mutating func list<Element>(_ element: (inout Reader) -> Element?) -> [Element]? {
            guard let count = count() else { return nil }
            var elements: [Element] = []
            elements.reserveCapacity(count)
            for _ in 0..<count {
                guard let next = element(&self) else { return nil }
                elements.append(next)
            }
            return elements
        }
    }
}
