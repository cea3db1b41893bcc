public import Foundation

/// Rebuilds untrusted HTML from an allow-list of elements, attributes and URL schemes.
///
/// The input is parsed by libxml2's HTML parser as a stream of events (no tree is built) and
/// the output is written as the events arrive:
/// - Allowed elements are written lower-case with their allowed attributes, double-quoted and
///   escaped; void elements as `<br>` (or `<br/>`, `closesVoidElements`); everything left open
///   is closed at the end.
/// - `script`, `style`, embedding, form, document-metadata and foreign (`svg`, `math`) elements
///   are dropped together with their content; other elements are unwrapped (their children stay).
/// - URL attributes keep `http`, `https`, relative references (resolved against `baseURL`),
///   `mailto:` on links and raster `data:` images on `img src` (see `HTMLURLPolicy`).
/// - Comments, processing instructions, CDATA and DOCTYPEs are dropped; text is escaped, and
///   characters XML 1.0 cannot carry are removed, so the output can go straight into Atom.
///
/// Thread-safe: each call parses with its own libxml2 context.
public struct HTMLSanitizer: Sendable {
    /// The base for relative `href`, `src`, `srcset`, `cite` and `poster` values; with nil they
    /// stay relative. A `<base>` element in the content is ignored.
    public var baseURL: URL?
    /// Void elements written as `<br/>` rather than `<br>`, so that the output also reads as XML
    /// (a polyglot page embeds it).
    public var closesVoidElements: Bool

    public init(baseURL: URL? = nil, closesVoidElements: Bool = false) {
        self.baseURL = baseURL
        self.closesVoidElements = closesVoidElements
    }

    /// Safe HTML: allowed elements and attributes only, relative href/src resolved against baseURL.
    public func sanitize(_ html: String) -> String {
        HTMLSAXParser.parse(html) {
            HTMLSanitizingSink(baseURL: baseURL, inputSize: html.utf8.count, closesVoidElements: closesVoidElements)
        }.finish()
    }

    /// `sanitize(_:)` for HTML given as valid UTF-8 bytes (the feed parser's captured text),
    /// without making a `String` of the input first.
    func sanitize(utf8 html: [UInt8]) -> String {
        html.withUnsafeBufferPointer { bytes in
            HTMLSAXParser.parse(utf8: bytes) {
                HTMLSanitizingSink(baseURL: baseURL, inputSize: bytes.count, closesVoidElements: closesVoidElements)
            }.finish()
        }
    }

    /// `sanitize(utf8:)` resolving with `resolver`, whose base takes the place of `baseURL`.
    static func sanitize(utf8 html: [UInt8], resolver: HTMLURLResolver) -> String {
        html.withUnsafeBufferPointer { bytes in
            HTMLSAXParser.parse(utf8: bytes) { HTMLSanitizingSink(resolver: resolver, inputSize: bytes.count) }.finish()
        }
    }

    /// Plain text of an HTML fragment: tags stripped, entities decoded, script/style contents dropped,
    /// block elements separating words, whitespace collapsed; truncated at a word/character boundary
    /// to at most `limit` Characters with "…" appended when cut (nil = no limit).
    ///
    /// The text is what `sanitize` would keep. Runs of whitespace, no-break spaces and block
    /// boundaries become one space; inline elements add none, so `<b>中</b>文` reads `中文`.
    /// When cut, the text before "…" has at most `limit` Characters: it ends at the last space
    /// if one falls in the final fifth of the limit, else mid-word (as CJK text must be).
    public static func plainText(fromHTML html: String, limit: Int? = nil) -> String {
        let sink = HTMLSAXParser.parse(html) { HTMLPlainTextSink(inputSize: html.utf8.count) }
        guard let limit else { return sink.finish() }
        return sink.bytes.withUnsafeBufferPointer { HTMLTextTruncation.truncate(utf8: $0, limit: limit) }
    }

    /// `plainText(fromHTML:limit:)` for HTML given as valid UTF-8 bytes.
    static func plainText(fromHTML html: UnsafeBufferPointer<UInt8>, limit: Int? = nil) -> String {
        let sink = HTMLSAXParser.parse(utf8: html) { HTMLPlainTextSink(inputSize: html.count) }
        guard let limit else { return sink.finish() }
        return sink.bytes.withUnsafeBufferPointer { HTMLTextTruncation.truncate(utf8: $0, limit: limit) }
    }

    /// The plain text of HTML given as valid UTF-8 bytes, as valid UTF-8 bytes.
    static func plainTextBytes(fromHTML html: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        HTMLSAXParser.parse(utf8: html) { HTMLPlainTextSink(inputSize: html.count) }.bytes
    }
}
