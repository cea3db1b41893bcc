import Foundation
import TributaryCore
import TributaryJSON

/// The request of one page of a declarative source: a URL template, method, headers, query and
/// body, whose `{cursor}`, `{page}`, `{offset}` and `variables:` holes are filled per page.
struct RequestTemplate: Sendable {
    /// The variables every source has.
    static let builtins = ["cursor", "page", "offset"]

    /// The URL (or path relative to the configuration) with holes.
    var url: FieldTemplate<String>
    /// `GET` or `POST`.
    var method: String
    /// Request headers, in order.
    var headers: [(name: String, value: FieldTemplate<String>)]
    /// Query parameters appended to the URL, in order.
    var query: [(name: String, value: FieldTemplate<String>)]
    /// The body, for `POST`.
    var body: FieldTemplate<String>?
    /// The source's own variables.
    var variables: [String: String]

    /// Reads the request options; unknown variables are errors at their line.
    init(options: AdapterOptions) throws(ConfigError) {
        // Every part is read even when one before it failed, so that `check` lists every problem at once.
        var errors = ConfigErrorCollector()
        var variables: [String: String] = [:]
        let plain = MappingReader<String>(options: options, expressionKey: "path") { text throws(MappingError) in text }
        if let node = options.tree("variables") {
            for pair in errors.attempt({ () throws(ConfigError) in try plain.pairs(node, "'variables'") }) ?? [] {
                guard !Self.builtins.contains(pair.key) else {
                    errors.add(plain.error(pair, "'\(pair.key)' is set by pagination; choose another variable name"))
                    continue
                }
                variables[pair.key] = errors.attempt { () throws(ConfigError) in try plain.text(pair.value, "'variables.\(pair.key)'") }
            }
        }
        self.variables = variables
        let known = Self.builtins + variables.keys.sorted()
        func template(_ text: String, _ what: String, line: Int, column: Int) throws(ConfigError) -> FieldTemplate<String> {
            do {
                return try FieldTemplate(text, namesOnly: true) { name throws(MappingError) in
                    let name = name.trimmingCharacters(in: .whitespaces)
                    guard known.contains(name) else {
                        var message = "unknown variable {\(name)}"
                        if let suggestion = Spelling.suggestion(for: name, among: known) { message += "; did you mean {\(suggestion)}?" }
                        throw MappingError(message + " (variables: \(known.joined(separator: ", ")))")
                    }
                    return name
                }
            } catch {
                throw options.error(at: line, column, "\(what): \(error.message)")
            }
        }
        /// The templates of a mapping's values (`headers`, `query`).
        func templates(_ key: String) -> [(name: String, value: FieldTemplate<String>)] {
            guard let node = options.tree(key) else { return [] }
            return (errors.attempt { () throws(ConfigError) in try plain.pairs(node, "'\(key)'") } ?? []).compactMap { pair in
                errors.attempt { () throws(ConfigError) in
                    let value = try plain.text(pair.value, "'\(key).\(pair.key)'")
                    return (pair.key, try template(value, "'\(key).\(pair.key)'", line: pair.value.line, column: pair.value.column))
                }
            }
        }
        let url = errors.attempt { () throws(ConfigError) in
            guard let urlText = options.string("url") else { throw options.error("url", "missing 'url'") }
            let (line, column) = options.position("url")
            return try template(urlText, "'url'", line: line, column: column)
        }
        method = options.string("method") ?? "GET"
        headers = templates("headers")
        query = templates("query")
        body = options.string("body").flatMap { text in
            errors.attempt { () throws(ConfigError) in
                let (line, column) = options.position("body")
                return try template(text, "'body'", line: line, column: column)
            }
        }
        if options.string("body") != nil, method == "GET" {
            errors.add(options.error("body", "a 'body' needs method: POST"))
        }
        try errors.check()
        guard let url else { throw options.error("url", "missing 'url'") }
        self.url = url
    }

    /// The file the first page is read from, when it is one: its URL with the source's variables and the first page's
    /// values filled in, resolved against `directory`.
    func firstFile(_ first: PageState, relativeTo directory: URL) -> URL? {
        let all = variables.merging(first.values) { _, page in page }
        guard let text = url.render({ all[$0] }) else { return nil }
        let resolved = URLResolver.resolve(text, against: directory)
        return resolved.isFileURL ? resolved : nil
    }

    /// The option (`url`, `headers`, `query` or `body`) that first uses the variable, for a message at its line.
    func option(using name: String) -> String? {
        if url.expressions.contains(name) { return "url" }
        if headers.contains(where: { $0.value.expressions.contains(name) }) { return "headers" }
        if query.contains(where: { $0.value.expressions.contains(name) }) { return "query" }
        if body?.expressions.contains(name) == true { return "body" }
        return nil
    }

    /// Whether any part of the request uses the variable.
    func uses(_ name: String) -> Bool {
        ([url] + headers.map(\.value) + query.map(\.value) + (body.map { [$0] } ?? [])).contains { $0.expressions.contains(name) }
    }

    /// The request for one page.
    func request(values: [String: String], context: FetchContext) throws(AdapterError) -> FetchRequest {
        let all = variables.merging(values) { _, new in new }
        let raw = url.render { all[$0] } ?? ""
        let isRemote = raw.lowercased().hasPrefix("http://") || raw.lowercased().hasPrefix("https://")
        // Values go into a URL percent-encoded; into a file path as they are.
        let urlText = url.render { name in all[name].map { isRemote ? URLQuery.encode($0) : $0 } } ?? raw
        var target = context.resolve(urlText)
        let items = query.map { (name: $0.name, value: $0.value.render { all[$0] } ?? "") }
        if !items.isEmpty {
            guard let withQuery = URLQuery.url(target.absoluteString, adding: items) else {
                throw AdapterError("cannot add the query to '\(target.absoluteString)'")
            }
            target = withQuery
        }
        var request = FetchRequest(url: target, method: method)
        request.headers = headers.map { HTTPHeader($0.name, $0.value.render { all[$0] } ?? "") }
        if let body {
            // The body's type: the one the source's headers give, else JSON when the template's own text looks like
            // JSON, else a form. Values are encoded for it, as they are for the URL.
            let given = request.headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased()
            let shape = (body.render { _ in "" } ?? "").trimmingCharacters(in: .whitespaces)
            let isJSON = given.map { $0.contains("json") } ?? (shape.hasPrefix("{") || shape.hasPrefix("["))
            let isForm = given.map { $0.contains("x-www-form-urlencoded") } ?? !isJSON
            if let text = body.render({ name in all[name].map { isJSON ? Self.jsonEscaped($0) : isForm ? URLQuery.encode($0) : $0 } }) {
                request.body = Array(text.utf8)
                if given == nil {
                    request.headers.append(HTTPHeader("Content-Type", isJSON ? "application/json" : "application/x-www-form-urlencoded"))
                }
            }
        }
        return request
    }

    /// A value as the inside of a JSON string: quotes, backslashes and control characters escaped (the template writes
    /// the quotes around the hole; a number fills an unquoted hole unchanged).
    static func jsonEscaped(_ text: String) -> String {
        // The writer's own escaping of a string, without the quotes it puts around it.
        String(JSONWriter.string(from: .string(text), style: .compact).dropFirst().dropLast())
    }
}
