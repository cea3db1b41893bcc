public import Foundation
public import TributaryCore
import TributaryModel
import TributarySyndication

/// `adapter: html` — a scraper for sites whose listing pages are plain HTML: the page is parsed
/// with libxml2's HTML parser, `items` (XPath) selects one node per item, and `fields` read each
/// item's title, link (resolved against the page), date, summary, image… relative to that node.
public struct HTMLAdapter: SourceAdapter {
    public static let kind = "html"
    public static let aliases = ["xpath", "scrape"]
    public static let summary = "Any HTML page, scraped with XPath expressions in the configuration (no Swift needed)"
    /// An element's text, an attribute's value: what XPath gives is plain text already (the page's entities decoded
    /// by the HTML parser); `content` takes the markup on its own way.
    public static let itemText = ItemTextForm.plain

    public static let options = [
        AdapterOption("url", .string, required: true, help: "the page: an http(s) URL, a file: URL or a path (may use {variables})"),
        AdapterOption("method", .choice(["GET", "POST"]), default: .string("GET"), help: "the request method"),
        AdapterOption("headers", .tree, help: "request headers, name: value"),
        AdapterOption("query", .tree, help: "query parameters added to the URL, name: value"),
        AdapterOption("body", .string, help: "the POST body"),
        AdapterOption("variables", .tree, help: "your own {variables} for url, headers, query and body"),
        AdapterOption("items", .string, required: true, help: "XPath selecting one node per item, e.g. //article or //ul[@id='news']/li"),
        AdapterOption(
            "fields", .tree, required: true,
            help: "XPath per item field, relative to the item node (e.g. title: .//h2, url: .//a/@href), or {xpath, convert, format}"),
        AdapterOption(
            "base_url", .string,
            help: "the site's address relative links resolve against (default: the page's <base href>, else its own URL)"),
        AdapterOption(
            "pagination", .tree,
            help:
                "next: XPath of the next page's link (e.g. //a[@rel='next']/@href), or page: true for {page} in the URL; start: first page"),
        AdapterOption("pages", .integer(1...JSONAdapter.maxPages), default: .integer(1), help: "how many pages to read at most"),
    ]

    let request: RequestTemplate
    let items: XPathExpression
    let itemsLocation: String
    let mapping: ItemMapping<XPathExpression>
    /// How the next page is found: `.cursor` holds the XPath of the next page's link.
    let paging: PageRule<XPathExpression>
    /// The first page's state.
    let start: PageState
    /// How many pages to read at most.
    let pages: Int

    /// The address relative links resolve against, when not the page's own.
    let baseURL: URL?

    public init(options: AdapterOptions) throws(ConfigError) {
        // Each part is read even when one before it failed, so that `check` lists every problem at once.
        var errors = ConfigErrorCollector()
        baseURL = errors.attempt { () throws(ConfigError) in try options.baseURL() } ?? nil
        let request = errors.attempt { () throws(ConfigError) in try RequestTemplate(options: options) }
        let items = errors.attempt { () throws(ConfigError) in
            try options.items { text throws(MappingError) in try XPathExpression(text) }
        }
        itemsLocation = options.location("items")
        let reader = MappingReader<XPathExpression>(options: options, expressionKey: "xpath") { text throws(MappingError) in
            try XPathExpression(text)
        }
        let mapping = errors.attempt { () throws(ConfigError) in try reader.fields() }
        pages = options.integer("pages") ?? 1
        let pagination = errors.attempt { () throws(ConfigError) in try Self.pagination(options, reader: reader, request: request) }
        try errors.check()
        guard let request, let items, let mapping, let pagination else { throw options.error("fields", "unreadable options") }
        self.request = request
        self.items = items
        self.mapping = mapping
        (paging, start) = pagination
    }

    /// The `pagination:` option, and `pages` checked against it; `request` (nil when it could not be read) says whether
    /// the holes numbered pages fill appear in it.
    private static func pagination(
        _ options: AdapterOptions, reader: MappingReader<XPathExpression>, request: RequestTemplate?
    ) throws(ConfigError) -> (PageRule<XPathExpression>, PageState) {
        let pages = options.integer("pages") ?? 1
        var paging = PageRule<XPathExpression>.single
        var start = PageState(cursor: "", page: 1, offset: 0)
        if let node = options.tree("pagination") {
            let pairs = try reader.pairs(node, "'pagination'", allowed: ["next", "page", "start"])
            for pair in pairs {
                switch pair.key {
                case "next":
                    paging = .cursor(try reader.expression(pair.value, "'pagination.next'"))
                case "page":
                    let word = try reader.text(pair.value, "'pagination.page'")
                    guard ["true", "yes", "on"].contains(word.lowercased()) else {
                        throw reader.error(pair.value, "'pagination.page' must be true (pages numbered from 'start', 1 by default)")
                    }
                    paging = .numbered
                default:
                    let text = try reader.text(pair.value, "'pagination.start'")
                    guard let number = Int(text) else { throw reader.error(pair.value, "'pagination.start' must be a page number") }
                    start.page = number
                }
            }
            if pairs.contains(where: { $0.key == "next" }), pairs.contains(where: { $0.key == "page" }) {
                throw reader.error(node, "'pagination' takes either 'next' or 'page', not both")
            }
            switch paging {
            case .single:
                throw reader.error(node, "'pagination' needs 'next: <XPath of the next page's link>' or 'page: true'")
            case .numbered:
                if let request, !request.uses("page"), !request.uses("offset") {
                    throw reader.error(node, "'pagination.page' counts pages but {page} or {offset} appears nowhere in url, query or body")
                }
            case .cursor:
                break
            }
        }
        if pages > 1, case .single = paging {
            throw options.error("pages", "'pages: \(pages)' needs 'pagination' to say how the next page is found")
        }
        if let request, let option = request.option(using: "cursor") {
            // Next links are followed as they are: {cursor} was empty on the first page and a whole URL after it.
            throw options.error(
                option, "{cursor} is never filled by the html adapter: it follows 'pagination.next' links as they are, or counts {page}")
        }
        return (paging, start)
    }

    public func fetch(in context: FetchContext) async throws -> SourceResult {
        var filled = Set<String>()
        var count = 0
        let result = try await Pagination.collect(
            first: start, pages: pages, maxItems: context.maxItems,
            identity: { state in
                // A state whose request cannot be made fails when fetched; until then it is told by itself.
                (try? pageRequest(state, context: context)).map { AnyHashable(PageRequestKey($0)) } ?? AnyHashable(state)
            },
            fetch: { state in
                let response = try await context.send(try pageRequest(state, context: context))
                let place = response.url.isFileURL ? response.url.path : response.url.absoluteString
                guard (200..<300).contains(response.status) else {
                    throw FetchError(url: place, reason: .httpStatus(response.status))
                }
                let page = try read(
                    response.body, charset: response.charset, pageURL: response.url, place: place, state: state, context: context)
                filled.formUnion(page.filled)
                count += page.count
                return page.page
            })
        context.logger.debug("read \(result.pagesRead) page(s), stopped: \(result.stop)", source: context.sourceName)
        return SourceResult(items: result.items, problems: result.problems + mapping.unmatched(filled: filled, count: count))
    }

    /// The request for a page.
    func pageRequest(_ state: PageState, context: FetchContext) throws(AdapterError) -> FetchRequest {
        var fetchRequest = try request.request(values: state.values, context: context)
        // Following `next` links: the cursor is the next page's absolute URL.
        if !state.cursor.isEmpty, let next = URL(string: state.cursor) { fetchRequest.url = next }
        return fetchRequest
    }

    /// Scrapes one page: its items and the state of the next page.
    func read(
        _ bytes: [UInt8], charset: String?, pageURL: URL, place: String, state: PageState, context: FetchContext
    ) throws -> MappedPage<PageState> {
        let document: HTMLDocument
        do {
            document = try HTMLDocument(bytes: bytes, charset: charset)
        } catch {
            throw AdapterError("\(place): \(error.message)")
        }
        var problems = document.problems.map { Problem($0.severity, "\(place): \($0.message)") }
        // Relative links resolve against the page's <base href> when it has one, as a browser resolves them, and when it is
        // a web page: a base without a host would leave every link it resolves without one.
        let documentURL =
            document.baseHref.flatMap { URL(string: $0.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: pageURL)?.absoluteURL }
            .flatMap { WebLink.page($0.absoluteString) }.flatMap(URL.init(string:)) ?? pageURL
        let nodes = try document.nodes(items.text)
        // A later page with no items is how pages end (`page: true` reads until one): only a first page that selects
        // nothing is worth a warning.
        if nodes.isEmpty, state == start {
            problems.append(Problem(.warning, "\(itemsLocation): items: '\(items)' selected nothing in \(place)"))
        }
        let environment = ItemMapping<XPathExpression>.Environment(
            source: context.sourceName, pageURL: baseURL ?? documentURL, timeZone: context.timeZone, now: context.now)
        var found: [Item] = []
        var filled = Set<String>()
        for (index, node) in nodes.enumerated() {
            let outcome = mapping.item(
                environment, place: "\(place) item \(index + 1)",
                evaluate: { expression in (try? document.strings(expression.text, from: node)) ?? [] },
                markup: { expression in ((try? document.nodes(expression.text, from: node)) ?? []).map(\.html) },
                explain: { _ in "selected nothing under the item node" })
            problems += outcome.problems
            filled.formUnion(outcome.filled)
            if let item = outcome.item { found.append(item) }
        }

        var next: PageState?
        switch paging {
        case .single:
            next = nil
        case .cursor(let link):
            // The next page's link, resolved against the page (and its <base href>), not base_url: it is fetched.
            // Only an http(s) page is followed, whatever the page it is found on: a page from the web must not make the
            // run read a local file (`file:///etc/passwd`) and publish it, nor hang on one (a FIFO).
            if let href = try document.strings(link.text).first(where: { !$0.isEmpty }),
                let url = URL(string: href.trimmingCharacters(in: .whitespaces), relativeTo: documentURL)?.absoluteURL
            {
                if let web = WebLink.page(url.absoluteString), let webURL = URL(string: web) {
                    next = PageState(cursor: webURL.absoluteString, page: state.page + 1, offset: state.offset + nodes.count)
                } else if url.scheme?.lowercased() != "javascript" {  // `javascript:void(0)` on a last page is common
                    problems.append(
                        Problem(.warning, "\(place): the next page's link '\(href)' is not an http(s) URL; no further page is read"))
                }
            }
        case .numbered:
            next = PageState(cursor: "", page: state.page + 1, offset: state.offset + nodes.count)
        }
        return MappedPage(page: Pagination.Page(items: found, next: next, problems: problems), filled: filled, count: nodes.count)
    }
}

extension HTMLAdapter {
    /// Only a first page asked "has it changed?" could answer for the source: with more pages, one further on may
    /// have changed while the first did not, so every page is read at every run.
    public var firstAnswerCoversTheSource: Bool { pages == 1 }

    /// The first page's file, when it is one: `url` may hold `{variables}`.
    public func localFiles(relativeTo directory: URL) -> [(option: String, file: URL)] {
        request.firstFile(start, relativeTo: directory).map { [("url", $0)] } ?? []
    }
}
