import FeedAdapters
import Foundation
import TributaryCore
import TributarySyndication

/// `tributary export-opml`: the configured feed sources as an OPML 2.0 subscription list.
enum ExportOPMLCommand: Command {
    static let spec = CommandSpec(
        name: "export-opml",
        abstract: "Write the configured feed sources as an OPML 2.0 subscription list.",
        discussion: """
            Every source with adapter rss (feed, atom) or jsonfeed becomes an outline with its name as
            text and its url as xmlUrl, inside a folder for each of its tags (untagged ones at the top
            level). Its exact name, its adapter and enabled: false go into attributes of Tributary's own
            namespace (tributary:name, tributary:adapter, tributary:enabled), which other readers ignore:
            import-opml reads such a list back into sources with the same names, adapters, URLs, tags
            and enabled (their other options are not exported). Sources of other adapters, and those
            reading a local file, have no web feed to subscribe to and are left out (named on standard
            error). Disabled sources are included. The list goes to standard output, or atomically to
            --output FILE.
            """,
        options: [
            CommonOptions.config,
            OptionSpec(long: "output", short: "o", valueName: "FILE", help: "Write the list to FILE instead of standard output."),
            CommonOptions.quiet, OptionSpec.help,
        ])

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        guard let configuration = context.loadConfiguration(arguments) else { return ExitStatus.usage.rawValue }
        let feedKinds = [FeedAdapter.kind, JSONFeedAdapter.kind]
        var topLevel: [OPMLOutline] = []
        var folders: [(name: String, outlines: [OPMLOutline])] = []
        var skipped: [String] = []
        for source in configuration.sources {
            guard feedKinds.contains(type(of: source.adapter).kind), let url = source.options.url("url"), !url.isFileURL else {
                skipped.append(source.name)
                continue
            }
            let outline = OPMLOutline(
                text: source.name, type: type(of: source.adapter).kind == JSONFeedAdapter.kind ? "jsonfeed" : "rss",
                xmlURL: url.absoluteString,
                source: OPMLOutline.SourceAttributes(name: source.name, adapter: source.adapterKind, enabled: source.enabled ? nil : false))
            if source.tags.isEmpty { topLevel.append(outline) }
            for tag in source.tags {
                if let index = folders.firstIndex(where: { $0.name == tag }) {
                    folders[index].outlines.append(outline)
                } else {
                    folders.append((tag, [outline]))
                }
            }
        }
        let document = OPMLDocument(
            title: configuration.title, outlines: topLevel + folders.map { OPMLOutline(text: $0.name, children: $0.outlines) })
        let text = OPMLWriter(dateCreated: Date()).document(document)
        let quiet = arguments.flag("quiet")
        if !quiet, !skipped.isEmpty {
            context.console.diagnostic(
                "\(CommandLineTool.programName): left out \(skipped.count) source\(skipped.count == 1 ? "" : "s") without a web feed URL: "
                    + skipped.joined(separator: ", "))
        }
        guard let output = arguments.value("output") else {
            context.console.output(text)
            return ExitStatus.success.rawValue
        }
        do {
            try AtomicFile.write(Array(text.utf8), to: URL(fileURLWithPath: output))
        } catch {
            context.console.diagnostic("\(CommandLineTool.programName): cannot write \(error.description)")
            return ExitStatus.nothingProduced.rawValue
        }
        if !quiet {
            let count = configuration.sources.count - skipped.count
            context.console.diagnostic("\(CommandLineTool.programName): wrote \(count) feed\(count == 1 ? "" : "s") to \(output)")
        }
        return ExitStatus.success.rawValue
    }
}
