public import Foundation
public import TributaryCore
import TributaryJSON
import TributaryModel
import TributarySyndication

/// `adapter: json` — any JSON API, described in the configuration: the request, where the items
/// are (`items: response.feeds[*]`), how each `Item` field is read (`fields:`), and how to reach
/// the next page (`pagination:`). No Swift needed.
public struct JSONAdapter: SourceAdapter {
    public static let kind = "json"
    public static let aliases = ["jsonapi"]
    public static let summary = "Any JSON API, mapped to items by paths in the configuration (no Swift needed)"
    /// The most pages one fetch may follow.
    public static let maxPages = 50

    public static let options = [
        AdapterOption(
            "url", .string, required: true,
            help: "the URL (or path) of a page; {cursor}, {page}, {offset} and variables are filled in (percent-encoded)"),
        AdapterOption("method", .choice(["GET", "POST"]), default: .string("GET"), help: "the request method"),
        AdapterOption("headers", .tree, help: "request headers, name: value (values may use {variables})"),
        AdapterOption("query", .tree, help: "query parameters added to the URL, name: value (values may use {variables})"),
        AdapterOption("body", .string, help: "the POST body (JSON or form text; may use {variables})"),
        AdapterOption("variables", .tree, help: "your own {variables} for url, headers, query and body"),
        AdapterOption("items", .string, required: true, help: "the path to the items, e.g. response.feeds[*] or data[*].content.@json"),
        AdapterOption(
            "fields", .tree, required: true,
            help: "how each item field is read: a path, a template such as https://x/{id}, a list of fallbacks, or {path, convert, format}"),
        AdapterOption(
            "pagination", .tree,
            help: "cursor: path of the next cursor, or page: true; has_more: path of the 'more' flag; start: first value"),
        AdapterOption("pages", .integer(1...maxPages), default: .integer(1), help: "how many pages to read at most"),
        AdapterOption("base_url", .string, help: "the site's address relative links resolve against (default: the page's own URL)"),
    ]

    let request: RequestTemplate
    let items: JSONPath
    let itemsLocation: String
    let mapping: ItemMapping<JSONPath>
    let paging: PageRule<JSONPath>
    let hasMore: JSONPath?
    let start: PageState
    let pages: Int

    /// The address relative links resolve against, when not the page's own.
    let baseURL: URL?

    public init(options: AdapterOptions) throws(ConfigError) {
        // Each part is read even when one before it failed, so that `check` lists every problem at once.
        var errors = ConfigErrorCollector()
        baseURL = errors.attempt { () throws(ConfigError) in try options.baseURL() } ?? nil
        let reader = MappingReader<JSONPath>(options: options, expressionKey: "path") { text throws(MappingError) in try JSONPath(text) }
        let request = errors.attempt { () throws(ConfigError) in try RequestTemplate(options: options) }
        let items = errors.attempt { () throws(ConfigError) in try options.items { text throws(MappingError) in try JSONPath(text) } }
        itemsLocation = options.location("items")
        let mapping = errors.attempt { () throws(ConfigError) in try reader.fields() }
        pages = options.integer("pages") ?? 1
        let pagination = errors.attempt { () throws(ConfigError) in try Self.pagination(options, reader: reader, request: request) }
        try errors.check()
        guard let request, let items, let mapping, let pagination else { throw options.error("fields", "unreadable options") }
        self.request = request
        self.items = items
        self.mapping = mapping
        (paging, hasMore, start) = pagination
    }

    /// The `pagination:` option, and `pages` checked against it; `request` (nil when it could not be read) says whether
    /// the holes pagination fills appear in it.
    private static func pagination(
        _ options: AdapterOptions, reader: MappingReader<JSONPath>, request: RequestTemplate?
    ) throws(ConfigError) -> (PageRule<JSONPath>, JSONPath?, PageState) {
        let pages = options.integer("pages") ?? 1
        var paging = PageRule<JSONPath>.single
        var hasMore: JSONPath?
        var start = PageState(cursor: "", page: 1, offset: 0)
        if let node = options.tree("pagination") {
            let pairs = try reader.pairs(node, "'pagination'", allowed: ["cursor", "page", "has_more", "start"])
            var startPair: OptionPair?
            for pair in pairs {
                switch pair.key {
                case "cursor": paging = .cursor(try reader.expression(pair.value, "'pagination.cursor'"))
                case "has_more": hasMore = try reader.expression(pair.value, "'pagination.has_more'")
                case "start": startPair = pair
                default:
                    let word = try reader.text(pair.value, "'pagination.page'")
                    guard ["true", "yes", "on"].contains(word.lowercased()) else {
                        throw reader.error(pair.value, "'pagination.page' must be true (pages numbered from 'start', 1 by default)")
                    }
                    if case .cursor = paging { throw reader.error(pair, "'pagination' takes either 'cursor' or 'page', not both") }
                    paging = .numbered
                }
            }
            if case .numbered = paging, pairs.contains(where: { $0.key == "cursor" }) {
                throw reader.error(node, "'pagination' takes either 'cursor' or 'page', not both")
            }
            if let startPair {
                let text = try reader.text(startPair.value, "'pagination.start'")
                switch paging {
                case .numbered:
                    guard let number = Int(text) else { throw reader.error(startPair.value, "'pagination.start' must be a page number") }
                    start.page = number
                default:
                    start.cursor = text
                }
            }
            switch paging {
            case .single:
                throw reader.error(node, "'pagination' needs 'cursor: <path of the next cursor>' or 'page: true'")
            case .cursor:
                if let request, !request.uses("cursor") {
                    throw reader.error(node, "'pagination.cursor' is read but {cursor} appears nowhere in url, query, headers or body")
                }
            case .numbered:
                if let request, !request.uses("page"), !request.uses("offset") {
                    throw reader.error(node, "'pagination.page' counts pages but {page} or {offset} appears nowhere in url, query or body")
                }
            }
        }
        if pages > 1, case .single = paging {
            throw options.error("pages", "'pages: \(pages)' needs 'pagination' to say how the next page is found")
        }
        if let request, let option = request.option(using: "cursor"), !paging.readsCursors {
            // The request went out with an empty cursor (`page-.json`) and failed at every run.
            throw options.error(
                option, "{cursor} is filled only by 'pagination: {cursor: <path of the next cursor>}', which this source lacks")
        }
        return (paging, hasMore, start)
    }

    public func fetch(in context: FetchContext) async throws -> SourceResult {
        var filled = Set<String>()
        var notText: [String: String] = [:]
        var count = 0
        let result = try await Pagination.collect(
            first: start, pages: pages, maxItems: context.maxItems,
            identity: { state in
                // A state whose request cannot be made fails when fetched; until then it is told by itself.
                (try? request.request(values: state.values, context: context)).map { AnyHashable(PageRequestKey($0)) } ?? AnyHashable(state)
            },
            fetch: { state in
                let page = try await page(state, context: context)
                filled.formUnion(page.filled)
                notText.merge(page.notText) { first, _ in first }
                count += page.count
                return page.page
            })
        context.logger.debug("read \(result.pagesRead) page(s), stopped: \(result.stop)", source: context.sourceName)
        return SourceResult(
            items: result.items, problems: result.problems + mapping.unmatched(filled: filled, count: count, notText: notText))
    }

    /// Fetches and maps one page.
    func page(_ state: PageState, context: FetchContext) async throws -> MappedPage<PageState> {
        let fetchRequest = try request.request(values: state.values, context: context)
        let response = try await context.send(fetchRequest)
        let place = response.url.isFileURL ? response.url.path : response.url.absoluteString
        guard (200..<300).contains(response.status) else {
            throw FetchError(url: place, reason: .httpStatus(response.status))
        }
        // A body in the charset the server names is read as UTF-8 first, as the html adapter and feeds are.
        var body = response.body
        var decoding: [Problem] = []
        if let charset = response.charset {
            do {
                (body, decoding) = try DeclaredCharset.utf8(response.body, charset: charset)
            } catch {
                throw AdapterError("\(place): \(error.message)")
            }
        }
        let root: JSONValue
        do {
            root = try JSON.parse(body)
        } catch {
            throw AdapterError("\(place): not valid JSON at \(error.line):\(error.column): \(error.message)")
        }
        var mapped = try read(root, state: state, place: place, pageURL: response.url, context: context)
        mapped.page.problems = decoding.map { Problem($0.severity, "\(place): \($0.message)") } + mapped.page.problems
        return mapped
    }

    /// Maps a parsed page: its items and the state of the next page.
    func read(
        _ root: JSONValue, state: PageState, place: String, pageURL: URL, context: FetchContext
    ) throws(AdapterError) -> MappedPage<PageState> {
        var (entries, undecodable) = items.valuesAndUndecodable(in: root)
        if entries.isEmpty, !items.reachesEmptyCollection(in: root) {
            throw AdapterError(
                "\(itemsLocation): items: '\(items)' found nothing in \(place): \(items.explainMissing(in: root, origin: "the response"))")
        }
        if entries.count == 1, let elements = entries[0].array { entries = elements }
        if entries.count == 1, entries[0].isNull { entries = [] }

        let environment = ItemMapping<JSONPath>.Environment(
            source: context.sourceName, pageURL: baseURL ?? pageURL, timeZone: context.timeZone, now: context.now)
        var found: [Item] = []
        // Entries an `@json` step could not read are not items, but they are not silently gone either.
        var problems = undecodable.map { failure in
            Problem(.warning, "\(itemsLocation): items: \(place): \(failure); the entry was skipped")
        }
        var filled = Set<String>()
        // What paths reached instead of text: a field that takes one value says so rather than "matched nothing".
        var notText: [String: String] = [:]
        for (index, entry) in entries.enumerated() {
            func reached(_ path: JSONPath) -> [JSONValue] { path.fromRoot ? path.values(in: root) : path.values(in: entry) }
            func note(_ path: JSONPath, _ value: JSONValue) {
                let key = ItemMapping<JSONPath>.matchedKey(path)
                if notText[key] == nil, let shape = path.notText(value) { notText[key] = shape }
            }
            let outcome = mapping.item(
                environment, place: "\(place) item \(index + 1) (\(items)[\(index)])",
                evaluate: { path in
                    reached(path).compactMap { value in
                        if value.nonEmptyText == nil { note(path, value) }
                        return value.nonEmptyText
                    }
                },
                // A field that takes every value takes a list's elements too.
                every: { path in
                    reached(path).flatMap { value -> [String] in
                        if let elements = value.array {
                            let texts = elements.compactMap(\.nonEmptyText)
                            if texts.isEmpty, !elements.isEmpty { note(path, value) }
                            return texts
                        }
                        if value.nonEmptyText == nil { note(path, value) }
                        return value.nonEmptyText.map { [$0] } ?? []
                    }
                },
                explain: { path in path.explainMissing(in: path.fromRoot ? root : entry) })
            problems += outcome.problems
            filled.formUnion(outcome.filled)
            if let item = outcome.item { found.append(item) }
        }

        var next: PageState?
        var more = true
        if let hasMore {
            if let flag = hasMore.values(in: root).first {
                more = flag.bool ?? !flag.isNull
            } else {
                more = false
                if case .single = paging {
                } else {
                    problems.append(
                        Problem(
                            .warning,
                            "\(place): has_more: '\(hasMore)' found nothing (\(hasMore.explainMissing(in: root, origin: "the response"))); stopping here"
                        ))
                }
            }
        }
        if more {
            switch paging {
            case .single:
                next = nil
            case .cursor(let path):
                if let cursor = path.values(in: root).first?.nonEmptyText {
                    next = PageState(cursor: cursor, page: state.page + 1, offset: state.offset + entries.count)
                } else if hasMore != nil {
                    problems.append(
                        Problem(
                            .warning,
                            "\(place): has_more is true but '\(path)' gives no cursor (\(path.explainMissing(in: root, origin: "the response"))); stopping here"
                        ))
                }
            case .numbered:
                next = PageState(cursor: state.cursor, page: state.page + 1, offset: state.offset + entries.count)
            }
        }
        return MappedPage(
            page: Pagination.Page(items: found, next: next, problems: problems), filled: filled, count: entries.count, notText: notText)
    }
}

extension JSONAdapter {
    /// Only a first page asked "has it changed?" could answer for the source: with more pages, one further on may
    /// have changed while the first did not, so every page is read at every run.
    public var firstAnswerCoversTheSource: Bool { pages == 1 }

    /// The first page's file, when it is one: `url` may hold `{variables}`.
    public func localFiles(relativeTo directory: URL) -> [(option: String, file: URL)] {
        request.firstFile(start, relativeTo: directory).map { [("url", $0)] } ?? []
    }
}
