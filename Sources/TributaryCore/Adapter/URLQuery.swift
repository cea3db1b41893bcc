public import Foundation

/// Builds query strings with RFC 3986 percent-encoding, so that Chinese text, spaces, `&`, `=`
/// and `+` in values reach the server as they were meant.
public enum URLQuery {
    /// Characters left as they are: RFC 3986's unreserved set.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// One name or value, percent-encoded (UTF-8; a space becomes `%20`).
    public static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `a=1&b=%E4%B8%AD`, in the order given.
    public static func string(_ items: [(name: String, value: String)]) -> String {
        items.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    /// `base` with the items appended to its query (after any query it already has).
    public static func url(_ base: String, adding items: [(name: String, value: String)]) -> URL? {
        guard !items.isEmpty else { return URL(string: base) }
        var text = base
        let fragment: Substring?
        if let hash = text.firstIndex(of: "#") {
            fragment = text[hash...]
            text = String(text[..<hash])
        } else {
            fragment = nil
        }
        let separator = text.contains("?") ? (text.hasSuffix("?") || text.hasSuffix("&") ? "" : "&") : "?"
        return URL(string: text + separator + string(items) + (fragment.map(String.init) ?? ""))
    }
}
