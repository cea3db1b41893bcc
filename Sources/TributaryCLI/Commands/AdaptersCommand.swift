import Foundation
import TributaryCore

/// `tributary adapters`: list the adapters and their options.
enum AdaptersCommand: Command {
    static let spec = CommandSpec(
        name: "adapters",
        abstract: "List the source adapters and the options each accepts.",
        options: [OptionSpec.help])

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        context.console.output(listing(AdapterCatalog.registry))
        return ExitStatus.success.rawValue
    }

    /// The listing: each adapter with its summary and an aligned table of options.
    static func listing(_ registry: AdapterRegistry) -> String {
        var text = ""
        for adapter in registry.adapters {
            text += adapter.kind
            if !adapter.aliases.isEmpty { text += " (also: \(adapter.aliases.joined(separator: ", ")))" }
            text += "\n  \(adapter.summary)\n"
            if let zone = adapter.defaultTimeZone {
                text += "  Dates without a zone are read in \(zone) unless the source sets 'timezone' (defaults.timezone does not apply).\n"
            }
            let rows = adapter.options.map { option -> (String, String, String) in
                var detail = option.help
                if option.isRequired {
                    detail += " (required)"
                } else if let value = option.defaultValue {
                    detail += " (default: \(value))"
                }
                return (option.name, option.kind.name, detail)
            }
            text += table(rows)
            text += "\n"
        }
        text += "Every source also accepts:\n"
        text += table([
            ("name", "string", "the source's unique name (required)"),
            ("adapter", "string", "one of the adapters above (required)"),
            ("enabled", "boolean", "whether the source runs (default: true)"),
            ("max_items", "integer", "the most items the source contributes (default: defaults.max_items or 10000)"),
            ("timeout", "duration", "how long one fetch attempt may take (default: defaults.timeout, 30s)"),
            ("weight", "number", "the source's weight when ranking and merging duplicates (default: 1)"),
            ("tags", "list of strings", "tags added to every item of the source"),
            ("timezone", "string", "IANA zone for dates without one (default: \(zoneDefault(registry)))"),
            ("insecure", "boolean", "skip TLS certificate checks for this source only (default: false)"),
            ("stale_after", "duration", "how long a failing source's last good items are used (default: defaults.stale_after, 24h)"),
            ("interval", "duration", "fetch the source at most this often (default: defaults.interval, every run)"),
            ("backoff", "duration", "the longest wait between attempts while it keeps failing, or off (default: defaults.backoff, 6h)"),
            ("rules", "mapping", "block and keep rules of the source's own, applied before the global ones"),
        ])
        return text
    }

    /// Where a source's zone comes from when it sets none: the adapter's own zone, for the adapters
    /// that declare one, wins over `defaults.timezone`.
    private static func zoneDefault(_ registry: AdapterRegistry) -> String {
        let own = registry.adapters.compactMap { adapter in adapter.defaultTimeZone.map { "\($0) for \(adapter.kind)" } }
        if own.isEmpty { return "defaults.timezone or UTC" }
        return own.joined(separator: ", ") + "; for the others defaults.timezone or UTC"
    }

    private static func table(_ rows: [(String, String, String)]) -> String {
        let nameWidth = rows.map(\.0.count).max() ?? 0
        let typeWidth = rows.map(\.1.count).max() ?? 0
        return rows.map { name, type, help in
            "    " + name.padding(toLength: nameWidth + 2, withPad: " ", startingAt: 0)
                + type.padding(toLength: typeWidth + 2, withPad: " ", startingAt: 0) + help + "\n"
        }.joined()
    }
}
