import Foundation
import TributaryCore

/// Reads the structured options of a declarative source (`fields:`, `headers:`, `pagination:`),
/// reporting problems at their line and column (in `fields:`, every field's).
struct MappingReader<Expression: Sendable & Hashable & CustomStringConvertible> {
    /// The source's options, for locating errors.
    let options: AdapterOptions
    /// The key that holds an expression in a field's long form: `path` or `xpath`.
    let expressionKey: String
    /// Compiles an expression of the adapter's language.
    let compile: (String) throws(MappingError) -> Expression

    /// An error at a node.
    func error(_ node: OptionNode, _ message: String) -> ConfigError {
        options.error(at: node.line, node.column, message)
    }

    /// An error at a key.
    func error(_ pair: OptionPair, _ message: String) -> ConfigError {
        options.error(at: pair.line, pair.column, message)
    }

    /// A scalar's text; anything else is an error naming `what`.
    func text(_ node: OptionNode, _ what: String) throws(ConfigError) -> String {
        guard let text = node.scalar else { throw error(node, "\(what) must be a single value, found \(node.shape)") }
        return text
    }

    /// A mapping's pairs, each key checked against `allowed`.
    func pairs(_ node: OptionNode, _ what: String, allowed: [String]? = nil) throws(ConfigError) -> [OptionPair] {
        if node.isNull { return [] }
        guard let pairs = node.pairs else { throw error(node, "\(what) must be a mapping, found \(node.shape)") }
        if let allowed, let unknown = pairs.first(where: { !allowed.contains($0.key) }) {
            throw unknownKey(unknown, in: what, allowed: allowed)
        }
        return pairs
    }

    /// The error of a key that is not among `allowed`, with a suggestion when one is close.
    func unknownKey(_ pair: OptionPair, in what: String, allowed: [String]) -> ConfigError {
        var message = "unknown key '\(pair.key)' in \(what)"
        if let suggestion = Spelling.suggestion(for: pair.key, among: allowed) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += " (expected one of: \(allowed.joined(separator: ", ")))"
        }
        return error(pair, message)
    }

    /// An expression, compiled, with errors placed at the node.
    func expression(_ node: OptionNode, _ what: String) throws(ConfigError) -> Expression {
        let text = try text(node, what)
        do {
            return try compile(text)
        } catch {
            throw self.error(node, "\(what): \(error.message)")
        }
    }

    /// The required `fields:` option.
    func fields() throws(ConfigError) -> ItemMapping<Expression> {
        guard let fields = options.tree("fields") else { throw options.error("fields", "missing 'fields'") }
        return try mapping(fields)
    }

    /// The `fields:` mapping. Every field is read, so that the problems of all of them are reported together.
    func mapping(_ node: OptionNode) throws(ConfigError) -> ItemMapping<Expression> {
        typealias Mapping = ItemMapping<Expression>
        var mapping = Mapping()
        var errors = ConfigErrorCollector()
        let allowed = Mapping.fieldNames + Mapping.aliases.keys.sorted()
        for pair in try pairs(node, "'fields'") {
            guard allowed.contains(pair.key) else {
                errors.add(unknownKey(pair, in: "'fields'", allowed: allowed))
                continue
            }
            let name = Mapping.aliases[pair.key] ?? pair.key
            switch name {
            case "metrics", "extras":
                for inner in errors.attempt({ () throws(ConfigError) in try pairs(pair.value, "'fields.\(name)'") }) ?? [] {
                    guard
                        let rule = errors.attempt({ () throws(ConfigError) in
                            try field(inner.value, name: "fields.\(name).\(inner.key)", at: inner)
                        })
                    else { continue }
                    if name == "metrics" { mapping.metrics.append((inner.key, rule)) } else { mapping.extras.append((inner.key, rule)) }
                }
            default:
                if mapping.fields[name] != nil {
                    errors.add(error(pair, "'fields.\(pair.key)' sets '\(name)' a second time"))
                    continue
                }
                guard
                    let rule = errors.attempt({ () throws(ConfigError) in
                        try dateChecked(field(pair.value, name: "fields.\(pair.key)", at: pair), pair, name)
                    })
                else { continue }
                mapping.fields[name] = rule
            }
        }
        if errors.isEmpty, mapping.fields["id"] == nil, mapping.fields["url"] == nil, mapping.fields["title"] == nil {
            throw error(node, "'fields' needs at least one of id, url (link) or title to identify items")
        }
        try errors.check()
        return mapping
    }

    /// A field's rule checked for what its name implies: dates are converted as dates (by default, the feed parser's
    /// forms), only dates take a time zone, and a text field takes no date or count conversion (it was ignored).
    private func dateChecked(_ rule: FieldRule<Expression>, _ pair: OptionPair, _ name: String) throws(ConfigError) -> FieldRule<Expression>
    {
        var rule = rule
        let isDate = ["published", "updated"].contains(name)
        // Each alternative's own conversion is checked as the field's is.
        for used in rule.conversions {
            if isDate, !used.conversion.isDate, used.conversion != .none {
                throw error(pair, "'fields.\(pair.key)' is a date: convert it with date, unix, unix_ms or rfc3339, or give a format")
            }
            if used.timeZone != nil, !used.conversion.isDate, !isDate {
                throw error(pair, "'fields.\(pair.key)': 'timezone' only applies to dates")
            }
            if !isDate, used.conversion.isDate || used.conversion == .number {
                throw error(
                    pair,
                    "'fields.\(pair.key)' is text: convert it with text or html_to_text (dates go in published or updated, counts in metrics)"
                )
            }
        }
        if isDate, rule.conversion == .none { rule.conversion = .date }
        return rule
    }

    /// One field's rule: an expression, a template, a list of alternatives or the long form
    /// `{path|template|value, convert, format, timezone}`.
    func field(_ node: OptionNode, name: String, at pair: OptionPair) throws(ConfigError) -> FieldRule<Expression> {
        let location = "\(options.file):\(pair.line):\(pair.column)"
        var rule = FieldRule<Expression>(name: name, location: location, sources: [], conversion: .none, timeZone: nil)
        switch node.content {
        case .scalar(nil):
            throw error(node, "'\(name)' is empty; give a \(expressionKey), a template or {value: …}")
        case .scalar(let text?):
            rule.sources = [try source(text, node, name)]
        case .list(let items):
            guard !items.isEmpty else { throw error(node, "'\(name)' is an empty list") }
            for item in items {
                if item.pairs != nil {
                    // The entry's conversion is its own: the other alternatives keep the field's.
                    let inner = try field(item, name: name, at: pair)
                    if inner.conversion != .none || inner.timeZone != nil {
                        for offset in inner.sources.indices {
                            rule.own[rule.sources.count + offset] = .init(conversion: inner.conversion, timeZone: inner.timeZone)
                        }
                    }
                    rule.sources += inner.sources
                } else {
                    rule.sources.append(try source(try text(item, "each entry of '\(name)'"), item, name))
                }
            }
        case .mapping:
            let keys = [expressionKey, "template", "value", "convert", "format", "timezone"]
            let pairs = try pairs(node, "'\(name)'", allowed: keys)
            // One way to the value, one conversion: the second of either was ignored without a word.
            for group in [[expressionKey, "template", "value"], ["convert", "format"]] {
                let given = pairs.filter { group.contains($0.key) }
                if given.count > 1 {
                    throw error(
                        given[1],
                        "'\(name)' takes one of \(group.map { "'\($0)'" }.joined(separator: ", ")), not both '\(given[0].key)' and '\(given[1].key)'"
                    )
                }
            }
            for inner in pairs {
                switch inner.key {
                case expressionKey:
                    if let list = inner.value.list {
                        for item in list { rule.sources.append(.expression(try expression(item, "'\(name).\(expressionKey)'"))) }
                    } else {
                        rule.sources.append(.expression(try expression(inner.value, "'\(name).\(expressionKey)'")))
                    }
                case "template":
                    let text = try text(inner.value, "'\(name).template'")
                    do {
                        rule.sources.append(.template(try FieldTemplate(text, compile: compile)))
                    } catch {
                        throw self.error(inner.value, "'\(name).template': \(error.message)")
                    }
                case "value":
                    rule.sources.append(.constant(try text(inner.value, "'\(name).value'")))
                case "convert":
                    let word = try text(inner.value, "'\(name).convert'")
                    guard let conversion = ValueConversion(word: word) else {
                        var message = "'\(name).convert' must be one of \(ValueConversion.names.joined(separator: ", ")), found '\(word)'"
                        if let suggestion = Spelling.suggestion(for: word, among: ValueConversion.names) {
                            message += "; did you mean '\(suggestion)'?"
                        }
                        throw error(inner.value, message)
                    }
                    rule.conversion = conversion
                case "format":
                    let pattern = try text(inner.value, "'\(name).format'")
                    guard pattern.contains(where: { "yMdHhms".contains($0) }) else {
                        throw error(inner.value, "'\(name).format' must be a date pattern such as 'yyyy-MM-dd HH:mm', found '\(pattern)'")
                    }
                    rule.conversion = .pattern(pattern)
                default:
                    let zone = try text(inner.value, "'\(name).timezone'")
                    if let problem = TimeZoneName.problem(zone) {
                        throw error(inner.value, "'\(name).timezone': \(problem)")
                    }
                    rule.timeZone = zone
                }
            }
            if rule.sources.isEmpty {
                throw error(node, "'\(name)' needs a '\(expressionKey)', a 'template' or a 'value'")
            }
        }
        return rule
    }

    /// A scalar source: a template when it has `{…}` holes, otherwise an expression.
    private func source(_ text: String, _ node: OptionNode, _ name: String) throws(ConfigError) -> FieldRule<Expression>.Source {
        do {
            if FieldTemplate<Expression>.hasHoles(text) {
                return .template(try FieldTemplate(text, compile: compile))
            }
            return .expression(try compile(text))
        } catch {
            throw self.error(node, "'\(name)': \(error.message)")
        }
    }
}
