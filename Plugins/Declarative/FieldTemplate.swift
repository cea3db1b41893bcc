import Foundation

/// Text with `{expression}` holes, e.g. `https://example.com/a/{post.id}`; `{{` and `}}` stand
/// for literal braces. The holes hold expressions of the adapter's language (JSON paths or XPath).
struct FieldTemplate<Expression: Sendable & Hashable>: Sendable, Hashable {
    /// A piece of the template.
    enum Part: Sendable, Hashable {
        case literal(String)
        case hole(Expression)
    }

    /// The pieces in order.
    let parts: [Part]

    /// Parses a template, compiling each hole. With `namesOnly`, only `{name}` (a letter or `_`
    /// then letters, digits or `_`) is a hole and any other brace is literal text, so that JSON
    /// bodies such as `{"q": "{query}"}` need no escaping.
    init(_ text: String, namesOnly: Bool = false, compile: (String) throws(MappingError) -> Expression) throws(MappingError) {
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
            } else if namesOnly, character == "{" || character == "}", !Self.startsName(text[next...]) || character == "}" {
                literal.append(character)
                index = next
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

    /// Whether `rest` is `name}`.
    private static func startsName(_ rest: Substring) -> Bool {
        guard let close = rest.firstIndex(of: "}") else { return false }
        let name = rest[..<close]
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
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
