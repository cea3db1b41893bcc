import Foundation
import TributaryJSON

/// Finds an item's id as exact text. Toutiao's ids are 64-bit integers above 2^53: they are read
/// from the JSON number's text, never through `Double`. A payload that went through a JavaScript
/// viewer has them rounded (`6462594562829140237` shown as `6462594562829140000`); then the exact
/// digits are recovered from the item's own URLs and links, where the id survives as text.
enum ToutiaoExactID {
    /// The id fields, in order of preference: articles, posts, then cards and ads.
    static let fields = ["group_id", "thread_id", "item_id", "id", "ad_id"]
    /// Where the exact id is looked for first; after these, every string in the item.
    static let linkFields = [["display_url"], ["share_url"], ["article_alt_url"], ["url"], ["article_url"], ["share_info", "source_url"]]

    /// The item's id: the first non-zero id field, with rounding undone where its URLs allow.
    static func of(_ content: JSONValue) -> String? {
        for field in fields {
            guard let digits = content[field]?.nonEmptyText, isDigits(digits), digits.contains(where: { $0 != "0" }) else { continue }
            guard looksRounded(digits) else { return digits }
            return recover(digits, from: content) ?? digits
        }
        return nil
    }

    /// Whether the digits could be a double's shortest rendering of a larger integer: above
    /// 2^53, with at most 17 significant digits (the rest zeros). A real 19-digit id ends in two
    /// zeros once in a hundred times; then the search below finds only itself and keeps it.
    static func looksRounded(_ digits: String) -> Bool {
        guard digits.count >= 16, let value = UInt64(digits), value > 1 << 53 else { return false }
        let significant = digits.reversed().drop { $0 == "0" }.count
        return significant <= 17
    }

    /// The exact id a rounded one stands for: a run of digits in the item's links (percent-decoded)
    /// that is a different number but rounds to the same double.
    static func recover(_ rounded: String, from content: JSONValue) -> String? {
        guard let target = Double(rounded) else { return nil }
        var texts = linkFields.compactMap { content.value(at: $0)?.string }
        collectStrings(content, into: &texts)
        for text in texts {
            for run in digitRuns(text.removingPercentEncoding ?? text) where run != rounded && Double(run) == target {
                return run
            }
        }
        return nil
    }

    private static func isDigits(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value >= 0x30 && $0.value <= 0x39 }
    }

    /// Runs of 16 to 20 ASCII digits.
    private static func digitRuns(_ text: String) -> [String] {
        var runs: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x30 && scalar.value <= 0x39 {
                current.unicodeScalars.append(scalar)
                continue
            }
            if (16...20).contains(current.count) { runs.append(current) }
            current = ""
        }
        if (16...20).contains(current.count) { runs.append(current) }
        return runs
    }

    private static func collectStrings(_ value: JSONValue, into texts: inout [String]) {
        switch value {
        case .string(let text): texts.append(text)
        case .array(let elements): for element in elements { collectStrings(element, into: &texts) }
        case .object(let object): for (_, member) in object { collectStrings(member, into: &texts) }
        case .null, .bool, .number: break
        }
    }
}
