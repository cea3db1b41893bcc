import Foundation
import TributaryModel

/// Turns the element stream of an RSS 0.9x/1.0/2.0 or Atom 0.3/1.0 document into `FeedInfo`,
/// `Item`s and `Problem`s, one element at a time.
///
/// The state is a handful of depths (the open item, person, image, skipped subtree, the field
/// whose text is being collected) rather than a stack of every element, so each event costs
/// O(1): a pointer lookup for the name, a switch, and text appended only inside fields the
/// mappings want. `RSSMapping.swift` and `AtomMapping.swift` hold the per-format element tables.
final class FeedBuilder {
    /// What the mappings need from the caller.
    struct Settings {
        var source: String
        var documentURL: URL?
        var dateParser: DateParser
        var sanitize: Bool
        /// The most items read; later ones are skipped and counted.
        var maxItems = Int.max
    }

    let settings: Settings
    /// The parser's current position; set by `XMLStreamParser` for the duration of a parse.
    var position: () -> (line: Int?, column: Int?) = { (nil, nil) }
    /// Why the document was refused, when `start` returned false.
    private(set) var fatal: FeedParseError?

    // Results.
    private(set) var format: FeedFormat?
    var version: String?
    var feed = FeedDraft()
    private(set) var items: [Item] = []
    private(set) var problems: [Problem] = []
    /// The items skipped past `settings.maxItems`.
    private(set) var itemsLeftOut = 0
    /// The indices in `items` of those whose id was derived from their link alone (see `result()`).
    private var linkIdentified: [Int] = []

    // Where we are. The properties read or written on every event are accessed without a
    // dynamic exclusivity check (`@exclusivity(unchecked)`): the events run one at a time on
    // one thread, and no access stays open across a call that could touch the same property.
    @exclusivity(unchecked) var depth = 0
    /// What unprefixed elements mean: RSS in RSS documents, Atom under an un-namespaced `feed`.
    var noNamespace: XMLNamespace = .none
    /// The depth of the element whose children are feed-level fields (`channel`, or the root).
    var channelDepth = 1
    @exclusivity(unchecked) var item: ItemDraft?
    var itemDepth = 0
    /// Inside this depth everything is ignored (`textInput`, Atom `source`, `itunes:owner`, …).
    var skipDepth = 0
    var imageDepth = 0
    var personDepth = 0
    var person = Author()
    var personEmail: String?
    var personForItem = false
    @exclusivity(unchecked) private var bases: [(depth: Int, url: URL?)] = []
    private let resolvers = HTMLURLResolverCache()

    // The field being collected: the cold part, and hot copies read on every event.
    @exclusivity(unchecked) var capture: Capture?
    @exclusivity(unchecked) private var captureDepth = 0
    @exclusivity(unchecked) private var captureMode = Capture.Mode.plain
    private var wrapperDepth = 0
    private var captureSawElement = false
    @exclusivity(unchecked) private var text: [UInt8] = []

    init(settings: Settings) {
        self.settings = settings
        text.reserveCapacity(4096)
    }

    /// The base URL in effect: the innermost xml:base, else the document's URL.
    var currentBase: URL? { bases.last?.url ?? settings.documentURL }

    /// The most problems kept; a hostile or badly broken document could otherwise produce one
    /// per element. The rest are counted.
    static let maxProblems = 500
    private var unreportedProblems = 0

    func report(_ problem: Problem) {
        if problems.count < FeedBuilder.maxProblems {
            problems.append(problem)
        } else {
            unreportedProblems += 1
        }
    }

    // MARK: Events

    /// A start tag; false when the document must be refused (see `fatal`).
    func start(_ element: XMLElement) -> Bool {
        depth += 1
        if element.attributes.count > 0, let base = element.attributes.xmlAttribute(.base) {
            bases.append((depth, URL(string: FeedText.resolve(base, against: currentBase))))
        }
        if captureDepth > 0 {
            startInsideCapture(element)
            return true
        }
        if skipDepth > 0 { return true }
        if depth == 1 { return root(element) }
        let namespace = element.namespace == .none ? noNamespace : element.namespace
        if personDepth > 0 {
            personField(element, namespace)
        } else if imageDepth > 0 {
            if depth == imageDepth + 1, namespace.isRSS, element.name == .url { begin(.imageURL, element) }
        } else if itemDepth > 0 {
            if namespace.isAtom {
                atomEntryElement(element, namespace)
            } else {
                itemElement(element, namespace)
            }
        } else if namespace.isAtom {
            atomFeedElement(element, namespace)
        } else {
            channelElement(element, namespace)
        }
        return true
    }

    /// An end tag (the builder's own depth says which element it closes).
    func end(_ local: UnsafePointer<UInt8>) {
        defer {
            if let last = bases.last, last.depth == depth { bases.removeLast() }
            depth -= 1
        }
        if captureDepth > 0 {
            if depth == captureDepth {
                finishCapture()
            } else if captureMode != .plain, depth != wrapperDepth {
                MarkupWriter.close(local, into: &text)
            }
            return
        }
        if skipDepth > 0 {
            if depth == skipDepth { skipDepth = 0 }
            return
        }
        if depth == personDepth {
            finishPerson()
        } else if depth == imageDepth {
            imageDepth = 0
        } else if depth == itemDepth {
            finishItem()
        }
    }

    func characters(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
        guard captureDepth > 0 else { return }
        switch captureMode {
        case .plain:
            text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        case .html where depth == captureDepth:
            text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        case .html, .xhtml:
            MarkupWriter.appendEscaped(bytes, count, into: &text)
        }
    }

    /// The end of the input: closes what the document left open.
    func finish(openElements: Int, line: Int?, column: Int?) {
        guard openElements > 0 else { return }
        let cutItem = itemDepth > 0
        if captureDepth > 0 { finishCapture() }
        if var draft = item {
            item = nil
            itemDepth = 0
            if draft.hasTitleOrLink {
                draft.line = draft.line ?? line
                append(draft)
                problems.append(
                    Problem(
                        .warning, "the last item was cut off by the end of the document; kept what was read", line: draft.line,
                        column: draft.column))
            } else {
                problems.append(
                    Problem(
                        .error, "the last item was cut off by the end of the document and had no title or link; dropped", line: draft.line,
                        column: draft.column))
            }
        }
        if personDepth > 0 { finishPerson() }
        problems.append(
            Problem(
                cutItem ? .error : .warning,
                "document ends early at \(line.map(String.init) ?? "?"):\(column.map(String.init) ?? "?") (\(openElements) element\(openElements == 1 ? "" : "s") not closed)",
                line: line, column: column))
    }

    /// The finished feed.
    func result() -> ParsedFeed {
        // Items without an id of their own that share a link would be one item: they are told apart by their titles.
        if linkIdentified.count > 1 {
            var counts: [String: Int] = [:]
            for index in linkIdentified { counts[items[index].id, default: 0] += 1 }
            for index in linkIdentified where counts[items[index].id, default: 0] > 1 {
                items[index].id = ItemDraft.sharedLinkID(items[index])
            }
            linkIdentified = []
        }
        if unreportedProblems > 0 {
            problems.append(Problem(.warning, "\(unreportedProblems) more problems not listed"))
            unreportedProblems = 0
        }
        return ParsedFeed(
            format: format ?? .rss, version: version, info: feed.info(documentURL: settings.documentURL), items: items, problems: problems,
            itemsLeftOut: itemsLeftOut)
    }

    // MARK: The root

    private func root(_ element: XMLElement) -> Bool {
        feed.xmlLanguage = element.attributes.xmlAttribute(.lang).flatMap { $0.isEmpty ? nil : $0 }
        switch element.name {
        case .rss?, .channel?:
            format = .rss
            version = element.attributes.value(.version).flatMap { $0.isEmpty ? nil : $0 }
            noNamespace = .none
            channelDepth = 1
        case .RDF?:
            format = .rss
            version = "1.0"
            channelDepth = 0
        case .feed?:
            format = .atom
            switch element.namespace {
            case .atom03:
                version = "0.3"
            case .atom10:
                version = "1.0"
            default:
                let isAtom03 = element.attributes.value(.version) == "0.3"
                noNamespace = isAtom03 ? .atom03 : .atom10
                version = isAtom03 ? "0.3" : "1.0"
            }
            channelDepth = 1
        default:
            let name = String(cString: element.local)
            fatal = FeedParseError(
                "not a feed: the root element is <\(name)>, not <rss>, <rdf:RDF> or <feed>", line: position().line,
                column: position().column)
            return false
        }
        return true
    }

    // MARK: Items

    func beginItem(_ element: XMLElement) {
        guard items.count < settings.maxItems else {
            itemsLeftOut += 1
            skipDepth = depth
            return
        }
        var draft = ItemDraft()
        let (line, column) = position()
        draft.line = line
        draft.column = column
        draft.base = currentBase
        draft.rdfAbout = element.attributes.value(.about).map { FeedText.resolve($0, against: currentBase) }
        item = draft
        itemDepth = depth
    }

    private var itemContext: ItemDraft.Context {
        ItemDraft.Context(
            source: settings.source, homePage: feed.homePageURL, feedAuthors: feed.authors, inheritsFeedAuthors: format == .atom,
            sanitize: settings.sanitize, resolvers: resolvers)
    }

    private func finishItem() {
        if let draft = item { append(draft) }
        item = nil
        itemDepth = 0
    }

    /// Adds the item a draft makes, with a warning at the item when the limits left out some of its
    /// attachments or authors.
    private func append(_ draft: ItemDraft) {
        let item = draft.item(itemContext)
        if !draft.hasOwnID, item.url != nil { linkIdentified.append(items.count) }
        items.append(item)
        if draft.attachmentsLeftOut {
            let limit = FeedParser.maxAttachmentsPerItem
            report(
                Problem(
                    .warning, "the item has more than \(limit) attachments (enclosures, media:content); only the first \(limit) are kept",
                    line: draft.line, column: draft.column))
        }
        if draft.authorsLeftOut {
            let limit = FeedParser.maxAuthors
            report(
                Problem(
                    .warning, "the item has more than \(limit) authors; only the first \(limit) are kept", line: draft.line,
                    column: draft.column))
        }
    }

    /// Adds a feed-level author, with a warning where the limit first leaves one out.
    private func addFeedAuthor(_ author: Author, fallback: Bool) {
        let leftOutBefore = feed.authorsLeftOut
        feed.addAuthor(author, fallback: fallback)
        guard feed.authorsLeftOut, !leftOutBefore else { return }
        let (line, column) = position()
        let limit = FeedParser.maxAuthors
        report(Problem(.warning, "the feed has more than \(limit) authors; only the first \(limit) are kept", line: line, column: column))
    }

    // MARK: Persons

    func beginPerson() {
        personDepth = depth
        person = Author()
        personEmail = nil
        personForItem = itemDepth > 0
    }

    private func personField(_ element: XMLElement, _ namespace: XMLNamespace) {
        guard depth == personDepth + 1, namespace.isAtom || namespace == .none else { return }
        switch element.name {
        case .name?: begin(.personName, element)
        case .email?: begin(.personEmail, element)
        case .uri?, .url?: begin(.personURI, element)
        default: break
        }
    }

    private func finishPerson() {
        personDepth = 0
        if let email = personEmail, !email.isEmpty {
            if person.url == nil { person.url = "mailto:" + email } else { person.email = email }
        }
        if person.name == nil, let email = personEmail, !email.isEmpty { person.name = email }
        guard !person.isEmpty else { return }
        if personForItem {
            item?.addAuthor(person)
        } else {
            addFeedAuthor(person, fallback: false)
        }
    }

    // MARK: Collecting text

    /// Starts collecting the text of the element just opened.
    func begin(_ field: Capture.Field, _ element: XMLElement, mode: Capture.Mode = .plain, recordPosition: Bool = false) {
        var open = Capture(field: field, mode: mode, forItem: itemDepth > 0, base: currentBase)
        if recordPosition {
            let (line, column) = position()
            open.line = line
            open.column = column
            open.local = element.local
            open.prefix = element.prefix
        }
        capture = open
        captureDepth = depth
        captureMode = mode
        wrapperDepth = 0
        captureSawElement = false
        text.removeAll(keepingCapacity: true)
    }

    private func startInsideCapture(_ element: XMLElement) {
        guard captureMode != .plain else { return }
        if captureMode == .xhtml, depth == captureDepth + 1, !captureSawElement, element.namespace == .xhtml, element.name == .div {
            wrapperDepth = depth
            captureSawElement = true
            return
        }
        captureSawElement = true
        MarkupWriter.open(element, into: &text)
    }

    private func finishCapture() {
        guard let open = capture else { return }
        capture = nil
        captureDepth = 0
        var start = 0
        var end = text.count
        while start < end, FeedBuilder.isSpace(text[start]) { start += 1 }
        while end > start, FeedBuilder.isSpace(text[end - 1]) { end -= 1 }
        if open.forItem, start < end, FeedBuilder.isItemHTML(open.field) {
            // libxml2 reports the text of a valid UTF-8 document (which `DocumentDecoder` always
            // hands it) as valid UTF-8, and the markup written back is ASCII around libxml2's
            // names and values: the bytes need no second check (the tests' debug builds assert it).
            assert(UTF8Validation.scan(text[start..<end]).isValid, "libxml2 reported text that is not UTF-8")
            assignItemHTML(open, Array(text[start..<end]))
            return
        }
        let value = String(validUTF8: text[start..<end])
        assign(open, value)
    }

    /// The fields whose text is an item's HTML, kept as bytes (see `ItemDraft.HTML`).
    private static func isItemHTML(_ field: Capture.Field) -> Bool {
        switch field {
        case .description, .encoded, .summary(.html), .summary(.xhtml), .content(.html), .content(.xhtml): true
        default: false
        }
    }

    /// `assign` for the fields of `isItemHTML`, with a non-empty value: what it does with the
    /// text as a `String`, done with the bytes.
    private func assignItemHTML(_ open: Capture, _ value: [UInt8]) {
        let html = ItemDraft.HTML(html: value, base: open.base)
        switch open.field {
        case .description, .summary:
            if case .description = open.field, item?.descriptionHTML != nil { return }
            item?.descriptionHTML = html
        default:
            item?.contents.append(html)
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    // MARK: Assigning collected text

    private func assign(_ open: Capture, _ value: String) {
        switch open.field {
        case .title(let kind, let fallback):
            let title = FeedBuilder.plainText(value, kind)
            guard !title.isEmpty else { return }
            if open.forItem {
                if !fallback {
                    item?.title = title
                } else if item?.fallbackTitle == nil {
                    item?.fallbackTitle = title
                }
            } else if fallback {
                feed.fallbackTitle = feed.fallbackTitle ?? title
            } else {
                feed.title = title
            }
        case .link, .atomTextLink:
            guard !value.isEmpty else { return }
            let url = FeedText.resolve(value, against: open.base)
            if open.forItem {
                if case .atomTextLink = open.field {
                    item?.alternates.append((url, nil))
                } else if item?.link == nil {
                    item?.link = url
                }
            } else if feed.homePage == nil {
                feed.homePage = url
            }
        case .guid(let permaLink):
            guard open.forItem, !value.isEmpty else { return }
            item?.guid = value
            item?.guidIsPermaLink = permaLink
        case .atomID:
            if open.forItem {
                if !value.isEmpty { item?.atomID = value }
            } else if !value.isEmpty, feed.id == nil {
                feed.id = value
            }
        case .description:
            if open.forItem {
                if item?.descriptionHTML == nil, !value.isEmpty { item?.descriptionHTML = ItemDraft.HTML(html: value, base: open.base) }
            } else if feed.description == nil {
                let text = HTMLSanitizer.plainText(fromHTML: value)
                if !text.isEmpty { feed.description = text }
            }
        case .encoded:
            if open.forItem, !value.isEmpty { item?.contents.append(ItemDraft.HTML(html: value, base: open.base)) }
        case .summary(let kind):
            guard open.forItem, !value.isEmpty else { return }
            switch kind {
            case .text, .guessed:
                item?.summaryText = FeedText.collapsed(value)
            case .base64(let html):
                let decoded = FeedBuilder.base64(value)
                if html { item?.descriptionHTML = ItemDraft.HTML(html: decoded, base: open.base) } else { item?.summaryText = decoded }
            case .html, .xhtml:
                item?.descriptionHTML = ItemDraft.HTML(html: value, base: open.base)
            }
        case .content(let kind):
            guard open.forItem, !value.isEmpty else { return }
            let html: String
            switch kind {
            case .text, .guessed: html = HTMLText.paragraphs(fromPlainText: value)
            case .html, .xhtml: html = value
            case .base64(let isHTML):
                let decoded = FeedBuilder.base64(value)
                html = isHTML ? decoded : HTMLText.paragraphs(fromPlainText: decoded)
            }
            if !html.isEmpty { item?.contents.append(ItemDraft.HTML(html: html, base: open.base)) }
        case .subtitle(let kind):
            let text = FeedBuilder.plainText(value, kind)
            if !open.forItem, !text.isEmpty { feed.description = text }
        case .plainSummary(let html, let preferred):
            let text = FeedText.collapsed(html ? HTMLSanitizer.plainText(fromHTML: value) : value)
            guard !text.isEmpty else { return }
            if open.forItem {
                if preferred || item?.fallbackSummary == nil { item?.fallbackSummary = text }
            } else if preferred || feed.fallbackDescription == nil {
                feed.fallbackDescription = text
            }
        case .date(let slot):
            assignDate(value, slot, open)
        case .author(let fallback):
            guard let author = PersonText.author(from: value) else { return }
            if open.forItem {
                if fallback {
                    item?.addFallbackAuthor(author)
                } else {
                    item?.addAuthor(author)
                }
            } else {
                addFeedAuthor(author, fallback: fallback)
            }
        case .category:
            if open.forItem { item?.addTag(value) }
        case .comments:
            if open.forItem, !value.isEmpty { item?.commentsURL = FeedText.resolve(value, against: open.base) }
        case .duration:
            if open.forItem, let seconds = MediaDuration.seconds(from: value) { item?.duration = seconds }
        case .personName:
            let name = FeedText.collapsed(value)
            if !name.isEmpty { person.name = name }
        case .personEmail:
            if !value.isEmpty { personEmail = value }
        case .personURI:
            if !value.isEmpty { person.url = FeedText.resolve(value, against: open.base) }
        case .imageURL:
            if !value.isEmpty, feed.rssImage == nil { feed.rssImage = FeedText.resolve(value, against: open.base) }
        case .logo:
            if !value.isEmpty { feed.logo = FeedText.resolve(value, against: open.base) }
        case .icon:
            if !value.isEmpty { feed.icon = FeedText.resolve(value, against: open.base) }
        case .language:
            if !value.isEmpty, feed.language == nil { feed.language = value }
        }
    }

    private func assignDate(_ value: String, _ slot: Capture.DateSlot, _ open: Capture) {
        guard !value.isEmpty else { return }
        guard let date = settings.dateParser.parse(value) else {
            let shown = value.count > 80 ? String(value.prefix(80)) + "…" : value
            let name = open.local.map { local in (open.prefix.map { String(cString: $0) + ":" } ?? "") + String(cString: local) } ?? "date"
            let message =
                settings.dateParser.isPlaceholder(value)
                ? "date '\(shown)' in <\(name)> is before the year 1000, a placeholder for none; read as no date"
                : "unparseable date '\(shown)' in <\(name)>"
            report(Problem(.warning, message, line: open.line, column: open.column))
            return
        }
        if open.forItem {
            switch slot {
            case .published: item?.published = date
            case .updated: item?.updated = date
            case .publishedIfAbsent: if item?.published == nil { item?.published = date }
            }
        } else {
            switch slot {
            case .updated: feed.updated = date
            case .published, .publishedIfAbsent: if feed.updated == nil { feed.updated = date }
            }
        }
    }

    /// A text construct's value as plain text.
    static func plainText(_ value: String, _ kind: Capture.TextKind) -> String {
        switch kind {
        case .text: FeedText.collapsed(value)
        case .guessed: FeedText.collapsed(FeedText.looksLikeHTML(value) ? HTMLSanitizer.plainText(fromHTML: value) : value)
        case .html, .xhtml: FeedText.collapsed(HTMLSanitizer.plainText(fromHTML: value))
        case .base64(let html):
            html ? FeedText.collapsed(HTMLSanitizer.plainText(fromHTML: base64(value))) : FeedText.collapsed(base64(value))
        }
    }

    static func base64(_ value: String) -> String {
        guard let data = Data(base64Encoded: value, options: .ignoreUnknownCharacters) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
