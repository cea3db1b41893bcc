/// Declares one positional argument of a command; required ones must precede optional ones.
public struct PositionalSpec: Sendable, Equatable {
    /// Name shown in usage, help and errors, e.g. `"FILE"`.
    public var name: String
    /// One-line description shown in help.
    public var help: String
    /// Whether the argument may be omitted.
    public var isOptional: Bool
    /// Whether the argument absorbs all remaining positionals; honoured only on the last one.
    public var isVariadic: Bool

    /// Creates a positional argument (required and single by default).
    public init(name: String, help: String = "", isOptional: Bool = false, isVariadic: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isVariadic = isVariadic
    }
}
