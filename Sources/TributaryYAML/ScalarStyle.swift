/// The presentation style a scalar was written in.
public enum ScalarStyle: Sendable, Hashable {
    /// An unquoted scalar, e.g. `swift`.
    case plain
    /// A single-quoted scalar, e.g. `'swift'`.
    case singleQuoted
    /// A double-quoted scalar with escapes, e.g. `"swift\n"`.
    case doubleQuoted
    /// A literal block scalar introduced by `|`.
    case literal
    /// A folded block scalar introduced by `>`.
    case folded
}
