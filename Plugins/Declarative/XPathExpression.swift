import TributaryCore
import TributarySyndication

/// An XPath 1.0 expression that libxml2 compiles, checked when the configuration is read.
struct XPathExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    let text: String

    /// Checks the expression: its syntax (libxml2 compiles it) and the functions it calls, which
    /// libxml2 looks up only when a call is evaluated (a typo in a predicate would otherwise pass
    /// `check` and fail every run, or never, depending on the page).
    init(_ text: String) throws(MappingError) {
        do {
            try HTMLDocument.validate(text)
        } catch {
            throw MappingError(error.message)
        }
        for call in XPathFunctionCalls.names(in: text) where !XPathFunctionCalls.library.contains(call) {
            throw MappingError("'\(text)' calls \(call)(), " + XPathFunctionCalls.explanation(of: call))
        }
        self.text = text
    }

    var description: String { text }
}

/// The functions an XPath 1.0 expression calls, found by its lexical rules (XPath 1.0 § 3.7).
enum XPathFunctionCalls {
    /// The core function library of XPath 1.0: all libxml2 has without registering more.
    static let library: Set<String> = [
        "last", "position", "count", "id", "local-name", "namespace-uri", "name", "string", "concat", "starts-with",
        "contains", "substring-before", "substring-after", "substring", "string-length", "normalize-space", "translate",
        "boolean", "not", "true", "false", "lang", "number", "sum", "floor", "ceiling", "round",
    ]

    /// Functions of XPath 2.0 and later that people reach for, with the XPath 1.0 way when there is one.
    private static let later: [String: String] = [
        "lower-case": "translate(., 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') lowers ASCII letters",
        "upper-case": "translate(., 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') raises ASCII letters",
        "ends-with": "substring(s, string-length(s) - string-length(t) + 1) = t tests the end of s",
        "matches": "XPath 1.0 has no regular expressions; contains() and starts-with() test for text",
        "replace": "XPath 1.0 has no regular expressions; translate() replaces single characters",
        "tokenize": "substring-before() and substring-after() split at a separator",
        "string-join": "concat() joins a fixed number of strings",
        "exists": "boolean(…) tests whether a node set is empty",
        "empty": "not(…) tests whether a node set is empty",
        "abs": "", "avg": "", "max": "", "min": "", "distinct-values": "", "format-date": "", "format-dateTime": "",
        "current-date": "", "current-dateTime": "", "data": "", "trim": "", "normalize-unicode": "",
    ]

    /// Why `name` cannot be called, and what to write instead.
    static func explanation(of name: String) -> String {
        if name.contains(":") {
            return "a function in a namespace; no namespace prefixes are defined, only XPath 1.0's own functions"
        }
        if let hint = later[name] {
            let base = "a function of XPath 2.0 or later; libxml2 evaluates XPath 1.0"
            return hint.isEmpty ? base : base + " (\(hint))"
        }
        var message = "which is not an XPath 1.0 function"
        if let suggestion = Spelling.suggestion(for: name, among: library.sorted()) {
            message += "; did you mean \(suggestion)()?"
        }
        return message
    }

    /// The names of the functions `expression` calls, in order, with their prefixes (`fn:abs`).
    /// Node-type tests (`text()`, `node()`, `comment()`, `processing-instruction()`) are not calls.
    /// Meant for expressions libxml2 compiled: a malformed one gives whatever names it can.
    static func names(in expression: String) -> [String] {
        let scalars = Array(expression.unicodeScalars)
        var calls: [String] = []
        var index = 0
        // Whether the next token starts an operand. When it does not, `*` multiplies and a name is
        // an operator (`and`, `or`, `div`, `mod`): the spec's first disambiguation rule.
        var operandExpected = true

        func skipSpace(from start: Int) -> Int {
            var position = start
            while position < scalars.count, [" ", "\t", "\r", "\n"].contains(scalars[position]) { position += 1 }
            return position
        }
        func name(from start: Int) -> Int {
            var position = start
            while position < scalars.count, isNameCharacter(scalars[position]) { position += 1 }
            return position
        }

        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t", "\r", "\n":
                index += 1
            case "'", "\"":
                index += 1
                while index < scalars.count, scalars[index] != scalar { index += 1 }
                index += 1
                operandExpected = false
            case "0"..."9":
                while index < scalars.count, scalars[index] == "." || ("0"..."9").contains(scalars[index]) { index += 1 }
                operandExpected = false
            case ".":
                index += 1
                while index < scalars.count, scalars[index] == "." || ("0"..."9").contains(scalars[index]) { index += 1 }
                operandExpected = false
            case ")", "]":
                index += 1
                operandExpected = false
            case "*":
                index += 1
                operandExpected = !operandExpected
            case "$":
                index = name(from: index + 1)
                if index < scalars.count, scalars[index] == ":" { index = name(from: index + 1) }
                operandExpected = false
            case _ where isNameStart(scalar):
                var end = name(from: index)
                let local = String(String.UnicodeScalarView(scalars[index..<end]))
                var qualified = local
                if end + 1 < scalars.count, scalars[end] == ":", scalars[end + 1] != ":" {
                    if scalars[end + 1] == "*" {
                        index = end + 2
                        operandExpected = false
                        continue
                    }
                    let localEnd = name(from: end + 1)
                    qualified = String(String.UnicodeScalarView(scalars[index..<localEnd]))
                    end = localEnd
                }
                index = end
                guard operandExpected else {
                    operandExpected = true  // an operator name
                    continue
                }
                let next = skipSpace(from: end)
                if next < scalars.count, scalars[next] == "(" {
                    if !["text", "node", "comment", "processing-instruction"].contains(qualified) {
                        calls.append(qualified)
                    }
                } else if next + 1 < scalars.count, scalars[next] == ":", scalars[next + 1] == ":" {
                    // An axis: `::` follows, after which an operand is expected.
                } else {
                    operandExpected = false  // a name test
                }
            default:
                // ( [ , @ :: / // | + - = != < <= > >=: an operand follows each of them.
                index += 1
                operandExpected = true
            }
        }
        return calls
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar.value >= 0xC0
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "." || scalar == "\u{B7}"
    }
}
