public import Foundation
public import TributaryModel

/// Writes Atom 1.0 (RFC 4287) documents that validate against the RFC's RELAX NG schema.
///
/// Every entry gets the required `id`, `title` and `updated`; content goes out as HTML in a CDATA
/// section (`type="html"`); `<source>` names the feed the entry came from; merged duplicates
/// become `link rel="related"`.
public struct AtomWriter: Sendable {
    /// The combined feed's own metadata.
    public struct Head: Sendable {
        /// The feed's id, an IRI.
        public var id: String
        /// The feed's title.
        public var title: String
        /// The feed's author; Atom requires one unless every entry has its own.
        public var author: Author
        /// The public URL of this document (`link rel="self"`).
        public var selfURL: String?
        /// The site the feed belongs to (`link rel="alternate"`).
        public var homePageURL: String?
        /// A subtitle.
        public var subtitle: String?
        /// When the feed changed; the newest entry's date is a good choice.
        public var updated: Date

        /// Creates feed metadata.
        public init(
            id: String, title: String, author: Author, selfURL: String? = nil, homePageURL: String? = nil,
            subtitle: String? = nil, updated: Date
        ) {
            self.id = id
            self.title = title
            self.author = author
            self.selfURL = selfURL
            self.homePageURL = homePageURL
            self.subtitle = subtitle
            self.updated = updated
        }
    }

    /// The generator's name and version, written as `<generator>`.
    public var generatorVersion: String
    /// What each source says about itself, by source name, for `<source>`.
    public var sources: [String: FeedInfo]
    /// The date given to entries that carry none (the time the run started).
    public var fallbackDate: Date

    /// Creates a writer.
    public init(generatorVersion: String, sources: [String: FeedInfo] = [:], fallbackDate: Date) {
        self.generatorVersion = generatorVersion
        self.sources = sources
        self.fallbackDate = fallbackDate
    }

    /// The whole document, UTF-8 text.
    public func document(head: Head, items: [Item]) -> String {
        String(decoding: documentBytes(head: head, items: items), as: UTF8.self)
    }

    /// The whole document as UTF-8 bytes, built without intermediate strings.
    public func documentBytes(head: Head, items: [Item]) -> [UInt8] {
        var xml = XMLOutput(capacity: AtomWriter.estimatedSize(of: items))
        write(head: head, items: items, into: &xml) { _ in }
        return xml.bytes
    }

    /// The document in pieces of about `pieceSize` bytes (whole entries), handed to `emit` in
    /// order: a river of any size is written with one piece in memory.
    public func write(head: Head, items: [Item], pieceSize: Int = 1 << 20, to emit: (UnsafeRawBufferPointer) -> Void) {
        var xml = XMLOutput(capacity: pieceSize + 64 << 10)
        write(head: head, items: items, into: &xml) { xml in
            if xml.count >= pieceSize { xml.flush(to: emit) }
        }
        xml.flush(to: emit)
    }

    /// Appends the document to `xml`, calling `entryWritten` after each entry.
    private func write(head: Head, items: [Item], into xml: inout XMLOutput, entryWritten: (inout XMLOutput) -> Void) {
        xml.raw("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n")
        element("id", head.id, into: &xml, indent: 1)
        xml.raw("  <title type=\"text\">")
        xml.text(head.title)
        xml.raw("</title>\n")
        if let subtitle = head.subtitle, !subtitle.isEmpty {
            xml.raw("  <subtitle type=\"text\">")
            xml.text(subtitle)
            xml.raw("</subtitle>\n")
        }
        element("updated", RFC3339.string(from: head.updated), into: &xml, indent: 1)
        person(head.author, into: &xml, indent: 1)
        if let selfURL = head.selfURL, !selfURL.isEmpty {
            xml.raw("  <link rel=\"self\" type=\"application/atom+xml\"")
            xml.attribute("href", selfURL)
            xml.raw("/>\n")
        }
        if let home = head.homePageURL, !home.isEmpty {
            xml.raw("  <link rel=\"alternate\" type=\"text/html\"")
            xml.attribute("href", home)
            xml.raw("/>\n")
        }
        xml.raw("  <generator")
        xml.attribute("version", generatorVersion)
        xml.raw(">Tributary</generator>\n")
        var ids = EntryIDs(capacity: items.count)
        var sourceElements: [String: [UInt8]] = [:]
        for item in items {
            entry(item, ids: &ids, sourceElements: &sourceElements, into: &xml)
            entryWritten(&xml)
        }
        xml.raw("</feed>\n")
    }

    /// Room for the document: the text fields' bytes and some markup per entry.
    private static func estimatedSize(of items: [Item]) -> Int {
        items.reduce(4096) { total, item in
            total + 768 + (item.contentHTML?.utf8.count ?? 0) + (item.summary?.utf8.count ?? 0) * 2
        }
    }

    private func entry(_ item: Item, ids: inout EntryIDs, sourceElements: inout [String: [UInt8]], into xml: inout XMLOutput) {
        xml.raw("  <entry>\n")
        element("id", ids.id(for: item), into: &xml, indent: 2)
        xml.raw("    <title type=\"text\">")
        xml.text(AtomWriter.title(of: item))
        xml.raw("</title>\n")
        element("updated", RFC3339.string(from: item.updated ?? item.published ?? fallbackDate), into: &xml, indent: 2)
        if let published = item.published {
            element("published", RFC3339.string(from: published), into: &xml, indent: 2)
        }
        for author in item.authors where !author.isEmpty {
            person(author, into: &xml, indent: 2)
        }
        if let url = item.url, !url.isEmpty {
            xml.raw(Self.isWebPage(url) ? "    <link rel=\"alternate\" type=\"text/html\"" : "    <link rel=\"alternate\"")
            xml.attribute("href", url)
            xml.raw("/>\n")
        }
        // JSON Feed's `external_url`: the page a linkblog's entry is about.
        if let external = item.externalURL, !external.isEmpty {
            xml.raw(Self.isWebPage(external) ? "    <link rel=\"related\" type=\"text/html\"" : "    <link rel=\"related\"")
            xml.attribute("href", external)
            xml.raw("/>\n")
        }
        for attachment in item.attachments where !attachment.url.isEmpty {
            xml.raw("    <link rel=\"enclosure\"")
            xml.attribute("href", attachment.url)
            if AtomWriter.matchesSchemaPattern(attachment.mimeType, around: "/") {
                xml.attribute("type", attachment.mimeType)
            }
            if let size = attachment.sizeInBytes, size >= 0 { xml.attribute("length", String(size)) }
            if let title = attachment.title, !title.isEmpty { xml.attribute("title", title) }
            xml.raw("/>\n")
        }
        for duplicate in item.duplicates {
            guard let url = duplicate.url.flatMap(WebLink.page) else { continue }
            xml.raw("    <link rel=\"related\"")
            xml.attribute("href", url)
            xml.attribute("title", [duplicate.title, "(\(duplicate.source))"].compactMap { $0 }.joined(separator: " "))
            xml.raw("/>\n")
        }
        for tag in item.tags where !tag.isEmpty {
            xml.raw("    <category")
            xml.attribute("term", tag)
            xml.raw("/>\n")
        }
        if let summary = item.summary, !summary.isEmpty {
            xml.raw("    <summary type=\"text\">")
            xml.text(summary)
            xml.raw("</summary>\n")
        }
        if let html = item.contentHTML, !html.isEmpty {
            xml.raw("    <content type=\"html\">")
            xml.cdata(html)
            xml.raw("</content>\n")
        } else if let summary = item.summary, !summary.isEmpty {
            xml.raw("    <content type=\"html\">")
            xml.cdata(HTMLText.paragraphs(fromPlainText: summary))
            xml.raw("</content>\n")
        } else if item.url == nil || item.url?.isEmpty == true {
            // RFC 4287 §4.1.1.1: an entry without content needs an alternate link.
            xml.raw("    <content type=\"text\">")
            xml.text(item.title ?? "")
            xml.raw("</content>\n")
        }
        // Every entry of a source carries the same <source>: made once per source.
        if let made = sourceElements[item.source] {
            xml.raw(made)
        } else {
            var element = XMLOutput()
            source(for: item.source, into: &element)
            sourceElements[item.source] = element.bytes
            xml.raw(element.bytes)
        }
        xml.raw("  </entry>\n")
    }

    private func source(for name: String, into xml: inout XMLOutput) {
        // A feed's own links are the feed's to say: only web links are published (`javascript:` in a channel's link
        // or an author's would otherwise reach every entry).
        var info = sources[name] ?? FeedInfo()
        WebLink.apply(to: &info)
        let feedURL = info.feedURL
        xml.raw("    <source>\n")
        // The feed's own id when it has one (RFC 4287 4.2.11: the source feed's metadata), else its address.
        if let id = info.id.flatMap({ AtomWriter.isAbsoluteIRI($0) ? $0 : nil }) ?? feedURL {
            element("id", id, into: &xml, indent: 3)
        }
        xml.raw("      <title type=\"text\">")
        xml.text(info.title.flatMap { $0.isEmpty ? nil : $0 } ?? name)
        xml.raw("</title>\n")
        if let homePageURL = info.homePageURL {
            xml.raw("      <link rel=\"alternate\" type=\"text/html\"")
            xml.attribute("href", homePageURL)
            xml.raw("/>\n")
        }
        if let feedURL {
            xml.raw("      <link rel=\"self\"")
            xml.attribute("href", feedURL)
            xml.raw("/>\n")
        }
        if let updated = info.updated {
            element("updated", RFC3339.string(from: updated), into: &xml, indent: 3)
        }
        // An entry without authors of its own has its source's (4.2.1), not the river's.
        for author in info.authors where !author.isEmpty {
            person(author, into: &xml, indent: 3)
        }
        xml.raw("    </source>\n")
    }

    private func person(_ author: Author, into xml: inout XMLOutput, indent: Int) {
        let name = author.name.flatMap { $0.isEmpty ? nil : $0 } ?? author.url ?? "unknown"
        xml.indent(indent)
        xml.raw("<author>\n")
        element("name", name, into: &xml, indent: indent + 1)
        if let url = author.url, !url.isEmpty, !url.lowercased().hasPrefix("mailto:") {
            element("uri", url, into: &xml, indent: indent + 1)
        }
        if let address = author.emailAddress, AtomWriter.matchesSchemaPattern(address, around: "@") {
            element("email", address, into: &xml, indent: indent + 1)
        }
        xml.indent(indent)
        xml.raw("</author>\n")
    }

    private func element(_ name: StaticString, _ value: String, into xml: inout XMLOutput, indent: Int) {
        xml.indent(indent)
        xml.element(name, value)
        xml.raw("\n")
    }

    /// Whether the text matches the schema's `.+@.+` (emails) or `.+/.+` (media types): the
    /// separator with something before and after it, and no line breaks (XSD's `.` excludes them).
    static func matchesSchemaPattern(_ text: String, around separator: Unicode.Scalar) -> Bool {
        let scalars = text.unicodeScalars
        return !scalars.contains("\n") && !scalars.contains("\r") && scalars.dropFirst().dropLast().contains(separator)
    }

    /// An entry's title: its own, else the start of its summary, else empty.
    static func title(of item: Item) -> String {
        if let title = item.title, !title.isEmpty { return title }
        guard let summary = item.summary, !summary.isEmpty else { return "" }
        return summary.count > 80 ? String(summary.prefix(80)) + "…" : summary
    }

    /// The entry id: the item's id when it is already an absolute IRI, else a URN built from
    /// the source name and the id.
    public static func entryID(for item: Item) -> String {
        isAbsoluteIRI(item.id) ? item.id : qualifiedID(for: item)
    }

    /// `urn:tributary:<source>:<id>`, percent-encoded, unique across sources.
    static func qualifiedID(for item: Item) -> String {
        "urn:tributary:" + URNEncoding.encode(item.source) + ":" + URNEncoding.encode(item.id)
    }

    /// Whether a link may be said to be a web page (`type="text/html"`): anything but a link whose path ends in the
    /// extension of a document, a picture, a sound, a video or an archive. A link to `report.pdf` or `episode.mp3`
    /// gets no type rather than a wrong one (RFC 4287 4.2.7.3: the type is advisory).
    static func isWebPage(_ url: String) -> Bool {
        let path = url.prefix { $0 != "?" && $0 != "#" }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return true }
        return !fileExtensions.contains(path[path.index(after: dot)...].lowercased())
    }

    private static let fileExtensions: Set<String> = [
        "pdf", "epub", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "txt", "csv", "jpg", "jpeg", "png", "gif",
        "webp", "avif", "svg", "mp3", "m4a", "aac", "ogg", "oga", "opus", "flac", "wav", "mp4", "m4v", "mov", "webm",
        "mkv", "avi", "zip", "gz", "tgz", "xz", "bz2", "7z", "rar", "tar", "dmg", "exe", "apk", "iso", "deb", "rpm",
        "torrent",
    ]

    /// Whether the id is already a globally unique IRI: an `http(s)`, `urn:` or `tag:` IRI
    /// without spaces. Other `word:rest` ids (`article:43071`) are only unique within their
    /// source, so they get a URN.
    static func isAbsoluteIRI(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), colon != utf8.startIndex, utf8.index(after: colon) != utf8.endIndex
        else { return false }
        // The scheme compared without case, on ASCII bytes (any other byte fails every name).
        let scheme = utf8[..<colon].map(ByteScan.lowercasedASCII)
        guard ["http", "https", "urn", "tag"].contains(where: { $0.utf8.elementsEqual(scheme) }) else { return false }
        var ascii = true
        for byte in utf8 {
            switch byte {
            case 0x09...0x0D, UInt8(ascii: " "), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""): return false
            case 0x80...: ascii = false
            default: continue
            }
        }
        // Unicode's other white space (U+00A0, U+3000, …) only when there are non-ASCII bytes.
        return ascii || !text.unicodeScalars.contains(where: \.properties.isWhitespace)
    }
}

/// Percent-encoding for the parts of a URN: unreserved characters stay, everything else is encoded.
enum URNEncoding {
    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output += String(format: "%%%02X", byte)
            }
        }
        return output
    }
}
