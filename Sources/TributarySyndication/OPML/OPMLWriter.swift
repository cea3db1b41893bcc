public import Foundation

/// Writes OPML 2.0 subscription lists (http://opml.org/spec2.opml): one `outline type="rss"`
/// per feed with `text`, `title`, `xmlUrl` and `htmlUrl`, folders as outlines holding others. An outline's
/// `source` goes into attributes of Tributary's namespace (`tributary:name`, …), declared on `<opml>` when used.
public struct OPMLWriter: Sendable {
    /// When the list was made (`dateCreated`); nil leaves it out.
    public var dateCreated: Date?

    /// Creates a writer.
    public init(dateCreated: Date? = nil) {
        self.dateCreated = dateCreated
    }

    /// The whole document, UTF-8 text.
    public func document(_ document: OPMLDocument) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<opml version=\"2.0\""
        if document.outlines.contains(where: Self.hasSource) {
            xml += " xmlns:tributary=\"\(OPMLOutline.tributaryNamespace)\""
        }
        xml += ">\n  <head>\n"
        xml += "    <title>\(XMLEscaping.text(document.title ?? "Tributary subscriptions"))</title>\n"
        if let dateCreated { xml += "    <dateCreated>\(RFC822.string(from: dateCreated))</dateCreated>\n" }
        xml += "    <docs>http://opml.org/spec2.opml</docs>\n  </head>\n  <body>\n"
        for outline in document.outlines {
            write(outline, depth: 2, into: &xml)
        }
        xml += "  </body>\n</opml>\n"
        return xml
    }

    private func write(_ outline: OPMLOutline, depth: Int, into xml: inout String) {
        let pad = String(repeating: "  ", count: depth)
        // OPML 2.0: every outline has `text`.
        let text = outline.name ?? outline.xmlURL ?? ""
        xml += pad + "<outline"
        if outline.isFeed { xml += " type=\"\(XMLEscaping.attribute((outline.type ?? "rss").lowercased()))\"" }
        xml += " text=\"\(XMLEscaping.attribute(text))\""
        if outline.isFeed || outline.title != nil { xml += " title=\"\(XMLEscaping.attribute(outline.title ?? text))\"" }
        if let url = outline.xmlURL, !url.isEmpty { xml += " xmlUrl=\"\(XMLEscaping.attribute(url))\"" }
        if let url = outline.htmlURL, !url.isEmpty { xml += " htmlUrl=\"\(XMLEscaping.attribute(url))\"" }
        if let source = outline.source {
            if let name = source.name { xml += " tributary:name=\"\(XMLEscaping.attribute(name))\"" }
            if let adapter = source.adapter { xml += " tributary:adapter=\"\(XMLEscaping.attribute(adapter))\"" }
            if let enabled = source.enabled { xml += " tributary:enabled=\"\(enabled)\"" }
        }
        if outline.children.isEmpty {
            xml += "/>\n"
            return
        }
        xml += ">\n"
        for child in outline.children {
            write(child, depth: depth + 1, into: &xml)
        }
        xml += pad + "</outline>\n"
    }

    private static func hasSource(_ outline: OPMLOutline) -> Bool {
        outline.source != nil || outline.children.contains(where: hasSource)
    }
}
