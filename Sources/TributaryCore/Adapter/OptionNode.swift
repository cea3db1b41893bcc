/// A structured option value (a mapping or list of scalars, nested) with the position of every
/// node, for adapters whose options are themselves small documents: the declarative `json` and
/// `html` adapters' field mappings, request headers and pagination rules.
///
/// Scalars arrive as text after `${VAR}` expansion; their meaning is the adapter's to decide, so it
/// can report a bad value at the exact line and column through `AdapterOptions.error(at:_:)`.
public struct OptionNode: Sendable, Hashable {
    /// What a node holds.
    public enum Content: Sendable, Hashable {
        /// A scalar's text; nil for YAML null (`~`, `null` or nothing).
        case scalar(String?)
        /// A list's items in order.
        case list([OptionNode])
        /// A mapping's pairs in document order.
        case mapping([OptionPair])
    }

    /// The node's content.
    public var content: Content
    /// Where the node starts in the configuration file: line and column from 1.
    public var line: Int
    /// The column, from 1, in Unicode scalars.
    public var column: Int

    /// Creates a node.
    public init(_ content: Content, line: Int, column: Int) {
        self.content = content
        self.line = line
        self.column = column
    }

    /// The scalar's text, or nil for null, lists and mappings.
    public var scalar: String? {
        if case .scalar(let text) = content { return text }
        return nil
    }

    /// The items of a list, or nil.
    public var list: [OptionNode]? {
        if case .list(let items) = content { return items }
        return nil
    }

    /// The pairs of a mapping, or nil.
    public var pairs: [OptionPair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// Whether the node is YAML null.
    public var isNull: Bool { content == .scalar(nil) }

    /// The value for `key` in a mapping, or nil.
    public subscript(key: String) -> OptionNode? {
        pairs?.first { $0.key == key }?.value
    }

    /// The node in full (its positions left out), for a digest; see `OptionValue.digestText`.
    var digestText: String {
        switch content {
        case .scalar(nil): "~"
        case .scalar(let text?): OptionValue.string(text).digestText
        case .list(let items): "l\(items.count)[" + items.map(\.digestText).joined() + "]"
        case .mapping(let pairs):
            "m\(pairs.count){" + pairs.map { OptionValue.string($0.key).digestText + $0.value.digestText }.joined() + "}"
        }
    }

    /// How the node is named in "found …" messages.
    public var shape: String {
        switch content {
        case .scalar(nil): "nothing"
        case .scalar(let text?): "'\(text.count > 40 ? String(text.prefix(40)) + "…" : text)'"
        case .list: "a list"
        case .mapping: "a mapping"
        }
    }
}

/// One key and value of an `OptionNode` mapping, with the key's position.
public struct OptionPair: Sendable, Hashable {
    /// The key's text.
    public var key: String
    /// Where the key is: line and column from 1.
    public var line: Int
    /// The key's column, from 1.
    public var column: Int
    /// The value.
    public var value: OptionNode

    /// Creates a pair.
    public init(key: String, line: Int, column: Int, value: OptionNode) {
        self.key = key
        self.line = line
        self.column = column
        self.value = value
    }
}
