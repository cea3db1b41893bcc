public import Foundation

// STAND-IN: replaced by the real libxml2-based sanitizer at integration. Only the API below is the contract.

/// Rebuilds feed HTML from an allow-list (stand-in: returns the input unchanged).
public struct HTMLSanitizer: Sendable {
    /// The base for relative URLs in the HTML.
    public var baseURL: URL?

    /// Creates a sanitizer.
    public init(baseURL: URL? = nil) {
        self.baseURL = baseURL
    }

    /// The sanitized HTML (stand-in: unchanged).
    public func sanitize(_ html: String) -> String {
        html
    }

    /// The text of an HTML fragment, at most `limit` characters when given.
    public static func plainText(fromHTML html: String, limit: Int? = nil) -> String {
        let text = HTMLText.plainText(fromHTML: html)
        guard let limit, text.count > limit else { return text }
        return String(text.prefix(limit))
    }
}
