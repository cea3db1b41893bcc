import Foundation
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
        AdapterOption("base_url", .string, help: "the site's address relative links resolve against (default: the page's own URL)"),
    ]

    let request: RequestTemplate
    let items: XPathExpression
    let itemsLocation: String
    let mapping: ItemMapping<XPathExpression>

    /// The address relative links resolve against, when not the page's own.
    let baseURL: URL?

    public init(options: AdapterOptions) throws(ConfigError) {
        if let text = options.string("base_url") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil
            else {
                throw options.error("base_url", "'base_url' must be an http(s) URL such as https://example.com/, found '\(text)'")
            }
            baseURL = url
        } else {
            baseURL = nil
        }
        request = try RequestTemplate(options: options)
        guard let itemsText = options.string("items") else { throw options.error("items", "missing 'items'") }
        do {
            items = try XPathExpression(itemsText)
        } catch {
            throw options.error("items", "'items': \(error.message)")
        }
        let position = options.error("items", "")
        itemsLocation = "\(options.file):\(position.line ?? 1):\(position.column ?? 1)"
        guard let fields = options.tree("fields") else { throw options.error("fields", "missing 'fields'") }
        let reader = MappingReader<XPathExpression>(options: options, expressionKey: "xpath") { text throws(MappingError) in
            try XPathExpression(text)
        }
        mapping = try reader.mapping(fields)
    }

    public func fetch(in context: FetchContext) async throws -> SourceResult {
        let fetchRequest = try request.request(values: PageState(cursor: "", page: 1, offset: 0).values, context: context)
        let response = try await context.send(fetchRequest)
        let place = response.url.isFileURL ? response.url.path : response.url.absoluteString
        guard (200..<300).contains(response.status) else {
            throw FetchError(url: place, reason: .httpStatus(response.status))
        }
        return try read([UInt8](response.body), charset: response.charset, pageURL: response.url, place: place, context: context)
    }

    /// Scrapes one page.
    func read(_ bytes: [UInt8], charset: String?, pageURL: URL, place: String, context: FetchContext) throws -> SourceResult {
        let document: HTMLDocument
        do {
            document = try HTMLDocument(bytes: bytes, charset: charset)
        } catch {
            throw AdapterError("\(place): \(error.message)")
        }
        var problems = document.problems.map { Problem($0.severity, "\(place): \($0.message)") }
        let nodes = try document.nodes(items.text)
        if nodes.isEmpty {
            problems.append(Problem(.warning, "\(itemsLocation): items: '\(items)' selected nothing in \(place)"))
            return SourceResult(items: [], problems: problems)
        }
        let environment = ItemMapping<XPathExpression>.Environment(
            source: context.sourceName, pageURL: baseURL ?? pageURL, timeZone: context.timeZone, now: context.now)
        var found: [Item] = []
        var filled = Set<String>()
        var seen = Set<String>()
        for (index, node) in nodes.enumerated() {
            let outcome = mapping.item(
                environment, place: "\(place) item \(index + 1)",
                evaluate: { expression in (try? document.strings(expression.text, from: node)) ?? [] },
                markup: { expression in ((try? document.nodes(expression.text, from: node)) ?? []).map(\.html) },
                explain: { _ in "selected nothing under the item node" })
            problems += outcome.problems
            filled.formUnion(outcome.filled)
            if let item = outcome.item, seen.insert(item.id).inserted { found.append(item) }
            if let maxItems = context.maxItems, found.count >= maxItems { break }
        }
        problems += mapping.unmatched(filled: filled, count: nodes.count)
        return SourceResult(items: found, problems: problems)
    }
}
