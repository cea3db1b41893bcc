import Foundation

/// Text with `{expression}` holes, e.g. `https://example.com/a/{post.id}`; `{{` and `}}` stand
/// for literal braces (except in request templates, `namesOnly`). The holes hold expressions of
/// the adapter's language (JSON paths or XPath).
struct FieldTemplate<Expression: Sendable & Hashable>: Sendable, Hashable {
    /// A piece of the template.
    enum Part: Sendable, Hashable {
        case literal(String)
        case hole(Expression)
    }

    /// The pieces in order.
    let parts: [Part]

    /// Parses a template, compiling each hole. With `namesOnly`, only `{name}` (a letter or `_`
    /// then letters, digits or `_`) is a hole and every other brace is literal text, `{{` and `}}`
    /// included, so that JSON bodies such as `{"q": "{query}", "f": {"type": "news"}}` are sent as
    /// written; a name in doubled braces (`{{name}}`, a Mustache-style text) is no hole either.
    init(_ text: String, namesOnly: Bool = false, compile: (String) throws(MappingError) -> Expression) throws(MappingError) {
        if namesOnly {
            parts = try Self.namedHoles(text, compile: compile)
            return
        }
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{", next < text.endIndex, text[next] == "{" {
                literal.append("{")
                index = text.index(after: next)
            } else if character == "}", next < text.endIndex, text[next] == "}" {
                literal.append("}")
                index = text.index(after: next)
            } else if character == "{" {
                guard let close = text[next...].firstIndex(of: "}") else {
                    throw MappingError("template '\(text)': '{' without a closing '}' (write {{ for a literal brace)")
                }
                let inner = String(text[next..<close])
                guard !inner.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw MappingError("template '\(text)': an empty {}")
                }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.hole(try compile(inner)))
                index = text.index(after: close)
            } else if character == "}" {
                throw MappingError("template '\(text)': '}' without an opening '{' (write }} for a literal brace)")
            } else {
                literal.append(character)
                index = next
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// The parts of a template whose only holes are `{name}`: every other character, braces included, is text as written.
    private static func namedHoles(_ text: String, compile: (String) throws(MappingError) -> Expression) throws(MappingError) -> [Part] {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            guard text[index] == "{", let close = nameEnd(text[next...]) else {
                literal.append(text[index])
                index = next
                continue
            }
            let after = text.index(after: close)
            let doubled = index > text.startIndex && text[text.index(before: index)] == "{" && after < text.endIndex && text[after] == "}"
            if doubled {
                literal += text[index..<after]
            } else {
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.hole(try compile(String(text[next..<close]))))
            }
            index = after
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    /// Where the `}` of `rest` is when `rest` starts with `name}`.
    private static func nameEnd(_ rest: Substring) -> Substring.Index? {
        guard let close = rest.firstIndex(of: "}") else { return nil }
        let name = rest[..<close]
        guard let first = name.first, first.isLetter || first == "_" else { return nil }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } ? close : nil
    }

    /// Whether the text has holes at all, that is whether it is a template rather than plain text.
    static func hasHoles(_ text: String) -> Bool {
        text.replacingOccurrences(of: "{{", with: "").contains("{")
    }

    /// The expressions in the holes.
    var expressions: [Expression] {
        parts.compactMap {
            if case .hole(let expression) = $0 { return expression }
            return nil
        }
    }

    /// The text with every hole filled; nil when a hole has no value.
    func render(_ value: (Expression) -> String?) -> String? {
        var result = ""
        for part in parts {
            switch part {
            case .literal(let text): result += text
            case .hole(let expression):
                guard let text = value(expression) else { return nil }
                result += text
            }
        }
        return result
    }
}
