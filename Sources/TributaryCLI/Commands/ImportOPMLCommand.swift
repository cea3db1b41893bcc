import FeedAdapters
import Foundation
import TributaryCore
import TributaryModel
import TributarySyndication

/// `tributary import-opml FILE`: turn a feed reader's subscription list into `sources:` entries.
enum ImportOPMLCommand: Command {
    static let spec = CommandSpec(
        name: "import-opml",
        abstract: "Turn an OPML subscription list into sources: entries (printed, or added to a configuration).",
        discussion: """
            Every outline with an http(s) xmlUrl becomes a source with adapter rss (which reads RSS, Atom
            and JSON Feed), named after its text, with the names of the folders it sits in as tags; feed://
            and feed:https:// are the http(s) URLs they stand for, and any other xmlUrl (a path, file:,
            javascript:) is skipped with a warning. A feed listed in several folders becomes one source
            with every folder as a tag. A list written by export-opml keeps each source's name, adapter
            and enabled: false (its tributary: attributes). The entries are printed as a sources: list;
            with --append CONFIG they are added to the end of that configuration's sources: list instead
            (feeds it already has are skipped, names are kept unique, the file is checked and written
            atomically). Problems in the OPML go to standard error as FILE:line[:column].
            """,
        options: [
            OptionSpec(long: "append", valueName: "CONFIG", help: "Add the sources to this configuration file instead of printing them."),
            CommonOptions.quiet, OptionSpec.help,
        ],
        positionals: [PositionalSpec(name: "FILE", help: "The OPML file.")])

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        let console = context.console
        guard let file = arguments.positionals.first else {
            console.diagnostic(
                UsageError(messages: ["missing argument FILE (an OPML file)"]).rendered(
                    programName: CommandLineTool.programName, commandName: spec.name))
            return ExitStatus.usage.rawValue
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            console.diagnostic(
                "\(file): error: the file \(FileManager.default.fileExists(atPath: file) ? "cannot be read" : "does not exist")")
            return ExitStatus.usage.rawValue
        }
        let quiet = arguments.flag("quiet")
        let document: OPMLDocument
        do {
            let result = try OPMLReader().read([UInt8](data))
            document = result.document
            if !quiet {
                for problem in result.problems { console.diagnostic("\(file):" + (problem.line == nil ? " " : "") + problem.description) }
            }
        } catch {
            console.diagnostic("\(file):\(error.line.map { "\($0):" } ?? "")\(error.column.map { "\($0):" } ?? "") error: \(error.message)")
            return ExitStatus.usage.rawValue
        }

        guard let configPath = arguments.value("append") else {
            let imported = OPMLImport.entries(from: document, existingNames: [], existingURLs: [])
            if !quiet { report(imported.problems, of: file, console: console) }
            let entries = imported.entries
            console.output(entries.isEmpty ? "sources: []\n" : "sources:\n" + SourceListEditor.yaml(entries))
            if !quiet {
                console.diagnostic(
                    "\(CommandLineTool.programName): \(entries.count) feed\(entries.count == 1 ? "" : "s") in \(file)"
                        + (imported.refused > 0 ? " (\(imported.refused) outline\(imported.refused == 1 ? "" : "s") skipped)" : ""))
            }
            return ExitStatus.success.rawValue
        }

        // Appending: the configuration must be valid before and after.
        let loader = ConfigLoader(registry: AdapterCatalog.registry, environment: context.environment)
        let configuration: Configuration
        let text: String
        do {
            configuration = try loader.load(file: configPath)
            text = try String(contentsOfFile: configPath, encoding: .utf8)
        } catch let errors as ConfigErrors {
            for problem in errors.errors { console.diagnostic(problem.description) }
            console.diagnostic("\(CommandLineTool.programName): \(configPath) must be valid before sources are added to it")
            return ExitStatus.usage.rawValue
        } catch {
            console.diagnostic("\(configPath): error: the configuration cannot be read")
            return ExitStatus.usage.rawValue
        }
        var imported = OPMLImport.entries(
            from: document, existingNames: Set(configuration.sources.map(\.name)),
            existingURLs: Set(configuration.sources.compactMap { $0.options.url("url")?.absoluteString }))
        let directory = URL(fileURLWithPath: configPath).standardizedFileURL.deletingLastPathComponent()
        var updated: String?
        do {
            // An entry the merged configuration refuses is left out with a warning at its outline, and the rest
            // tried again; a problem elsewhere is named at its line in the file as it is.
            while updated == nil, !imported.entries.isEmpty {
                let edit = try SourceListEditor.appending(imported.entries, to: text, file: configPath)
                do {
                    _ = try loader.load(text: edit.text, file: configPath, directory: directory)
                    updated = edit.text
                } catch {
                    let refused = Dictionary(grouping: error.errors) { edit.entry(atLine: $0.line ?? 0) }
                    let others = refused[nil] ?? []
                    guard others.isEmpty, !refused.isEmpty else {
                        throw ConfigErrors(
                            others.map { error in
                                var placed = error
                                placed.line = error.line.flatMap(edit.originalLine)
                                placed.column = placed.line == nil ? nil : error.column
                                return placed
                            })
                    }
                    for index in refused.keys.compactMap({ $0 }).sorted(by: >) {
                        imported.refuse(index, because: (refused[index] ?? []).map(\.message).joined(separator: "; "))
                    }
                }
            }
        } catch let errors as ConfigErrors {
            if !quiet { report(imported.problems, of: file, console: console) }
            for problem in errors.errors { console.diagnostic(problem.description) }
            console.diagnostic("\(CommandLineTool.programName): \(configPath) was not changed")
            return ExitStatus.usage.rawValue
        } catch {
            console.diagnostic("\(CommandLineTool.programName): \(error); \(configPath) was not changed")
            return ExitStatus.nothingProduced.rawValue
        }
        if !quiet { report(imported.problems, of: file, console: console) }
        var notes: [String] = []
        if imported.duplicates > 0 { notes.append("\(imported.duplicates) already there or listed twice") }
        if imported.refused > 0 { notes.append("\(imported.refused) skipped") }
        let suffix = notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
        guard let updated else {
            console.diagnostic(
                "\(CommandLineTool.programName): nothing to add: "
                    + (imported.refused == 0 ? "\(configPath) already has every feed of \(file)" : "no new web feed in \(file)\(suffix)"))
            return ExitStatus.success.rawValue
        }
        do {
            try AtomicFile.write(Array(updated.utf8), to: URL(fileURLWithPath: configPath))
        } catch {
            console.diagnostic("\(CommandLineTool.programName): \(error); \(configPath) was not changed")
            return ExitStatus.nothingProduced.rawValue
        }
        if !quiet {
            let count = imported.entries.count
            console.diagnostic("\(CommandLineTool.programName): added \(count) source\(count == 1 ? "" : "s") to \(configPath)\(suffix)")
        }
        return ExitStatus.success.rawValue
    }

    /// Warnings about the OPML as `FILE:line: warning: …`, in the order of the file.
    private static func report(_ problems: [Problem], of file: String, console: any Console) {
        for problem in problems.sorted(by: { ($0.line ?? 0) < ($1.line ?? 0) }) {
            console.diagnostic("\(file):" + (problem.line == nil ? " " : "") + problem.description)
        }
    }
}

/// Turns OPML outlines into source entries: one per web feed, unique names, folders as tags; what Tributary's
/// own attributes say (``OPMLOutline/source``) is kept.
enum OPMLImport {
    /// The entries made from a document, and what was left out.
    struct Result {
        /// The sources to add, in document order.
        var entries: [SourceListEditor.Entry] = []
        /// The OPML line of each entry's first outline.
        var outlineLines: [Int] = []
        /// Warnings at the outlines, about what was skipped or changed.
        var problems: [Problem] = []
        /// How many outlines or entries were skipped: not web feeds, or refused by the configuration.
        var refused = 0
        /// How many feed outlines were already configured or listed before in the document.
        var duplicates = 0

        /// Leaves out entry `index`, with a warning at its outline.
        mutating func refuse(_ index: Int, because reason: String) {
            problems.append(Problem(.warning, "skipped '\(entries[index].name)': \(reason)", line: outlineLines[index]))
            entries.remove(at: index)
            outlineLines.remove(at: index)
            refused += 1
        }
    }

    /// The adapter kinds a `tributary:adapter` may name: those that read a feed from its URL.
    static let feedAdapterNames: Set<String> = Set(
        [FeedAdapter.kind, JSONFeedAdapter.kind] + FeedAdapter.aliases + JSONFeedAdapter.aliases)

    /// The entries for `document`'s web feeds, leaving out URLs already configured and keeping names clear of
    /// `existingNames`. An outline whose `xmlUrl` is no http(s) URL (a path, `javascript:`) is skipped with a
    /// warning: a list from elsewhere must not make a source read a local file.
    static func entries(from document: OPMLDocument, existingNames: Set<String>, existingURLs: Set<String>) -> Result {
        var result = Result()
        var indexByKey: [String: Int] = [:]
        var taken = existingNames
        for (outline, folders) in document.feeds {
            let label = (outline.source?.name ?? outline.name).map { "'\($0)'" } ?? "an outline"
            let url: String
            switch webFeedURL(outline.xmlURL ?? "") {
            case .web(let web): url = web
            case .refused(let reason):
                result.problems.append(Problem(.warning, "skipped \(label): \(reason); only web feeds are imported", line: outline.line))
                result.refused += 1
                continue
            }
            if existingURLs.contains(URL(string: url)?.absoluteString ?? url) {
                result.duplicates += 1
                continue
            }
            let tags = unique(folders)
            // Tributary's own export lists a source in each of its tags' folders, under its name.
            let key = outline.source?.name.map { "name:" + $0 } ?? "url:" + url
            if let index = indexByKey[key] {
                result.entries[index].tags = unique(result.entries[index].tags + tags)
                result.duplicates += 1
                continue
            }
            var entry = SourceListEditor.Entry(name: "", url: url, tags: tags, enabled: outline.source?.enabled ?? true)
            if let exact = outline.source?.name {
                entry.name = uniqueName(exact, taken: &taken)
                if entry.name != exact {
                    result.problems.append(
                        Problem(.warning, "the name '\(exact)' is taken by another source: imported as '\(entry.name)'", line: outline.line)
                    )
                }
            } else {
                entry.name = uniqueName(slug(outline.name ?? URL(string: url)?.host ?? "feed"), taken: &taken)
            }
            if let adapter = outline.source?.adapter {
                if feedAdapterNames.contains(adapter) {
                    entry.adapter = adapter
                } else {
                    result.problems.append(
                        Problem(
                            .warning,
                            "tributary:adapter '\(adapter)' is no feed adapter (\(FeedAdapter.kind) or \(JSONFeedAdapter.kind)): "
                                + "imported as \(FeedAdapter.kind)", line: outline.line))
                }
            }
            indexByKey[key] = result.entries.count
            result.entries.append(entry)
            result.outlineLines.append(outline.line)
        }
        return result
    }

    /// What an `xmlUrl` subscribes to.
    enum FeedURL: Equatable {
        /// An absolute http(s) URL.
        case web(String)
        /// Not a web feed, and why.
        case refused(String)
    }

    /// The http(s) URL an `xmlUrl` names: itself, or for the `feed:` scheme of some readers the URL it wraps
    /// (`feed://host/path` is `http://host/path`, `feed:https://…` is `https://…`).
    static func webFeedURL(_ xmlURL: String) -> FeedURL {
        var url = xmlURL
        if URLResolver.scheme(of: url) == "feed" {
            let rest = url.dropFirst(5)
            url = rest.hasPrefix("//") ? "http:" + rest : String(rest)
        }
        guard let scheme = URLResolver.scheme(of: url), scheme.count > 1 else {
            return .refused("its xmlUrl '\(xmlURL)' is a file path, not an http(s) URL")
        }
        guard scheme == "http" || scheme == "https" else {
            return .refused("its xmlUrl '\(xmlURL)' is not an http(s) URL")
        }
        guard let parsed = URL(string: url), !(parsed.host ?? "").isEmpty else {
            return .refused("its xmlUrl '\(xmlURL)' is not a valid URL")
        }
        return .web(url)
    }

    /// A source name from a title: lower case, letters and digits of any script, other runs as
    /// one `-`, at most 48 characters.
    static func slug(_ text: String) -> String {
        var output = ""
        var pendingDash = false
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                if pendingDash, !output.isEmpty { output += "-" }
                pendingDash = false
                output.append(character)
            } else {
                pendingDash = true
            }
            if output.count >= 48 { break }
        }
        return output.isEmpty ? "feed" : output
    }

    private static func uniqueName(_ base: String, taken: inout Set<String>) -> String {
        var name = base
        var number = 2
        while taken.contains(name) {
            name = base + "-" + String(number)
            number += 1
        }
        taken.insert(name)
        return name
    }

    private static func unique(_ words: [String]) -> [String] {
        var seen = Set<String>()
        return words.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
