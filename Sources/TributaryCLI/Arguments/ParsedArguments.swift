/// The options and positionals recognised on a command line, looked up by long option name.
public struct ParsedArguments: Sendable, Equatable {
    /// Positional arguments in the order given (including everything after `--`).
    public var positionals: [String]
    private var flags: [String: Int]
    private var optionValues: [String: [String]]

    init() {
        positionals = []
        flags = [:]
        optionValues = [:]
    }

    /// Whether the flag `--<long>` was given at least once.
    public func flag(_ long: String) -> Bool {
        flags[long] != nil
    }

    /// How many times the flag `--<long>` was given (`-vv` counts two).
    public func count(_ long: String) -> Int {
        flags[long] ?? 0
    }

    /// The last value given for `--<long>`, or nil if it was not given.
    public func value(_ long: String) -> String? {
        optionValues[long]?.last
    }

    /// All values given for `--<long>` in order (at most one for non-repeatable options).
    public func values(_ long: String) -> [String] {
        optionValues[long] ?? []
    }

    mutating func setFlag(_ long: String) {
        flags[long, default: 0] += 1
    }

    mutating func addValue(_ value: String, for option: OptionSpec) {
        if option.repeatable {
            optionValues[option.long, default: []].append(value)
        } else {
            optionValues[option.long] = [value]
        }
    }
}
