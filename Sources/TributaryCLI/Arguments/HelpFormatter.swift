/// Renders the `--help` text of a command.
struct HelpFormatter {
    /// Rows whose left column is wider than this put their help on the next line and do not widen the column.
    static let maximumColumnWidth = 30
    static let indent = "  "
    static let gap = "   "

    let command: CommandSpec
    let programName: String

    func render() -> String {
        var sections = ["Usage: \(command.usage ?? generatedUsage())"]
        if !command.abstract.isEmpty {
            sections.append(command.abstract)
        }
        let optionRows = command.options.map(optionRow)
        let positionalRows = command.positionals.map { (left: $0.name, right: $0.help) }
        let width =
            (optionRows + positionalRows).map(\.left.count)
            .filter { $0 <= Self.maximumColumnWidth }
            .max() ?? Self.maximumColumnWidth
        if !optionRows.isEmpty {
            sections.append((["Options:"] + optionRows.map { format($0, width: width) }).joined(separator: "\n"))
        }
        if !positionalRows.isEmpty {
            sections.append((["Arguments:"] + positionalRows.map { format($0, width: width) }).joined(separator: "\n"))
        }
        if let discussion = command.discussion, !discussion.isEmpty {
            sections.append(discussion)
        }
        return sections.joined(separator: "\n\n")
    }

    private func generatedUsage() -> String {
        var parts = [programName, command.name].filter { !$0.isEmpty }
        if !command.options.isEmpty {
            parts.append("[options]")
        }
        for positional in command.positionals {
            let name = positional.isVariadic ? "\(positional.name)..." : positional.name
            parts.append(positional.isOptional ? "[\(name)]" : name)
        }
        return parts.joined(separator: " ")
    }

    private func optionRow(_ option: OptionSpec) -> (left: String, right: String) {
        var left = option.short.map { "-\($0), " } ?? "    "
        left += "--\(option.long)"
        if let valueName = option.valueName {
            left += option.valueIsOptional ? "[=\(valueName)]" : " \(valueName)"
        }
        let defaultNote = option.defaultValue.map { "(default: \($0))" } ?? ""
        let right = [option.help, defaultNote].filter { !$0.isEmpty }.joined(separator: " ")
        return (left, right)
    }

    private func format(_ row: (left: String, right: String), width: Int) -> String {
        let helpIndent = String(repeating: " ", count: Self.indent.count + width + Self.gap.count)
        let helpLines = row.right.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let firstHelp = helpLines.first, !row.right.isEmpty else {
            return Self.indent + row.left
        }
        var lines: [String]
        if row.left.count > width {
            lines = [Self.indent + row.left, helpIndent + firstHelp]
        } else {
            let padding = String(repeating: " ", count: width - row.left.count)
            lines = [Self.indent + row.left + padding + Self.gap + firstHelp]
        }
        lines += helpLines.dropFirst().map { $0.isEmpty ? "" : helpIndent + $0 }
        return lines.joined(separator: "\n")
    }
}
