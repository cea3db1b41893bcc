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
            Every outline with an xmlUrl becomes a source with adapter rss (which reads RSS, Atom and JSON
            Feed), named after its text, with the names of the folders it sits in as tags. A feed listed in
            several folders becomes one source with every folder as a tag. The entries are printed as a
            sources: list; with --append CONFIG they are added to the end of that configuration's sources:
            list instead (feeds it already has are skipped, names are kept unique, the file is checked
            and written atomically). Problems in the OPML go to standard error as FILE:line:column.
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
        let document: OPMLDocument
        do {
            let result = try OPMLReader().read([UInt8](data))
            document = result.document
            if !arguments.flag("quiet") {
                for problem in result.problems { console.diagnostic("\(file):" + (problem.line == nil ? " " : "") + problem.description) }
            }
        } catch {
            console.diagnostic("\(file):\(error.line.map { "\($0):" } ?? "")\(error.column.map { "\($0):" } ?? "") error: \(error.message)")
            return ExitStatus.usage.rawValue
        }

        guard let configPath = arguments.value("append") else {
            let entries = OPMLImport.entries(from: document, existingNames: [], existingURLs: [])
            console.output(entries.isEmpty ? "sources: []\n" : "sources:\n" + SourceListEditor.yaml(entries))
            if !arguments.flag("quiet") { console.diagnostic("\(CommandLineTool.programName): \(entries.count) feeds in \(file)") }
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
        let existingURLs = Set(configuration.sources.compactMap { $0.options.url("url")?.absoluteString })
        let entries = OPMLImport.entries(
            from: document, existingNames: Set(configuration.sources.map(\.name)), existingURLs: existingURLs,
            directory: configuration.directory)
        let skipped = document.feeds.count - entries.count
        guard !entries.isEmpty else {
            console.diagnostic("\(CommandLineTool.programName): nothing to add: \(configPath) already has every feed of \(file)")
            return ExitStatus.success.rawValue
        }
        do {
            let updated = try SourceListEditor.appending(entries, to: text, file: configPath)
            let directory = URL(fileURLWithPath: configPath).standardizedFileURL.deletingLastPathComponent()
            _ = try loader.load(text: updated, file: configPath, directory: directory)
            try AtomicFile.write(Array(updated.utf8), to: URL(fileURLWithPath: configPath))
        } catch let errors as ConfigErrors {
            for problem in errors.errors { console.diagnostic(problem.description) }
            console.diagnostic("\(CommandLineTool.programName): \(configPath) was not changed")
            return ExitStatus.usage.rawValue
        } catch {
            console.diagnostic("\(CommandLineTool.programName): \(error); \(configPath) was not changed")
            return ExitStatus.nothingProduced.rawValue
        }
        if !arguments.flag("quiet") {
            console.diagnostic(
                "\(CommandLineTool.programName): added \(entries.count) source\(entries.count == 1 ? "" : "s") to \(configPath)"
                    + (skipped > 0 ? " (\(skipped) already there or listed twice)" : ""))
        }
        return ExitStatus.success.rawValue
    }
}

/// Turns OPML outlines into source entries: one per feed URL, unique names, folders as tags.
enum OPMLImport {
    /// The entries for `document`'s feeds, leaving out URLs already configured (compared after
    /// resolving against `directory`) and keeping names clear of `existingNames`.
    static func entries(
        from document: OPMLDocument, existingNames: Set<String>, existingURLs: Set<String>,
        directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) -> [SourceListEditor.Entry] {
        var entries: [SourceListEditor.Entry] = []
        var indexByURL: [String: Int] = [:]
        var taken = existingNames
        for (outline, folders) in document.feeds {
            guard let url = outline.xmlURL?.trimmingCharacters(in: .whitespacesAndNewlines), !url.isEmpty else { continue }
            if existingURLs.contains(URLResolver.resolve(url, against: directory).absoluteString) { continue }
            let tags = unique(folders)
            if let index = indexByURL[url] {
                entries[index].tags = unique(entries[index].tags + tags)
                continue
            }
            let name = uniqueName(slug(outline.name ?? URL(string: url)?.host ?? "feed"), taken: &taken)
            indexByURL[url] = entries.count
            entries.append(SourceListEditor.Entry(name: name, url: url, tags: tags))
        }
        return entries
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
