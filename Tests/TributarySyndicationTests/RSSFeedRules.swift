import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The W3C feed validator's rules for RSS 2.0 (https://validator.w3.org/feed/docs/rss2.html), as
/// checks on a parsed document: what the validator reports as an error, and the warnings
/// Tributary promises not to cause (self link, one enclosure, `author` only with an address).
enum RSSFeedRules {
    static let atom = "http://www.w3.org/2005/Atom"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let dc = "http://purl.org/dc/elements/1.1/"

    /// Every rule the document breaks, one line each; empty when it passes.
    static func violations(_ xml: String, selfURL: String? = nil) -> [String] {
        // XMLDocument recovers from some errors; the SAX parser reports them (an unclosed element only in `parserError`).
        let strict = XMLParser(data: Data(xml.utf8))
        guard strict.parse(), strict.parserError == nil else {
            return ["not well-formed XML: line \(strict.lineNumber): \(strict.parserError.map { "\($0)" } ?? "")"]
        }
        let document: XMLDocument
        do {
            document = try XMLDocument(data: Data(xml.utf8), options: [])
        } catch {
            return ["not well-formed XML: \(error)"]
        }
        var found: [String] = []
        guard let root = document.rootElement(), root.name == "rss" else { return ["the root element is not <rss>"] }
        if root.attribute(forName: "version")?.stringValue != "2.0" { found.append("rss version is not 2.0") }
        let channels = root.elements(forName: "channel")
        guard channels.count == 1, let channel = channels.first else { return found + ["rss needs exactly one channel"] }

        for name in ["title", "link", "description"] {
            let elements = channel.elements(forName: name)
            if elements.count != 1 { found.append("channel needs exactly one <\(name)>, found \(elements.count)") }
            if name != "description", (elements.first?.stringValue ?? "").isEmpty { found.append("channel <\(name)> is empty") }
        }
        if let link = channel.elements(forName: "link").first?.stringValue, !isFullURL(link) {
            found.append("channel <link> must be a full URL: '\(link)'")
        }
        let selfLinks = children(of: channel, "link", atom)
        if let selfURL {
            if selfLinks.count != 1 { found.append("channel needs one atom:link rel=self, found \(selfLinks.count)") }
            for link in selfLinks {
                if link.attribute(forName: "rel")?.stringValue != "self" { found.append("atom:link without rel=self") }
                if link.attribute(forName: "type")?.stringValue != "application/rss+xml" {
                    found.append("atom:link type is not application/rss+xml")
                }
                if link.attribute(forName: "href")?.stringValue != selfURL { found.append("atom:link href is not the self URL") }
            }
        }
        for name in ["lastBuildDate", "pubDate"] {
            for date in channel.elements(forName: name) where !isRFC822(date.stringValue ?? "") {
                found.append("channel <\(name)> is not an RFC 822 date: '\(date.stringValue ?? "")'")
            }
        }

        var guids = Set<String>()
        for (index, item) in channel.elements(forName: "item").enumerated() {
            let label = "item \(index + 1)"
            let title = item.elements(forName: "title").first?.stringValue ?? ""
            let description = item.elements(forName: "description").first?.stringValue ?? ""
            if title.isEmpty && description.isEmpty { found.append("\(label) has neither a title nor a description") }
            for name in ["title", "link", "description", "guid", "pubDate", "source", "comments"]
            where item.elements(forName: name).count > 1 {
                found.append("\(label) has more than one <\(name)>")
            }
            if let link = item.elements(forName: "link").first?.stringValue, !isFullURL(link) {
                found.append("\(label) <link> must be a full URL: '\(link)'")
            }
            for author in item.elements(forName: "author") where !(author.stringValue ?? "").contains("@") {
                found.append("\(label) <author> must be an e-mail address (names go in dc:creator)")
            }
            let guids_ = item.elements(forName: "guid")
            if guids_.isEmpty { found.append("\(label) has no <guid>") }
            for guid in guids_ {
                let value = guid.stringValue ?? ""
                if value.isEmpty { found.append("\(label) has an empty guid") }
                if !guids.insert(value).inserted { found.append("\(label) repeats the guid '\(value)'") }
                let permaLink = guid.attribute(forName: "isPermaLink")?.stringValue ?? "true"
                if !["true", "false"].contains(permaLink) { found.append("\(label) isPermaLink must be true or false") }
                if permaLink == "true", !isFullURL(value) { found.append("\(label) guid is a permalink but not a full URL: '\(value)'") }
            }
            for date in item.elements(forName: "pubDate") where !isRFC822(date.stringValue ?? "") {
                found.append("\(label) <pubDate> is not an RFC 822 date: '\(date.stringValue ?? "")'")
            }
            let enclosures = item.elements(forName: "enclosure")
            if enclosures.count > 1 { found.append("\(label) has more than one enclosure") }
            for enclosure in enclosures {
                if !isFullURL(enclosure.attribute(forName: "url")?.stringValue ?? "") {
                    found.append("\(label) enclosure url is not a full URL")
                }
                if Int(enclosure.attribute(forName: "length")?.stringValue ?? "x") == nil {
                    found.append("\(label) enclosure length is not an integer")
                }
                let type = enclosure.attribute(forName: "type")?.stringValue ?? ""
                if type.split(separator: "/").count != 2 { found.append("\(label) enclosure type is not a MIME type: '\(type)'") }
            }
            for source in item.elements(forName: "source") where !isFullURL(source.attribute(forName: "url")?.stringValue ?? "") {
                found.append("\(label) <source> needs a url attribute with a full URL")
            }
            for link in children(of: item, "link", atom) {
                if (link.attribute(forName: "rel")?.stringValue ?? "").isEmpty { found.append("\(label) atom:link without rel") }
                if !isFullURL(link.attribute(forName: "href")?.stringValue ?? "") {
                    found.append("\(label) atom:link href is not a full URL")
                }
            }
            for category in item.elements(forName: "category") where (category.stringValue ?? "").isEmpty {
                found.append("\(label) has an empty <category>")
            }
            for creator in children(of: item, "creator", dc) where (creator.stringValue ?? "").isEmpty {
                found.append("\(label) has an empty dc:creator")
            }
        }
        return found
    }

    /// The child elements in a namespace with a local name (FoundationXML's
    /// `elements(forLocalName:uri:)` also returns same-named elements outside the namespace).
    static func children(of element: XMLElement, _ localName: String, _ uri: String) -> [XMLElement] {
        (element.children ?? []).compactMap { $0 as? XMLElement }.filter { $0.localName == localName && $0.uri == uri }
    }

    /// An absolute http(s) URL with a host.
    static func isFullURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme) else { return false }
        return !(url.host ?? "").isEmpty
    }

    /// RFC 822 with a four-digit year, as the validator wants, and the right weekday.
    static func isRFC822(_ text: String) -> Bool {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        guard let date = formatter.date(from: text) else { return false }
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date).prefix(3) == text.prefix(3)
    }
}
