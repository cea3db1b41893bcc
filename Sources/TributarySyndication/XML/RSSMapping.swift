import Foundation
import TributaryModel

/// RSS 0.90–2.0 and RSS 1.0 elements, with the Dublin Core, content, Media RSS and iTunes
/// extensions (which Atom entries carry too, e.g. YouTube's `media:group`).
extension FeedBuilder {
    /// An element outside any item: channel metadata, or the start of an item.
    func channelElement(_ element: XMLElement, _ namespace: XMLNamespace) {
        guard let name = element.name else { return }
        let direct = depth == channelDepth + 1
        switch namespace {
        case .none, .rss10, .rss090:
            if namespace == .rss090 { version = "0.90" }
            switch name {
            case .item:
                beginItem(element)
            case .channel where depth <= 2:
                channelDepth = depth
            case .image:
                imageDepth = depth
            case .textInput, .textinput, .items:
                skipDepth = depth
            case .title where direct: begin(.title(.guessed, fallback: false), element)
            case .link where direct: begin(.link, element)
            case .description where direct: begin(.description, element, mode: .html)
            case .language where direct: begin(.language, element)
            case .managingEditor where direct: begin(.author(fallback: false), element)
            case .pubDate where direct: begin(.date(.published), element, recordPosition: true)
            case .lastBuildDate where direct: begin(.date(.updated), element, recordPosition: true)
            default: break
            }
        case .dc where direct:
            switch name {
            case .title: begin(.title(.guessed, fallback: true), element)
            case .creator: begin(.author(fallback: false), element)
            case .date: begin(.date(.published), element, recordPosition: true)
            case .language: begin(.language, element)
            case .description: begin(.description, element, mode: .html)
            default: break
            }
        case .dcterms where direct:
            if name == .modified { begin(.date(.updated), element, recordPosition: true) }
        case .itunes:
            switch name {
            case .image where direct:
                if let href = element.attributes.value(.href), !href.isEmpty, feed.itunesImage == nil {
                    feed.itunesImage = FeedText.resolve(href, against: currentBase)
                }
            case .author where direct: begin(.author(fallback: true), element)
            case .summary where direct: begin(.plainSummary(html: false, preferred: true), element)
            case .subtitle where direct: begin(.plainSummary(html: false, preferred: false), element)
            default: skipDepth = depth  // itunes:owner, itunes:category and their children
            }
        default:
            break
        }
    }

    /// An element inside an item (or, for the extension namespaces, an Atom entry).
    func itemElement(_ element: XMLElement, _ namespace: XMLNamespace) {
        guard let name = element.name else { return }
        let direct = depth == itemDepth + 1
        switch namespace {
        case .none, .rss10, .rss090:
            guard direct else { return }
            switch name {
            case .title: begin(.title(.guessed, fallback: false), element)
            case .link:
                // Some publishers write Atom-style links without the Atom namespace.
                if let href = element.attributes.value(.href), !href.isEmpty, item?.link == nil {
                    item?.link = FeedText.resolve(href, against: currentBase)
                }
                begin(.link, element)
            case .description: begin(.description, element, mode: .html)
            case .guid:
                let permaLink = FeedText.keyword(element.attributes.value(.isPermaLink)) != "false"
                begin(.guid(permaLink: permaLink), element)
            case .pubDate: begin(.date(.published), element, recordPosition: true)
            case .author: begin(.author(fallback: false), element)
            // The `domain` attribute names a taxonomy, which `Item.tags` has no place for; the
            // text is the tag.
            case .category: begin(.category, element)
            case .enclosure: enclosure(element)
            case .comments: begin(.comments, element)
            case .source: skipDepth = depth
            default: break
            }
        case .dc where direct:
            switch name {
            case .title: begin(.title(.guessed, fallback: true), element)
            case .creator: begin(.author(fallback: false), element)
            case .date: begin(.date(.publishedIfAbsent), element, recordPosition: true)
            case .subject: begin(.category, element)
            case .description: begin(.description, element, mode: .html)
            default: break
            }
        case .dcterms where direct:
            switch name {
            case .modified: begin(.date(.updated), element, recordPosition: true)
            case .created, .issued: begin(.date(.publishedIfAbsent), element, recordPosition: true)
            default: break
            }
        case .content where direct:
            if name == .encoded { begin(.encoded, element, mode: .html) }
        case .media:
            mediaElement(element, name)
        case .itunes where direct:
            switch name {
            case .image:
                if let href = element.attributes.value(.href), !href.isEmpty, item?.itunesImage == nil {
                    item?.itunesImage = FeedText.resolve(href, against: currentBase)
                }
            case .duration: begin(.duration, element)
            case .author: begin(.author(fallback: true), element)
            case .summary: begin(.plainSummary(html: false, preferred: true), element)
            case .subtitle: begin(.plainSummary(html: false, preferred: false), element)
            default: break
            }
        default:
            break
        }
    }

    /// RSS `enclosure url length type`.
    private func enclosure(_ element: XMLElement) {
        guard let raw = element.attributes.value(.url) ?? element.attributes.value(.href) else { return }
        let url = FeedText.resolve(raw, against: currentBase)
        guard !url.isEmpty else { return }
        let type = element.attributes.value(.type).map(FeedText.trimmed) ?? ""
        item?.addAttachment(
            Attachment(
                url: url, mimeType: type.isEmpty ? MIMEGuess.type(forURL: url) : type,
                sizeInBytes: FeedBuilder.positiveInteger(element.attributes.value(.length))))
    }

    /// Media RSS: `media:content`, `media:thumbnail`, `media:title`, `media:description`, inside
    /// or outside `media:group` (and inside `media:content`).
    private func mediaElement(_ element: XMLElement, _ name: XMLName) {
        switch name {
        case .content:
            guard let raw = element.attributes.value(.url) else { return }
            let url = FeedText.resolve(raw, against: currentBase)
            guard !url.isEmpty else { return }
            let medium = element.attributes.value(.medium)?.lowercased()
            var type = element.attributes.value(.type).map(FeedText.trimmed) ?? ""
            if type.isEmpty { type = MIMEGuess.type(forURL: url) }
            let duration = element.attributes.value(.duration).flatMap(MediaDuration.seconds(from:))
            item?.addAttachment(
                Attachment(
                    url: url, mimeType: type, sizeInBytes: FeedBuilder.positiveInteger(element.attributes.value(.fileSize)),
                    durationInSeconds: duration))
            if medium == "image" || type.lowercased().hasPrefix("image/"), item?.mediaImage == nil {
                item?.mediaImage = url
            }
        case .thumbnail:
            if let raw = element.attributes.value(.url), !raw.isEmpty, item?.thumbnail == nil {
                item?.thumbnail = FeedText.resolve(raw, against: currentBase)
            }
        case .title:
            begin(.title(.text, fallback: true), element)
        case .description:
            let isHTML = element.attributes.value(.type)?.lowercased() == "html"
            begin(.plainSummary(html: isHTML, preferred: false), element, mode: isHTML ? .html : .plain)
        default:
            break
        }
    }

    /// A positive integer attribute (`length`, `fileSize`); 0 and junk mean unknown.
    static func positiveInteger(_ text: String?) -> Int? {
        guard let text else { return nil }
        let digits = FeedText.trimmed(text).filter { $0 != "," }
        guard let value = Int(digits), value > 0 else { return nil }
        return value
    }
}
