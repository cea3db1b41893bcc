import Foundation
import TributaryJSON

/// A path into a JSON document: `response.feeds[*].post`, `data[0].title`, `items[-1]`,
/// `["key.with.dots"]`, `*` for every member, `@json` to read a string holding JSON (Toutiao's
/// `content`). A leading `$` starts from the document's root instead of the current item.
///
/// A path yields every value it reaches, in document order: none when a step is missing, several
/// after a `[*]`. `explainMissing(in:)` says where a path that yielded nothing stopped.
struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    enum Step: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// An array element; negative counts from the end.
        case index(Int)
        /// Every element of an array, or every member of an object.
        case all
        /// The JSON inside a string (an object or array passes unchanged).
        case decode
    }

    /// The path as written.
    let text: String
    /// Whether the path starts at the document's root (`$`) rather than at the current item.
    let fromRoot: Bool
    /// The steps, in order.
    let steps: [Step]

    /// Parses a path; throws with what is wrong with it.
    init(_ text: String) throws(MappingError) {
        self.text = text
        var scalars = Array(text.trimmingCharacters(in: .whitespaces).unicodeScalars)
        var fromRoot = false
        if scalars.first == "$" {
            fromRoot = true
            scalars.removeFirst()
            if scalars.first == "." { scalars.removeFirst() }
        }
        self.fromRoot = fromRoot
        var steps: [Step] = []
        var index = 0
        var expectName = true
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "[" {
                guard let close = scalars[index...].firstIndex(of: "]") else {
                    throw MappingError("'\(text)': '[' without a closing ']'")
                }
                let inner = String(String.UnicodeScalarView(scalars[(index + 1)..<close])).trimmingCharacters(in: .whitespaces)
                if inner == "*" {
                    steps.append(.all)
                } else if let number = Int(inner) {
                    steps.append(.index(number))
                } else if inner.count >= 2, let first = inner.first, first == "\"" || first == "'", inner.last == first {
                    steps.append(.key(String(inner.dropFirst().dropLast())))
                } else {
                    throw MappingError("'\(text)': '[\(inner)]' is not an index, [*] or a quoted key")
                }
                index = close + 1
                expectName = false
                continue
            }
            if scalar == "." {
                if expectName { throw MappingError("'\(text)': an empty step (two dots, or a dot at the start)") }
                expectName = true
                index += 1
                continue
            }
            guard expectName else { throw MappingError("'\(text)': expected '.' or '[' after ']'") }
            var end = index
            while end < scalars.count, scalars[end] != ".", scalars[end] != "[" { end += 1 }
            let name = String(String.UnicodeScalarView(scalars[index..<end]))
            switch name {
            case "*": steps.append(.all)
            case "@json": steps.append(.decode)
            default:
                if name.hasPrefix("@") { throw MappingError("'\(text)': unknown step '\(name)' (the only one is @json)") }
                steps.append(.key(name))
            }
            index = end
            expectName = false
        }
        if expectName, !scalars.isEmpty { throw MappingError("'\(text)': ends with a dot") }
        self.steps = steps
    }

    var description: String { text }

    /// Every value the path reaches from `value`.
    func values(in value: JSONValue) -> [JSONValue] {
        var current = [value]
        for step in steps {
            current = current.flatMap { Self.apply(step, to: $0) }
            if current.isEmpty { break }
        }
        return current
    }

    /// Why the path reaches nothing from `value`: the first step that found nothing, and what
    /// was there instead, e.g. `'post' has no key 'idx' (keys: id, title, image)`.
    func explainMissing(in value: JSONValue, origin: String = "the item") -> String {
        var current = [value]
        var walked = fromRoot ? "$" : ""
        for step in steps {
            let next = current.flatMap { Self.apply(step, to: $0) }
            if next.isEmpty {
                let here = walked.isEmpty ? origin : "'\(walked)'"
                guard let sample = current.first else { return "\(here) is empty" }
                switch step {
                case .key(let key):
                    if let object = sample.object {
                        let keys = object.keys.prefix(12).joined(separator: ", ")
                        return "\(here) has no key '\(key)' (keys: \(keys.isEmpty ? "none" : keys))"
                    }
                    return "\(here) is \(sample.shape), not an object with '\(key)'"
                case .index(let number):
                    if let array = sample.array { return "\(here) has \(array.count) element(s), no [\(number)]" }
                    return "\(here) is \(sample.shape), not a list"
                case .all:
                    if sample.array != nil || sample.object != nil { return "\(here) is empty" }
                    return "\(here) is \(sample.shape), not a list or object"
                case .decode:
                    if case .string(let text) = sample {
                        do {
                            _ = try JSON.parse(text)
                        } catch {
                            return "\(here) is not JSON text (\(error.line):\(error.column): \(error.message))"
                        }
                    }
                    return "\(here) is \(sample.shape), not JSON text"
                }
            }
            walked += Self.render(step, after: walked)
            current = next
        }
        return "nothing"
    }

    /// What the path reached when that is an object or a list rather than text, worded to follow the path, with the
    /// step that most likely reaches the text: `is an object, not text (did you mean author.name?)`. Nil for anything else.
    func notText(_ value: JSONValue) -> String? {
        switch value {
        case .object(let object):
            let hint = Self.textKey(in: object).map { " (did you mean \(text)\(Self.render(.key($0), after: text))?)" } ?? ""
            return "is an object, not text\(hint)"
        case .array(let array):
            var hint = ""
            if let first = array.first {
                if first.nonEmptyText != nil {
                    hint = " (did you mean \(text)[0]?)"
                } else if let object = first.object, let key = Self.textKey(in: object) {
                    hint = " (did you mean \(text)[0]\(Self.render(.key(key), after: "x"))?)"
                }
            }
            return "is a list, not text\(hint)"
        default:
            return nil
        }
    }

    /// The key of an object most likely to hold its text: a usual name for it, else the first key with text.
    private static func textKey(in object: JSONObject) -> String? {
        let keys = object.keys.filter { object[$0]?.nonEmptyText != nil }
        return ["name", "title", "text", "value", "content", "url", "id"].first { keys.contains($0) } ?? keys.first
    }

    fileprivate static func apply(_ step: Step, to value: JSONValue) -> [JSONValue] {
        switch step {
        case .key(let key):
            return value[key].map { [$0] } ?? []
        case .index(let number):
            guard let array = value.array else { return [] }
            let position = number < 0 ? array.count + number : number
            return array.indices.contains(position) ? [array[position]] : []
        case .all:
            if let array = value.array { return array }
            if let object = value.object { return object.values }
            return []
        case .decode:
            switch value {
            case .array, .object: return [value]
            case .string(let text): return (try? JSON.parse(text)).map { [$0] } ?? []
            default: return []
            }
        }
    }

    private static func render(_ step: Step, after walked: String) -> String {
        let dot = walked.isEmpty || walked == "$" ? (walked == "$" ? "." : "") : "."
        switch step {
        case .key(let key): return dot + key
        case .index(let number): return "[\(number)]"
        case .all: return "[*]"
        case .decode: return dot + "@json"
        }
    }
}

extension JSONPath {
    /// The values the path reaches, as ``values(in:)`` finds them, and the strings an `@json` step met that hold no
    /// valid JSON, each named by where it is and what is wrong with it (`data[3].content is not valid JSON at 1:14: …`):
    /// the path skips them; this says which, in the same walk, so that each string is parsed once.
    func valuesAndUndecodable(in value: JSONValue) -> (values: [JSONValue], undecodable: [String]) {
        guard steps.contains(.decode) else { return (values(in: value), []) }
        var current = [(value: value, place: fromRoot ? "$" : "")]
        var failures: [String] = []
        for step in steps {
            current = current.flatMap { value, place -> [(value: JSONValue, place: String)] in
                switch (step, value) {
                case (.decode, .string(let text)):
                    do throws(JSONParseError) {
                        return [(try JSON.parse(text), place)]
                    } catch {
                        let here = place.isEmpty ? "the response" : place
                        failures.append("\(here) is not valid JSON at \(error.line):\(error.column): \(error.message)")
                        return []
                    }
                case (.all, .object(let object)):
                    return object.map { ($0.value, place + Self.render(.key($0.key), after: place)) }
                case (.all, _):
                    return Self.apply(step, to: value).enumerated().map { ($0.element, place + "[\($0.offset)]") }
                case (.index(let number), _):
                    let position = number < 0 ? (value.array?.count ?? 0) + number : number
                    return Self.apply(step, to: value).map { ($0, place + "[\(position)]") }
                case (.decode, _):
                    return Self.apply(step, to: value).map { ($0, place) }
                case (.key, _):
                    return Self.apply(step, to: value).map { ($0, place + Self.render(step, after: place)) }
                }
            }
        }
        return (current.map(\.value), failures)
    }

    /// Whether the path found nothing only because a `[*]` met an empty (or null) list or object:
    /// an empty page rather than a wrong path.
    func reachesEmptyCollection(in value: JSONValue) -> Bool {
        var current = [value]
        for step in steps {
            let next = current.flatMap { Self.apply(step, to: $0) }
            if next.isEmpty {
                guard step == .all else { return false }
                return current.allSatisfy { $0.isNull || $0.array != nil || $0.object != nil }
            }
            current = next
        }
        return false
    }
}
