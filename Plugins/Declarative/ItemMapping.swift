import Foundation
import TributaryCore
import TributaryModel
import TributarySyndication

/// The `fields:` of a declarative source: a rule for each `Item` field, shared by the `json` and
/// `html` adapters (which differ only in the expression language).
struct ItemMapping<Expression: Sendable & Hashable & CustomStringConvertible>: Sendable {
    /// The fields a mapping may set, with the names RSS-Bridge and RSSHub users know as aliases.
    static var fieldNames: [String] {
        [
            "id", "url", "external_url", "title", "summary", "content", "image", "author", "author_url", "author_avatar", "published",
            "updated", "tags", "enclosure", "enclosure_type", "metrics", "extras",
        ]
    }

    /// Other names accepted for the fields above.
    static var aliases: [String: String] {
        [
            "guid": "id", "link": "url", "uri": "url", "description": "summary", "date": "published", "pubDate": "published",
            "timestamp": "published", "categories": "tags", "category": "tags", "thumbnail": "image", "enclosures": "enclosure",
        ]
    }

    /// Single-valued and list fields by canonical name.
    var fields: [String: FieldRule<Expression>] = [:]
    /// Metric rules by metric name.
    var metrics: [(String, FieldRule<Expression>)] = []
    /// Extra rules by extra name.
    var extras: [(String, FieldRule<Expression>)] = []

    /// What mapping one item produced.
    struct Outcome {
        /// The item; nil when it had to be skipped.
        var item: Item?
        /// What went wrong.
        var problems: [Problem]
        /// The names of the fields that found a value, and ``ItemMapping/matchedKey(_:)`` of each expression that did.
        var filled: Set<String>
    }

    /// Everything an item is built with besides its values.
    struct Environment {
        /// The source's name.
        var source: String
        /// The page the item came from: relative links resolve against it.
        var pageURL: URL
        /// The zone of zone-less dates.
        var timeZone: TimeZone
        /// "Now", for relative dates.
        var now: Date
    }

    /// Builds an item; `evaluate` gives the texts an expression yields for this item, `markup`
    /// the HTML it selects (for `content`; nil to use `evaluate`), `every` the texts it yields for
    /// a field that takes every value (`tags`: a JSON list's elements too; nil to use `evaluate`),
    /// `explain` says why an expression yielded nothing, `place` names the item (`response.feeds[3]`).
    func item(
        _ environment: Environment, place: String, evaluate evaluateItem: (Expression) -> [String],
        markup: ((Expression) -> [String])? = nil, every: ((Expression) -> [String])? = nil, explain: (Expression) -> String
    ) -> Outcome {
        var problems: [Problem] = []
        var filled = Set<String>()
        // The expressions that gave a value: a template's holes are read one by one, the field only when all match.
        func evaluate(_ expression: Expression) -> [String] {
            record(expression, evaluateItem(expression))
        }
        func evaluateEvery(_ expression: Expression) -> [String] {
            record(expression, every.map { $0(expression) } ?? evaluateItem(expression))
        }
        func record(_ expression: Expression, _ values: [String]) -> [String] {
            if values.contains(where: { !$0.isEmpty }) { filled.insert(Self.matchedKey(expression)) }
            return values
        }

        func first(_ name: String) -> String? {
            guard let rule = fields[name] else { return nil }
            guard let raw = rule.firstConverted(evaluate).first else { return nil }
            let value = raw.conversion.text(raw.text)
            guard !value.isEmpty else { return nil }
            filled.insert(name)
            return value
        }
        // A link that is not a web link (`javascript:void(0)`, `data:`, a saved page's `file:` path) is no link: an item
        // without a `url` takes its id from its title, instead of sharing `javascript:void(0)` with its neighbours.
        func link(_ name: String, _ accepted: (String) -> String? = WebLink.page) -> String? {
            guard let text = first(name) else { return nil }
            return accepted(URL(string: text, relativeTo: environment.pageURL)?.absoluteString ?? text)
        }
        // Whether the published date was read from text that counts back from now (`5分钟前`, `yesterday 08:00`).
        var relativelyPublished = false
        func date(_ name: String) -> Date? {
            guard let rule = fields[name], let value = rule.firstConverted(evaluate).first else { return nil }
            filled.insert(name)
            let zone = value.timeZone.flatMap(TimeZone.init(identifier:)) ?? environment.timeZone
            let conversion = value.conversion == .none ? ValueConversion.date : value.conversion
            if let date = conversion.date(value.text, timeZone: zone, now: environment.now) {
                if name == "published" {
                    relativelyPublished =
                        conversion.date(value.text, timeZone: zone, now: environment.now.addingTimeInterval(86_400)) != date
                }
                return date
            }
            problems.append(Problem(.warning, "\(rule.location): \(rule.name): cannot read '\(value.text)' as a date in \(place); no date"))
            return nil
        }

        let url = link("url")
        var item = Item(id: "", source: environment.source, url: url)
        item.title = first("title")
        if let rule = fields["summary"], let summary = (markup.map { rule.firstValues($0) } ?? rule.firstValues(evaluate)).first {
            let text = HTMLSanitizer.plainText(fromHTML: summary)
            if !text.isEmpty {
                filled.insert("summary")
                item.summary = text
            }
        }
        if let rule = fields["content"], let content = (markup.map { rule.firstValues($0) } ?? rule.firstValues(evaluate)).first {
            filled.insert("content")
            item.contentHTML = HTMLSanitizer(baseURL: environment.pageURL).sanitize(content)
        }
        item.image = link("image")
        item.externalURL = link("external_url")
        item.published = date("published")
        item.updated = date("updated")
        if let name = first("author") {
            item.authors = [Author(name: name, url: link("author_url", WebLink.author), avatar: link("author_avatar"))]
        }
        if let rule = fields["tags"] {
            var tags: [String] = []
            for raw in rule.allConverted(evaluateEvery) {
                let tag = raw.conversion.text(raw.text)
                if !tag.isEmpty, !tags.contains(tag) { tags.append(tag) }
            }
            if !tags.isEmpty { filled.insert("tags") }
            item.tags = tags
        }
        if let enclosure = link("enclosure", WebLink.enclosure) {
            item.attachments = [Attachment(url: enclosure, mimeType: first("enclosure_type") ?? "")]
        }
        for (name, rule) in metrics {
            guard let raw = rule.firstValues(evaluate).first else { continue }
            filled.insert("metrics.\(name)")
            if let count = ValueConversion.count(raw) {
                item.metrics[name] = count
            } else {
                problems.append(Problem(.warning, "\(rule.location): \(rule.name): '\(raw)' is not a count in \(place); left out"))
            }
        }
        for (name, rule) in extras {
            guard let raw = rule.firstConverted(evaluate).first else { continue }
            filled.insert("extras.\(name)")
            let text = raw.conversion.text(raw.text)
            if raw.conversion == .number, let count = ValueConversion.count(text) {
                item.extras[name] = .int(count)
            } else if let number = Int(text) {
                item.extras[name] = .int(number)
            } else {
                item.extras[name] = .string(text)
            }
        }

        if let rule = fields["id"] {
            guard let id = first("id") else {
                let why = rule.expressions.map { "'\($0)': \(explain($0))" }.joined(separator: "; ")
                problems.append(Problem(.error, "\(rule.location): \(rule.name): no value in \(place) (\(why)); item skipped"))
                return Outcome(item: nil, problems: problems, filled: filled)
            }
            item.id = id
        } else if let url {
            item.id = url
        } else if let title = item.title {
            // A date that counts back from now moves with the clock: it would give the item a new id at every run.
            let date = relativelyPublished ? nil : item.published
            item.id = StableID.digest(environment.source, title, date.map { String(Int($0.timeIntervalSince1970)) } ?? "")
        } else {
            let why = ["url", "title"].compactMap { fields[$0] }.flatMap { rule in
                rule.expressions.map { "\(rule.name) '\($0)': \(explain($0))" }
            }
            problems.append(
                Problem(
                    .error,
                    "\(place): no id, url or title to identify the item\(why.isEmpty ? "" : " (\(why.joined(separator: "; ")))"); skipped"))
            return Outcome(item: nil, problems: problems, filled: filled)
        }
        return Outcome(item: item, problems: problems, filled: filled)
    }

    /// Warnings for rules that found nothing in any of the `count` items of a fetch: most likely a
    /// wrong path. `notText` says, by ``matchedKey(_:)``, what an expression reached that is no text
    /// (`is an object, not text (did you mean author.name?)`): such an expression is reported so.
    func unmatched(filled: Set<String>, count: Int, notText: [String: String] = [:]) -> [Problem] {
        guard count > 0 else { return [] }
        var rules = fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        rules += metrics.map { ("metrics.\($0.0)", $0.1) } + extras.map { ("extras.\($0.0)", $0.1) }
        return rules.flatMap { key, rule -> [Problem] in
            guard !filled.contains(key), !rule.expressions.isEmpty else { return [] }
            let missing = rule.expressions.filter { !filled.contains(Self.matchedKey($0)) }
            guard !missing.isEmpty else {
                let expressions = rule.expressions.map { "'\($0)'" }.joined(separator: ", ")
                return [
                    Problem(
                        .warning,
                        "\(rule.location): \(rule.name): \(expressions) never gave a value together in any of the \(count) items read")
                ]
            }
            var problems: [Problem] = []
            var reported = Set<String>()
            for expression in missing {
                guard let shape = notText[Self.matchedKey(expression)], reported.insert(Self.matchedKey(expression)).inserted else {
                    continue
                }
                problems.append(Problem(.warning, "\(rule.location): \(rule.name): '\(expression)' \(shape)"))
            }
            let nothing = missing.filter { notText[Self.matchedKey($0)] == nil }
            if !nothing.isEmpty {
                let expressions = nothing.map { "'\($0)'" }.joined(separator: ", ")
                problems.append(
                    Problem(.warning, "\(rule.location): \(rule.name): \(expressions) matched nothing in any of the \(count) items read"))
            }
            return problems
        }
    }

    /// How `filled` records that an expression gave a value (a field's name never starts with `=`).
    static func matchedKey(_ expression: Expression) -> String {
        "=" + expression.description
    }
}
