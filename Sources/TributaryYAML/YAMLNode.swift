/// A node of a parsed YAML document with its source position; scalars stay untyped strings.
public struct YAMLNode: Sendable, Hashable {
    /// The structural content of a node.
    public enum Content: Sendable, Hashable {
        /// A scalar's decoded text and the style it was written in.
        case scalar(String, ScalarStyle)
        /// A sequence's items in document order.
        case sequence([YAMLNode])
        /// A mapping's pairs in document order (merge keys already applied).
        case mapping([YAMLPair])
    }

    /// What the node holds.
    public var content: Content
    /// Where the node starts: line and column from 1, columns in Unicode scalars.
    ///
    /// This is libyaml's start mark: for a quoted scalar it is the opening quote, for a flow
    /// collection the bracket, for a block collection its first key or `-`. When the node has an
    /// anchor or tag (`&a`, `!!str`), the mark is where that property starts.
    public var mark: Mark
    /// The explicit tag as resolved by libyaml (`!!str` becomes `tag:yaml.org,2002:str`), or nil if untagged.
    public var tag: String?

    /// Creates a node from its content, start mark and optional resolved tag.
    public init(_ content: Content, mark: Mark, tag: String? = nil) {
        self.content = content
        self.mark = mark
        self.tag = tag
    }

    /// The resolved tag libyaml uses for `!!null`.
    static let nullTag = "tag:yaml.org,2002:null"

    /// The scalar text, or nil if this node is not a scalar.
    public var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// The scalar style, or nil if this node is not a scalar.
    public var style: ScalarStyle? {
        if case .scalar(_, let style) = content { return style }
        return nil
    }

    /// True for an empty node or an untagged plain scalar `~`, `null`, `Null` or `NULL` (or anything tagged `!!null`).
    public var isNull: Bool {
        guard case .scalar(let text, let style) = content else { return false }
        if tag == Self.nullTag { return true }
        guard tag == nil, style == .plain else { return false }
        switch text {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    /// The items, or nil if this node is not a sequence.
    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The pairs in document order, or nil if this node is not a mapping.
    public var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// The first pair whose key is a scalar with exactly this text, or nil (also nil if not a mapping).
    public func pair(forKey key: String) -> YAMLPair? {
        mapping?.first { $0.key.scalar == key }
    }

    /// The value for a scalar key with exactly this text, or nil if absent or if this node is not a mapping.
    public subscript(key: String) -> YAMLNode? {
        pair(forKey: key)?.value
    }

    /// The item at `index`, or nil if out of range or if this node is not a sequence.
    public subscript(index: Int) -> YAMLNode? {
        guard let items = sequence, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
