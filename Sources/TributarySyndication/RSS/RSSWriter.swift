public import Foundation
public import TributaryModel

/// Writes RSS 2.0 documents that pass the W3C feed validator's rules.
///
/// The channel always has `title`, `link` and `description` (the spec's required three) and,
/// when the public URL is known, `atom:link rel="self"`. Every item has a `guid`
/// (`isPermaLink="true"` only when it is the item's link), a title or a description, authors as
/// `dc:creator` (RSS `author` must be an e-mail address), content as `content:encoded`, the first
/// attachment as `enclosure` (RSS allows one; the others go out as `media:content`) and
/// `source` naming the feed it came from when that feed's URL is known. Dates are RFC 822 in UTC.
public struct RSSWriter: Sendable {
    /// The combined feed's own metadata.
    public struct Head: Sendable {
        /// The channel's title.
        public var title: String
        /// The site the feed belongs to; the self URL stands in when there is none. RSS requires
        /// one of the two (an absolute http(s) URL): without either, `link` is empty and invalid.
        public var homePageURL: String?
        /// The public URL of this document (`atom:link rel="self"`).
        public var selfURL: String?
        /// The channel's description; a sentence naming the title stands in when empty.
        public var description: String?
        /// The language, as a BCP 47 tag such as `zh-CN`.
        public var language: String?
        /// The channel's author or publisher, written as `dc:creator`.
        public var author: Author?
        /// When the content last changed (`lastBuildDate`).
        public var updated: Date

        /// Creates channel metadata.
        public init(
            title: String, homePageURL: String? = nil, selfURL: String? = nil, description: String? = nil, language: String? = nil,
            author: Author? = nil, updated: Date
        ) {
            self.title = title
            self.homePageURL = homePageURL
            self.selfURL = selfURL
            self.description = description
            self.language = language
            self.author = author
            self.updated = updated
        }
    }

    /// The generator's name and version, written as `<generator>`.
    public var generatorVersion: String
    /// What each source says about itself, by source name, for `<source>`.
    public var sources: [String: FeedInfo]

    /// Creates a writer.
    public init(generatorVersion: String, sources: [String: FeedInfo] = [:]) {
        self.generatorVersion = generatorVersion
        self.sources = sources
    }

    /// The whole document, UTF-8 text.
    public func document(head: Head, items: [Item]) -> String {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" \
            xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
              <channel>

            """
        let title = head.title.isEmpty ? "Tributary" : head.title
        element("title", RSSWriter.title(title), into: &xml, indent: 2)
        // RSS's links (`link`, `enclosure url`, `source url`) must be absolute http(s) URLs: `WebLink.page`.
        let link = [head.homePageURL, head.selfURL].lazy.compactMap { $0.flatMap(WebLink.page) }.first
        element("link", link ?? "", into: &xml, indent: 2)
        let description = head.description.flatMap { $0.isEmpty ? nil : $0 } ?? "\(title): items combined by Tributary"
        element("description", description, into: &xml, indent: 2)
        if let selfURL = head.selfURL.flatMap(WebLink.page) {
            xml += "    <atom:link rel=\"self\" type=\"application/rss+xml\" href=\"\(XMLEscaping.attribute(selfURL))\"/>\n"
        }
        if let language = head.language, !language.isEmpty { element("language", language, into: &xml, indent: 2) }
        if let name = head.author?.name, !name.isEmpty { element("dc:creator", name, into: &xml, indent: 2) }
        element("lastBuildDate", RFC822.string(from: head.updated), into: &xml, indent: 2)
        element("generator", "Tributary \(generatorVersion)", into: &xml, indent: 2)
        element("docs", "https://www.rssboard.org/rss-specification", into: &xml, indent: 2)
        var ids = EntryIDs(capacity: items.count)
        for item in items {
            self.item(item, ids: &ids, into: &xml)
        }
        xml += "  </channel>\n</rss>\n"
        return xml
    }

    private func item(_ item: Item, ids: inout EntryIDs, into xml: inout String) {
        xml += "    <item>\n"
        let title = AtomWriter.title(of: item)
        if !title.isEmpty { element("title", RSSWriter.title(title), into: &xml, indent: 3) }
        let link = item.url.flatMap(WebLink.page)
        if let link { element("link", link, into: &xml, indent: 3) }
        // The description is HTML: a plain-text summary is escaped for HTML, then for XML.
        if let summary = item.summary, !summary.isEmpty {
            htmlElement("description", HTMLText.paragraphs(fromPlainText: summary), into: &xml)
        } else if let html = item.contentHTML, !html.isEmpty {
            htmlElement("description", html, into: &xml)
        } else if title.isEmpty {
            // An item needs a title or a description: its link, else what the HTML page shows (not the internal id).
            element("description", link ?? "(untitled)", into: &xml, indent: 3)
        }
        if let html = item.contentHTML, !html.isEmpty { htmlElement("content:encoded", html, into: &xml) }
        for author in item.authors {
            guard let name = author.name.flatMap({ $0.isEmpty ? nil : $0 }) ?? author.url, !name.isEmpty else { continue }
            element("dc:creator", name, into: &xml, indent: 3)
        }
        for tag in item.tags where !tag.isEmpty {
            element("category", tag, into: &xml, indent: 3)
        }
        let enclosures = item.attachments.compactMap { attachment in
            WebLink.page(attachment.url).map { url in
                var attachment = attachment
                attachment.url = url
                return attachment
            }
        }
        if let first = enclosures.first {
            let type = AtomWriter.matchesSchemaPattern(first.mimeType, around: "/") ? first.mimeType : "application/octet-stream"
            xml += "      <enclosure url=\"\(XMLEscaping.attribute(first.url))\" length=\"\(max(first.sizeInBytes ?? 0, 0))\""
            xml += " type=\"\(XMLEscaping.attribute(type))\"/>\n"
        }
        for other in enclosures.dropFirst() {
            xml += "      <media:content url=\"\(XMLEscaping.attribute(other.url))\""
            if AtomWriter.matchesSchemaPattern(other.mimeType, around: "/") { xml += " type=\"\(XMLEscaping.attribute(other.mimeType))\"" }
            if let size = other.sizeInBytes, size > 0 { xml += " fileSize=\"\(size)\"" }
            if let seconds = other.durationInSeconds, seconds > 0 { xml += " duration=\"\(seconds)\"" }
            xml += "/>\n"
        }
        // RSS has no element for them: the page a linkblog's item is about and the duplicates merged into the item
        // are Atom's related links.
        if let external = item.externalURL.flatMap(WebLink.page) {
            xml += "      <atom:link rel=\"related\" href=\"\(XMLEscaping.attribute(external))\"/>\n"
        }
        for duplicate in item.duplicates {
            guard let url = duplicate.url.flatMap(WebLink.page) else { continue }
            let title = [duplicate.title, "(\(duplicate.source))"].compactMap { $0 }.joined(separator: " ")
            xml += "      <atom:link rel=\"related\" href=\"\(XMLEscaping.attribute(url))\" title=\"\(XMLEscaping.attribute(title))\"/>\n"
        }
        let guid = ids.id(for: item)
        let permaLink = guid == link
        xml += "      <guid isPermaLink=\"\(permaLink)\">\(XMLEscaping.text(guid))</guid>\n"
        if let date = item.published ?? item.updated {
            element("pubDate", RFC822.string(from: date), into: &xml, indent: 3)
        }
        if let info = sources[item.source], let feedURL = info.feedURL.flatMap(WebLink.page) {
            let name = info.title.flatMap { $0.isEmpty ? nil : $0 } ?? item.source
            xml += "      <source url=\"\(XMLEscaping.attribute(feedURL))\">\(XMLEscaping.text(name))</source>\n"
        }
        xml += "    </item>\n"
    }

    /// A plain-text title as RSS readers read it back. RSS titles say nothing of their type, and
    /// readers (Python's feedparser, Tributary's own parser) take one that looks like HTML for HTML
    /// (`FeedText.looksLikeHTML`): such a title (`R&D &copy; report`) is written as the HTML of
    /// its text, so that `&copy;` reads back as itself, not as ©. Others are written as they are.
    static func title(_ text: String) -> String {
        FeedText.looksLikeHTML(text) ? XMLEscaping.text(text) : text
    }

    private func element(_ name: String, _ value: String, into xml: inout String, indent: Int) {
        xml += String(repeating: "  ", count: indent) + "<\(name)>\(XMLEscaping.text(value))</\(name)>\n"
    }

    /// An item's element of HTML, in a CDATA section (as `XMLOutput.cdata` writes it).
    private func htmlElement(_ name: String, _ html: String, into xml: inout String) {
        var section = XMLOutput(capacity: html.utf8.count + 32)
        section.cdata(html)
        xml += "      <\(name)>" + section.string + "</\(name)>\n"
    }
}
