import Foundation
import TributaryJSON

/// The leniencies Toutiao's payloads need on top of `JSONValue`'s own accessors.
extension JSONValue {
    /// An object, whether it arrived as an object or as JSON text holding one (`content`,
    /// `action_extra`, `log_pb` and `ugc_recommend` come both ways); nil for anything else.
    var nestedObject: JSONValue? {
        switch self {
        case .object: return self
        case .string(let text):
            guard let parsed = try? JSON.parse(text), case .object = parsed else { return nil }
            return parsed
        default: return nil
        }
    }

    /// Whether this is something worth reading: not null, not `""`, `[]` or `{}`.
    var isPresent: Bool {
        switch self {
        case .null: false
        case .string(let text): !text.isEmpty
        case .array(let elements): !elements.isEmpty
        case .object(let object): !object.isEmpty
        case .bool, .number: true
        }
    }

    /// The first member along any of the paths whose text is not empty.
    func firstText(_ paths: [[String]]) -> String? {
        for path in paths {
            if let text = value(at: path)?.nonEmptyText { return text }
        }
        return nil
    }

    /// A positive whole number (counts, Unix times); nil for zero, negatives and non-numbers.
    func positiveInt(_ key: String) -> Int? {
        guard let number = self[key]?.int, number > 0 else { return nil }
        return number
    }
}
