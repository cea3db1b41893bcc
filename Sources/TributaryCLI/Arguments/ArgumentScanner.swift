import TributaryCore

/// Single-pass scanner behind `ArgumentParser`; collects values and errors without stopping early.
struct ArgumentScanner {
    private let command: CommandSpec
    private let longOptions: [String: OptionSpec]
    private let shortOptions: [Character: OptionSpec]
    /// Maximum number of positionals, or nil when the last one is variadic.
    private let positionalLimit: Int?

    private(set) var parsed = ParsedArguments()
    private(set) var errors: [String] = []
    /// The option with an optional value given just before, without one (`--wait`), if any.
    private var bareOptionalOption: OptionSpec?

    init(command: CommandSpec) {
        self.command = command
        var longOptions: [String: OptionSpec] = [:]
        var shortOptions: [Character: OptionSpec] = [:]
        for option in command.options {
            if longOptions[option.long] == nil { longOptions[option.long] = option }
            if let short = option.short, shortOptions[short] == nil { shortOptions[short] = option }
        }
        self.longOptions = longOptions
        self.shortOptions = shortOptions
        positionalLimit = command.positionals.last?.isVariadic == true ? nil : command.positionals.count
    }

    mutating func scan(_ arguments: [String]) {
        var index = arguments.startIndex
        var optionsEnded = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            let previousOption = bareOptionalOption
            bareOptionalOption = nil
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                addPositional(argument, after: previousOption)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                scanLong(argument, in: arguments, index: &index)
            } else {
                scanShortCluster(argument, in: arguments, index: &index)
            }
        }
        for (position, positional) in command.positionals.enumerated()
        where position >= parsed.positionals.count && !positional.isOptional {
            errors.append("missing argument \(positional.name)")
        }
    }

    // MARK: - Options

    private mutating func scanLong(_ argument: String, in arguments: [String], index: inout Int) {
        let body = argument.dropFirst(2)
        let name: String
        let inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = String(body)
            inlineValue = nil
        }

        guard let option = longOptions[name] else {
            errors.append(unknownOptionMessage(name.isEmpty ? argument : "--\(name)", guess: name))
            return
        }
        let display = "--\(name)"
        guard let valueName = option.valueName else {
            if inlineValue == nil {
                parsed.setFlag(option.long)
            } else {
                errors.append("option '\(display)' does not take a value")
            }
            return
        }
        if let inlineValue {
            parsed.addValue(inlineValue, for: option)
        } else if option.valueIsOptional {
            parsed.addValue("", for: option)
            bareOptionalOption = option
        } else if let value = nextValue(in: arguments, index: &index) {
            parsed.addValue(value, for: option)
        } else {
            errors.append("option '\(display)' needs a value (\(valueName))")
        }
    }

    private mutating func scanShortCluster(_ argument: String, in arguments: [String], index: inout Int) {
        let cluster = argument.dropFirst()
        if cluster.count >= 3, clusterFails(cluster), let long = Spelling.suggestion(for: String(cluster), among: longNames) {
            // "-verbose" was almost certainly meant as "--verbose"; one clear error beats a letter-by-letter list.
            errors.append("unknown option '\(argument)'; did you mean '--\(long)'?")
            return
        }

        var position = cluster.startIndex
        while position < cluster.endIndex {
            let character = cluster[position]
            position = cluster.index(after: position)
            guard let option = shortOptions[character] else {
                errors.append("unknown option '-\(character)'")
                continue
            }
            guard let valueName = option.valueName else {
                parsed.setFlag(option.long)
                continue
            }
            if position < cluster.endIndex {
                parsed.addValue(String(cluster[position...]), for: option)
            } else if let value = nextValue(in: arguments, index: &index) {
                parsed.addValue(value, for: option)
            } else {
                errors.append("option '-\(character)' needs a value (\(valueName))")
            }
            return
        }
    }

    /// Whether an unknown letter appears in the cluster before a value-taking option swallows the rest.
    private func clusterFails(_ cluster: Substring) -> Bool {
        for character in cluster {
            guard let option = shortOptions[character] else { return true }
            if option.takesValue { return false }
        }
        return false
    }

    /// Consumes and returns the next argument as an option's value, unless it is missing or looks like an option.
    private func nextValue(in arguments: [String], index: inout Int) -> String? {
        guard index < arguments.endIndex, !looksLikeOption(arguments[index]) else { return nil }
        defer { index += 1 }
        return arguments[index]
    }

    /// `-x`, `--x` and `--` look like options; `-` and negative numbers such as `-5` (without a matching short option) do not.
    private func looksLikeOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument.count > 1 else { return false }
        let afterDash = argument.dropFirst()
        if let first = afterDash.first, first.isASCII, first.isNumber || first == ".",
            shortOptions[first] == nil, Double(argument) != nil
        {
            return false
        }
        return true
    }

    private var longNames: [String] { command.options.map(\.long) }

    private func unknownOptionMessage(_ display: String, guess: String) -> String {
        guard let suggestion = Spelling.suggestion(for: guess, among: longNames) else {
            return "unknown option '\(display)'"
        }
        return "unknown option '\(display)'; did you mean '--\(suggestion)'?"
    }

    // MARK: - Positionals

    /// Adds a positional, or an error when there are too many; `option` is an option with an
    /// optional value given without one just before, whose value the argument may have been meant as.
    private mutating func addPositional(_ argument: String, after option: OptionSpec?) {
        if let limit = positionalLimit, parsed.positionals.count >= limit {
            var message = "unexpected argument '\(argument)'"
            if let option, option.valueKind.accepts(argument) {
                message += "; use '--\(option.long)=\(argument)' (its value must follow '=')"
            }
            errors.append(message)
        } else {
            parsed.positionals.append(argument)
        }
    }
}
