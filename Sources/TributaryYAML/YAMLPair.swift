/// One key/value entry of a YAML mapping, in document order.
public struct YAMLPair: Sendable, Hashable {
    /// The key node (usually a scalar).
    public var key: YAMLNode
    /// The value node.
    public var value: YAMLNode

    /// Creates a pair from a key node and a value node.
    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}
