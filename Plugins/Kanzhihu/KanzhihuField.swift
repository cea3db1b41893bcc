import Foundation
import TributaryJSON

/// Reading Kanzhihu's scalar fields, which arrive as strings or as numbers.
enum KanzhihuField {
    /// A scalar's text (a string, or a number's exact digits), trimmed; nil when absent or empty.
    static func text(_ value: JSONValue?) -> String? {
        guard let text = value?.text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}
