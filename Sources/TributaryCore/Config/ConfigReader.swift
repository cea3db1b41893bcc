import Foundation
import TributaryYAML

/// Reads typed values out of YAML nodes, collecting every problem with its position instead of
/// stopping at the first, so that `tributary check` can list them all.
final class ConfigReader {
    let file: String
    let directory: URL
    private let substitution: EnvironmentSubstitution
    private(set) var errors: [ConfigError] = []

    init(file: String, directory: URL, environment: [String: String]) {
        self.file = file
        self.directory = directory
        self.substitution = EnvironmentSubstitution(environment: environment)
    }

    // MARK: Reporting

    func fail(at mark: Mark, _ message: String) {
        errors.append(ConfigError(file: file, line: mark.line, column: mark.column, message: message))
    }

    func fail(_ node: YAMLNode, _ message: String) {
        fail(at: node.mark, message)
    }

    func record(_ error: ConfigError) {
        errors += error.flattened
    }

    // MARK: Structure

    /// The pairs of a mapping; reports anything else. A null node is an empty mapping.
    func mapping(_ node: YAMLNode, _ what: String) -> [YAMLPair]? {
        if let pairs = node.mapping { return pairs }
        if node.isNull { return [] }
        fail(node, "\(what) must be a mapping of keys to values, found \(describe(node))")
        return nil
    }

    /// The items of a sequence; reports anything else. A null node is an empty list.
    func sequence(_ node: YAMLNode, _ what: String) -> [YAMLNode]? {
        if let items = node.sequence { return items }
        if node.isNull { return [] }
        fail(node, "\(what) must be a list, found \(describe(node))")
        return nil
    }

    /// The mapping's values by key, after reporting keys not in `allowed` with a suggestion.
    func keyed(_ pairs: [YAMLPair], allowed: [String], context: String) -> KeyedPairs {
        var result = KeyedPairs()
        for pair in pairs {
            guard let key = pair.key.scalar else {
                fail(pair.key, "keys \(context) must be plain words, found \(describe(pair.key))")
                continue
            }
            guard allowed.contains(key) else {
                var message = "unknown key '\(key)' \(context)"
                if let suggestion = Spelling.suggestion(for: key, among: allowed) {
                    message += "; did you mean '\(suggestion)'?"
                    result.suggested.insert(suggestion)
                } else {
                    message += " (expected one of: \(allowed.joined(separator: ", ")))"
                }
                fail(pair.key, message)
                continue
            }
            result.append(pair, key: key)
        }
        return result
    }

    // MARK: Scalars

    /// A scalar's text after `${VAR}` expansion; reports lists, mappings and unset variables.
    func text(_ node: YAMLNode, _ what: String) -> String? {
        guard case .scalar(let raw, _) = node.content else {
            fail(node, "\(what) must be a single value, found \(describe(node))")
            return nil
        }
        switch substitution.expand(raw) {
        case .success(let value):
            return value
        case .failure(.unset(let name)):
            fail(node, "\(what): environment variable '\(name)' is not set (write ${\(name):-default} for a fallback)")
        case .failure(.unterminated):
            fail(node, "\(what): '${' without a closing '}'")
        case .failure(.badName(let name)):
            fail(node, "\(what): '\(name)' is not a valid environment variable name")
        }
        return nil
    }

    /// A string; null is reported as missing.
    func string(_ node: YAMLNode, _ what: String) -> String? {
        if node.isNull, node.isPlain {
            fail(node, "\(what) must be a string, found nothing")
            return nil
        }
        return text(node, what)
    }

    func integer(_ node: YAMLNode, _ what: String, in range: ClosedRange<Int> = Int.min...Int.max) -> Int? {
        guard let text = text(node, what) else { return nil }
        let cleaned = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")
        guard let value = Int(cleaned) else {
            fail(node, "\(what) must be an integer, found \(describeValue(text, node))")
            return nil
        }
        guard range.contains(value) else {
            fail(node, "\(what) must be between \(range.lowerBound) and \(range.upperBound), found \(value)")
            return nil
        }
        return value
    }

    func number(_ node: YAMLNode, _ what: String) -> Double? {
        guard let text = text(node, what) else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            fail(node, "\(what) must be a number, found \(describeValue(text, node))")
            return nil
        }
        return value
    }

    func boolean(_ node: YAMLNode, _ what: String) -> Bool? {
        guard let text = text(node, what) else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            fail(node, "\(what) must be true or false, found \(describeValue(text, node))")
            return nil
        }
    }

    /// Whether a scalar says "off" (`off`, `false`, `no`), the way a feature is switched off.
    func isOff(_ node: YAMLNode) -> Bool {
        guard let word = node.scalar?.lowercased() else { return false }
        return ["off", "false", "no"].contains(word)
    }

    func duration(_ node: YAMLNode, _ what: String) -> Duration? {
        guard let text = text(node, what) else { return nil }
        switch DurationParser.read(text) {
        case .success(let duration):
            return duration
        case .failure(.tooLarge):
            let maximum = DurationParser.format(DurationParser.maximum)
            fail(node, "\(what) is too large: at most \(maximum) (100 years), found \(describeValue(text, node))")
        case .failure(.invalid):
            fail(node, "\(what) must be a duration such as 500ms, 30s, 5m or 1h, found \(describeValue(text, node))")
        }
        return nil
    }

    /// A duration longer than zero: a wait or a limit of none would end what it bounds at once, or never.
    func positiveDuration(_ node: YAMLNode, _ what: String) -> Duration? {
        guard let duration = duration(node, what) else { return nil }
        guard duration > .zero else {
            fail(node, "\(what) must be longer than zero, found \(describeValue(text(node, what) ?? "", node))")
            return nil
        }
        return duration
    }

    /// A byte count: `20MB`, `512KB`, `1GB` or a plain number of bytes.
    func byteCount(_ node: YAMLNode, _ what: String) -> Int? {
        guard let text = text(node, what) else { return nil }
        guard let bytes = ByteCountParser.parse(text) else {
            fail(node, "\(what) must be a size such as 512KB or 20MB, found \(describeValue(text, node))")
            return nil
        }
        return bytes
    }

    func choice(_ node: YAMLNode, _ what: String, among words: [String]) -> String? {
        guard let text = text(node, what) else { return nil }
        guard words.contains(text) else {
            var message = "\(what) must be one of \(words.joined(separator: ", ")), found \(describeValue(text, node))"
            if let suggestion = Spelling.suggestion(for: text, among: words) { message += "; did you mean '\(suggestion)'?" }
            fail(node, message)
            return nil
        }
        return text
    }

    /// A list of strings; a single string is a list of one.
    func strings(_ node: YAMLNode, _ what: String) -> [String]? {
        if case .scalar = node.content {
            if node.isNull, node.isPlain { return [] }
            return text(node, what).map { [$0] }
        }
        guard let items = sequence(node, what) else { return nil }
        var result: [String] = []
        for item in items {
            guard let value = string(item, "each entry of \(what)") else { return nil }
            result.append(value)
        }
        return result
    }

    /// A list of strings written as a YAML list. A single value is refused with the list it may mean: where a list is
    /// documented, a string is the shell's habit (`command: "cat feed.json"`), and no shell splits it here.
    func list(_ node: YAMLNode, _ what: String) -> [String]? {
        if case .scalar(let raw, _) = node.content, !(node.isNull && node.isPlain) {
            let words = raw.split(whereSeparator: \.isWhitespace)
            fail(node, "\(what) must be a list, found \(describe(node)); write [\(words.joined(separator: ", "))]")
            return nil
        }
        return strings(node, what)
    }

    /// A URL or path, made absolute against the configuration's folder.
    func url(_ node: YAMLNode, _ what: String) -> URL? {
        guard let text = string(node, what) else { return nil }
        guard !text.isEmpty else {
            fail(node, "\(what) must not be empty")
            return nil
        }
        let scheme = URLResolver.scheme(of: text)
        if let scheme, !["http", "https", "file"].contains(scheme), scheme.count > 1 {
            fail(node, "\(what) must be an http(s) URL, a file: URL or a path, found the scheme '\(scheme):'")
            return nil
        }
        let url = URLResolver.resolve(text, against: directory)
        // An http(s) reference without `//host` (`http:/example.org`) must not become a relative file path.
        if url.host?.isEmpty ?? true, !url.isFileURL || scheme == "http" || scheme == "https" {
            fail(node, "\(what) is not a valid URL: '\(text)'")
            return nil
        }
        return url
    }

    func timeZone(_ node: YAMLNode, _ what: String) -> String? {
        guard let name = string(node, what) else { return nil }
        if let problem = TimeZoneName.problem(name) {
            fail(node, "\(what): \(problem)")
            return nil
        }
        return name
    }

    /// A value of a declared adapter option.
    func optionValue(_ node: YAMLNode, kind: AdapterOption.Kind, _ what: String) -> OptionValue? {
        switch kind {
        case .string: string(node, what).map(OptionValue.string)
        case .integer(let range): integer(node, what, in: range).map(OptionValue.integer)
        case .number: number(node, what).map(OptionValue.number)
        case .boolean: boolean(node, what).map(OptionValue.boolean)
        case .duration: duration(node, what).map(OptionValue.duration)
        case .url: url(node, what).map(OptionValue.url)
        case .strings: list(node, what).map(OptionValue.strings)
        case .choice(let words): choice(node, what, among: words).map(OptionValue.string)
        case .tree: tree(node, what).map(OptionValue.tree)
        }
    }

    /// A structured value with positions; scalars are expanded (`${VAR}`), keys must be scalars.
    func tree(_ node: YAMLNode, _ what: String) -> OptionNode? {
        let line = node.mark.line
        let column = node.mark.column
        switch node.content {
        case .scalar:
            if node.isNull { return OptionNode(.scalar(nil), line: line, column: column) }
            return text(node, what).map { OptionNode(.scalar($0), line: line, column: column) }
        case .sequence(let items):
            var nodes: [OptionNode] = []
            for item in items {
                guard let child = tree(item, what) else { return nil }
                nodes.append(child)
            }
            return OptionNode(.list(nodes), line: line, column: column)
        case .mapping(let pairs):
            var result: [OptionPair] = []
            for pair in pairs {
                guard let key = pair.key.scalar else {
                    fail(pair.key, "keys in \(what) must be plain words, found \(describe(pair.key))")
                    return nil
                }
                guard let value = tree(pair.value, what) else { return nil }
                result.append(OptionPair(key: key, line: pair.key.mark.line, column: pair.key.mark.column, value: value))
            }
            return OptionNode(.mapping(result), line: line, column: column)
        }
    }

    // MARK: Descriptions

    /// How a node is named in "found …".
    func describe(_ node: YAMLNode) -> String {
        switch node.content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let text, _):
            if node.isNull, node.isPlain { return "nothing" }
            return describeValue(text, node)
        }
    }

    private func describeValue(_ text: String, _ node: YAMLNode) -> String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "'\(shown)'"
    }
}

/// A mapping's pairs by key, and the keys that misspellings were taken for.
struct KeyedPairs {
    /// The pairs with their keys, in the mapping's order (the YAML reader rejects a key written twice). A mapping read
    /// this way has at most the few keys it allows, so they are searched in order: comparing short strings costs less
    /// than hashing them (a configuration of 500 sources looks keys up some 7,500 times).
    private(set) var pairs: [(key: String, value: YAMLPair)] = []
    /// Keys suggested for unknown keys: a missing required option among them is the same mistake.
    var suggested: Set<String> = []

    subscript(key: String) -> YAMLPair? { pairs.first { $0.key == key }?.value }

    /// Adds `pair` under `key`, a key not added before.
    mutating func append(_ pair: YAMLPair, key: String) {
        pairs.append((key, pair))
    }
}

extension YAMLNode {
    /// Whether the node is a plain (unquoted) scalar.
    var isPlain: Bool {
        if case .scalar(_, .plain) = content { return true }
        return false
    }
}

/// Reads sizes such as `512KB`, `20MB`, `1GB` (binary multiples) or a plain byte count.
public enum ByteCountParser {
    /// The byte count `text` names, or nil.
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        guard let value = Double(digits), value >= 0 else { return nil }
        let multiplier: Double
        switch unit {
        case "", "B": multiplier = 1
        case "K", "KB", "KIB": multiplier = 1024
        case "M", "MB", "MIB": multiplier = 1024 * 1024
        case "G", "GB", "GIB": multiplier = 1024 * 1024 * 1024
        default: return nil
        }
        let bytes = value * multiplier
        guard bytes < Double(Int.max) else { return nil }
        return Int(bytes)
    }
}
