/// Parses command lines against a `CommandSpec` with GNU/getopt conventions and renders help.
public enum ArgumentParser {
    /// Parses `arguments` (without program or command name), returning the values or every usage error found.
    public static func parse(_ arguments: [String], for command: CommandSpec) -> Result<ParsedArguments, UsageError> {
        let scanned = scan(arguments, for: command)
        guard scanned.errors.isEmpty else { return .failure(UsageError(messages: scanned.errors)) }
        return .success(scanned.arguments)
    }

    /// Parses as much as possible, returning what was recognised plus all errors; use it to honour `--help` despite other errors.
    public static func scan(
        _ arguments: [String],
        for command: CommandSpec
    ) -> (arguments: ParsedArguments, errors: [String]) {
        var scanner = ArgumentScanner(command: command)
        scanner.scan(arguments)
        return (scanner.parsed, scanner.errors)
    }

    /// Help text for `command`: usage, abstract, aligned options and arguments tables, discussion (no trailing newline).
    public static func help(for command: CommandSpec, programName: String) -> String {
        HelpFormatter(command: command, programName: programName).render()
    }
}
