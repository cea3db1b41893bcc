import Foundation
import TributaryJSON

extension JSONValue {
    /// How the value is named in messages: `null`, `a string "abc"`, `the number 12`, `a list`…
    var shape: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return "the boolean \(flag)"
        case .number(let number): return "the number \(number.text)"
        case .string(let string):
            let shown = string.count > 40 ? String(string.prefix(40)) + "…" : string
            return "a string \"\(shown)\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// A string, or a number's exact text, trimmed; nil when empty or of another type (the API
    /// sends some fields as strings one day and numbers the next, and `null` for "none").
    var nonEmptyText: String? {
        let text: String? =
            switch self {
            case .string(let string): string
            case .number(let number): number.text
            default: nil
            }
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
