/// Declares a command: its name, help texts, options and positional arguments.
public struct CommandSpec: Sendable, Equatable {
    /// Subcommand name, e.g. `"run"`; empty for a program without subcommands.
    public var name: String
    /// One-line summary shown in help.
    public var abstract: String
    /// Custom usage line (e.g. `"tributary run [options]"`); generated from the spec when nil.
    public var usage: String?
    /// Longer free text shown at the end of help.
    public var discussion: String?
    /// Accepted options, in help order.
    public var options: [OptionSpec]
    /// Accepted positionals, in order; only the last may be variadic.
    public var positionals: [PositionalSpec]

    /// Creates a command spec.
    public init(
        name: String,
        abstract: String = "",
        usage: String? = nil,
        discussion: String? = nil,
        options: [OptionSpec] = [],
        positionals: [PositionalSpec] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
    }

    /// Programmer mistakes in the spec (duplicate or malformed names, misplaced variadic or optional positionals); empty when sound.
    public var configurationProblems: [String] {
        var problems: [String] = []
        var longs: Set<String> = []
        var shorts: Set<Character> = []
        for option in options {
            if option.long.isEmpty || option.long.hasPrefix("-") || option.long.contains("=") {
                problems.append("invalid long option name '\(option.long)'")
            }
            if !longs.insert(option.long).inserted {
                problems.append("duplicate option '--\(option.long)'")
            }
            if let short = option.short {
                if short == "-" || short.isWhitespace {
                    problems.append("invalid short option name '\(short)'")
                }
                if !shorts.insert(short).inserted {
                    problems.append("duplicate option '-\(short)'")
                }
            }
        }
        var sawOptional = false
        for (index, positional) in positionals.enumerated() {
            if positional.isVariadic && index != positionals.count - 1 {
                problems.append("variadic argument \(positional.name) must be last")
            }
            if positional.isOptional {
                sawOptional = true
            } else if sawOptional {
                problems.append("required argument \(positional.name) follows an optional one")
            }
        }
        return problems
    }
}
