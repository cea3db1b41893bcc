import Foundation
import TributaryModel

/// Atom 1.0 (RFC 4287) and Atom 0.3 elements, in Atom documents and inside RSS.
extension FeedBuilder {
    /// An Atom element outside any entry: feed metadata, or the start of an entry.
    func atomFeedElement(_ element: XMLElement, _ namespace: XMLNamespace) {
        guard let name = element.name else { return }
        if name == .entry {
            beginItem(element)
            return
        }
        guard depth == channelDepth + 1 else { return }
        switch name {
        case .title:
            if let kind = textKind(element, namespace) { begin(.title(kind, fallback: false), element, mode: kind.mode) }
        case .subtitle, .tagline:
            if let kind = textKind(element, namespace) { begin(.subtitle(kind), element, mode: kind.mode) }
        case .link: atomLink(element, forItem: false)
        case .updated, .modified: begin(.date(.updated), element, recordPosition: true)
        case .id: begin(.atomID, element)
        case .author: beginPerson()
        case .contributor, .source, .entry: skipDepth = depth
        case .logo: begin(.logo, element)
        case .icon: begin(.icon, element)
        default: break
        }
    }

    /// An Atom element directly inside an entry (or an RSS item).
    func atomEntryElement(_ element: XMLElement, _ namespace: XMLNamespace) {
        guard let name = element.name, depth == itemDepth + 1 else { return }
        switch name {
        case .id: begin(.atomID, element)
        case .title:
            if let kind = textKind(element, namespace) { begin(.title(kind, fallback: false), element, mode: kind.mode) }
        case .link: atomLink(element, forItem: true)
        case .summary:
            if let kind = textKind(element, namespace) { begin(.summary(kind), element, mode: kind.mode) }
        case .content:
            // Out-of-line content (`src`) has nothing to read here.
            guard element.attributes.value(.src) == nil, let kind = textKind(element, namespace) else { return }
            begin(.content(kind), element, mode: kind.mode)
        case .published, .issued: begin(.date(.published), element, recordPosition: true)
        case .created: begin(.date(.publishedIfAbsent), element, recordPosition: true)
        case .updated, .modified: begin(.date(.updated), element, recordPosition: true)
        case .author: beginPerson()
        case .contributor, .source: skipDepth = depth
        case .category:
            // `term` is the category's identity and what other feeds match on; `label` is only
            // a display form, used when there is no term.
            let term = element.attributes.value(.term).map(FeedText.collapsed) ?? ""
            let tag = term.isEmpty ? element.attributes.value(.label) ?? "" : term
            if !tag.isEmpty { item?.addTag(tag) }
        default: break
        }
    }

    /// `link rel href type length title`: the item's page, an enclosure, its comments, or the
    /// feed's home page and own URL.
    private func atomLink(_ element: XMLElement, forItem: Bool) {
        guard let href = element.attributes.value(.href).map(FeedText.trimmed), !href.isEmpty else {
            // Some generators write the URL as the link's text, as RSS does; feedparser reads it.
            if element.attributes.value(.href) == nil { begin(.atomTextLink, element) }
            return
        }
        let url = FeedText.resolve(href, against: currentBase)
        var rel = FeedText.keyword(element.attributes.value(.rel))
        if rel.hasPrefix("http://www.iana.org/assignments/relation/") { rel = String(rel.dropFirst(41)) }
        if rel.isEmpty { rel = "alternate" }
        let type = element.attributes.value(.type)
        if forItem {
            switch rel {
            case "alternate":
                item?.alternates.append((url, type))
            case "enclosure":
                let mime = type.map(FeedText.trimmed) ?? ""
                item?.addAttachment(
                    Attachment(
                        url: url, mimeType: mime.isEmpty ? MIMEGuess.type(forURL: url) : mime,
                        title: element.attributes.value(.title).flatMap { $0.isEmpty ? nil : $0 },
                        sizeInBytes: FeedBuilder.positiveInteger(element.attributes.value(.length))))
            case "replies":
                if type == nil || type?.lowercased().contains("html") == true, item?.commentsURL == nil { item?.commentsURL = url }
            default:
                break
            }
        } else {
            switch rel {
            case "alternate":
                if feed.homePage == nil { feed.homePage = url }
            case "self":
                if feed.selfLink == nil { feed.selfLink = url }
            default:
                break
            }
        }
    }

    /// What an Atom text construct holds, from `type` (and Atom 0.3's `mode`); nil for content
    /// types Tributary cannot show (images, other binary media).
    private func textKind(_ element: XMLElement, _ namespace: XMLNamespace) -> Capture.TextKind? {
        let type = FeedText.keyword(element.attributes.value(.type))
        let isXHTML = type == "xhtml" || type == "application/xhtml+xml"
        let isHTML = type == "html" || (!isXHTML && FeedText.mentionsHTML(type))
        if namespace == .atom03 {
            switch FeedText.keyword(element.attributes.value(.mode)) {
            case "base64": return .base64(html: isHTML || isXHTML)
            case "escaped": return type.hasPrefix("text/plain") ? .text : .html
            case "xml": return .xhtml
            default: break
            }
        }
        if type.isEmpty || type == "text" || type.hasPrefix("text/plain") { return .text }
        if isXHTML { return .xhtml }
        if isHTML { return .html }
        if type.hasPrefix("text/") { return .text }
        if type.hasSuffix("+xml") || type.hasSuffix("/xml") { return .xhtml }
        return nil
    }
}
