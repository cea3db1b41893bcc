/// Entry point: parses one YAML document into a ``YAMLNode`` tree with 1-based line/column marks.
public enum YAML {
    /// The most nodes alias expansion may produce in one document before parsing fails ("billion laughs" guard).
    public static let aliasExpansionLimit = 1_000_000

    /// The deepest nesting of collections (counted in levels, the root being level 1) a document may have.
    public static let nestingLimit = 512

    /// Parses one YAML document from text; returns nil for an empty stream (only comments/whitespace).
    ///
    /// - Parameters:
    ///   - text: The YAML source.
    ///   - file: A name for the source, used verbatim in ``YAMLError/file``.
    /// - Throws: ``YAMLError`` for syntax errors, undefined aliases, duplicate keys, bad merge keys,
    ///   more than one document, and alias expansion or nesting beyond the limits.
    public static func parse(_ text: String, file: String) throws(YAMLError) -> YAMLNode? {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// Parses one YAML document from UTF-8 bytes (a leading BOM is allowed); returns nil for an empty stream.
    ///
    /// - Parameters:
    ///   - bytes: The YAML source as UTF-8.
    ///   - file: A name for the source, used verbatim in ``YAMLError/file``.
    /// - Throws: ``YAMLError`` as for ``parse(_:file:)``, plus invalid UTF-8.
    public static func parse(bytes: [UInt8], file: String) throws(YAMLError) -> YAMLNode? {
        try YAMLParser(bytes: bytes, file: file).parse()
    }
}
