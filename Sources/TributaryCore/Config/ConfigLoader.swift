public import Foundation
import TributaryModel
import TributaryYAML

/// Reads `feeds.yaml` into a validated `Configuration`, reporting every problem it finds with
/// file, line and column.
public struct ConfigLoader: Sendable {
    /// The keys allowed at the top of the file.
    static let topLevelKeys = [
        "title", "id", "link", "author", "defaults", "sources", "rules", "dedup", "ranking", "outputs", "state", "retention",
    ]
    /// The keys of `defaults:`.
    static let defaultsKeys = [
        "timeout", "max_items", "jobs", "per_host", "user_agent", "timezone", "max_size", "stale_after", "interval", "backoff",
    ]
    /// The keys every source accepts besides its adapter's options.
    static let commonSourceKeys = [
        "name", "adapter", "enabled", "max_items", "timeout", "weight", "tags", "timezone", "insecure", "rules", "stale_after",
        "interval", "backoff",
    ]

    /// The adapters sources may name.
    public var registry: AdapterRegistry
    /// The variables `${VAR}` reads.
    public var environment: [String: String]

    /// Creates a loader for the given adapters, reading `${VAR}` from `environment`.
    public init(registry: AdapterRegistry, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.registry = registry
        self.environment = environment
    }

    /// Reads and validates the configuration file at `path` (relative to the working directory).
    public func load(file path: String) throws(ConfigErrors) -> Configuration {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "cannot be read" : "does not exist"
            throw ConfigErrors([
                ConfigError(file: path, line: nil, column: nil, message: "the configuration file \(reason)")
            ])
        }
        return try load(bytes: [UInt8](data), file: path, directory: url.deletingLastPathComponent())
    }

    /// Validates configuration text; `file` names it in messages, `directory` anchors relative paths.
    public func load(text: String, file: String, directory: URL) throws(ConfigErrors) -> Configuration {
        try load(bytes: Array(text.utf8), file: file, directory: directory)
    }

    /// Validates configuration bytes (UTF-8); `file` names it in messages, `directory` anchors relative paths.
    public func load(bytes: [UInt8], file: String, directory: URL) throws(ConfigErrors) -> Configuration {
        let root: YAMLNode?
        do {
            root = try YAML.parse(bytes: bytes, file: file)
        } catch {
            throw ConfigErrors([
                ConfigError(file: file, line: error.mark.line, column: error.mark.column, message: error.message)
            ])
        }
        let reader = ConfigReader(file: file, directory: directory, environment: environment)
        let configuration = ConfigurationBuilder(reader: reader, registry: registry).build(root)
        guard reader.errors.isEmpty, var configuration else {
            throw ConfigErrors(reader.errors)
        }
        configuration.digest = digest(of: bytes)
        return configuration
    }
}

extension ConfigLoader {
    /// A digest of the text, the version of Tributary and the environment values `${NAME}` reads.
    func digest(of bytes: [UInt8]) -> String {
        var parts = [Tributary.version, String(decoding: bytes, as: UTF8.self)]
        // Each `${` found in the bytes, `memchr` going from one `$` to the next (a search by characters, or
        // Foundation's, would walk the whole text's graphemes).
        bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            var index = 0
            while index < bytes.count, let found = memchr(base + index, Int32(UInt8(ascii: "$")), bytes.count - index) {
                index = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { continue }
                // A name of another shape is a configuration error: its valid prefix is as good as any.
                let name = String(decoding: bytes[(index + 1)...].prefix(while: EnvironmentSubstitution.isNameByte), as: UTF8.self)
                parts.append("\(name)=\(environment[name] ?? "")")
            }
        }
        return StableID.digest(parts)
    }
}

/// Walks the YAML tree section by section.
private struct ConfigurationBuilder {
    let reader: ConfigReader
    let registry: AdapterRegistry

    func build(_ root: YAMLNode?) -> Configuration? {
        guard let root else {
            reader.record(
                ConfigError(file: reader.file, line: nil, column: nil, message: "the configuration is empty; it needs at least 'sources:'"))
            return nil
        }
        guard let pairs = reader.mapping(root, "the configuration") else { return nil }
        // Top-level keys starting with `x-` hold YAML anchors for templates; they are not read.
        let ownPairs = pairs.filter { !($0.key.scalar ?? "").hasPrefix("x-") }
        let keys = reader.keyed(ownPairs, allowed: ConfigLoader.topLevelKeys, context: "at the top level")

        let title = keys["title"].flatMap { reader.string($0.value, "'title'") } ?? "Tributary"
        let id = keys["id"].flatMap { readIdentifier($0.value) }
        let linkText = keys["link"].flatMap { reader.string($0.value, "'link'") }
        var link = linkText
        if let node = keys["link"]?.value, let text = linkText, !text.isEmpty, !Self.isAbsoluteWebURL(text) {
            reader.fail(node, "'link' must be the river's home page as an absolute http(s) URL, found '\(text)'\(Self.schemeHint(text))")
            link = nil
        }
        let author = keys["author"].flatMap { readAuthor($0.value) }
        let defaults = keys["defaults"].map { readDefaults($0.value) } ?? Defaults()
        var sources: [SourceConfig] = []
        if let pair = keys["sources"] {
            sources = readSources(pair.value, defaults: defaults)
            if sources.isEmpty, reader.errors.isEmpty {
                reader.fail(pair.value, "'sources' lists no source; add at least one")
            }
        } else {
            reader.fail(at: root.mark, "the configuration has no 'sources:' list")
        }
        let rules = keys["rules"].map { RulesReader(reader: reader).read($0.value, scope: "") } ?? RuleSet()
        let dedup = keys["dedup"].map { readDedup($0.value) } ?? DedupConfig()
        let ranking = keys["ranking"].map { readRanking($0.value) } ?? RankingConfig()
        var statePath: URL? = reader.directory.appendingPathComponent(".tributary/state.sqlite")
        if let node = keys["state"]?.value {
            if reader.isOff(node) {
                statePath = nil
            } else if let path = reader.string(node, "'state'") {
                statePath = readStatePath(path, node)
            }
        }
        // The files a run reads: an output written over one would destroy it.
        var readFiles = [ReadFile(path: configurationFile, what: "the configuration file itself")]
        readFiles += sources.flatMap(localFiles)
        if let statePath, let node = keys["state"]?.value {
            if let file = readFiles.first(where: { $0.path == Self.identity(statePath) }) {
                reader.fail(node, "'state' names \(file.what); the state file must be a file of its own")
            }
            readFiles.append(ReadFile(path: Self.identity(statePath), what: "the state file (line \(node.mark.line))"))
        } else if let statePath {
            readFiles.append(
                ReadFile(path: Self.identity(statePath), what: "the state file (.tributary/state.sqlite, as 'state' is not set)"))
        }
        let outputs =
            keys["outputs"].map { readOutputs($0.value, hasTopLevelLink: !(linkText ?? "").isEmpty, readFiles: readFiles) }
            ?? [OutputConfig(kind: .stdout, path: nil, displayPath: nil, url: nil, limit: nil, title: nil, format: .text)]
        let retention = keys["retention"].flatMap { reader.duration($0.value, "'retention'") } ?? Configuration.defaultRetention

        return Configuration(
            file: reader.file, directory: reader.directory, title: title, id: id, link: link, author: author,
            defaults: defaults, sources: sources, rules: rules, dedup: dedup, ranking: ranking, outputs: outputs,
            statePath: statePath, retention: retention)
    }

    /// A file a run reads, by ``ConfigurationBuilder/identity(_:)``, and how messages name it.
    private struct ReadFile {
        var path: String
        var what: String
    }

    /// The configuration file, as ``identity(_:)`` gives it.
    private var configurationFile: String {
        Self.identity(reader.directory.appendingPathComponent((reader.file as NSString).lastPathComponent))
    }

    /// The local files a source reads: its `file:` URLs and paths, and those the adapter builds (a `url` holding
    /// `{variables}`, as the `json` and `html` adapters' may, is text, not a URL option).
    private func localFiles(_ source: SourceConfig) -> [ReadFile] {
        let named = type(of: source.adapter).options.compactMap { spec -> (option: String, file: URL)? in
            guard case .url = spec.kind, let url = source.options.url(spec.name) else { return nil }
            return (spec.name, url)
        }
        return (named + source.adapter.localFiles(relativeTo: reader.directory)).compactMap { option, url in
            guard url.isFileURL else { return nil }
            let line = source.options.position(option).line
            return ReadFile(path: Self.identity(url), what: "the file source '\(source.name)' reads (line \(line))")
        }
    }

    /// A path with `.` and `..` steps and symbolic links resolved, so that two names of one file compare equal.
    static func identity(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// `state:` as a file: not empty, not a folder.
    private func readStatePath(_ text: String, _ node: YAMLNode) -> URL? {
        if text.isEmpty || text.hasSuffix("/") {
            reader.fail(node, "'state' must name a file, found '\(text)' (write 'off' for no state file)")
            return nil
        }
        let url = URLResolver.resolve(text, against: reader.directory)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            reader.fail(node, "'state' names '\(text)', which is a directory; name a file in it, such as '\(text)/state.sqlite'")
            return nil
        }
        return url
    }

    /// `id`: an IRI with a scheme (`urn:example:river`, `https://example.org/river`), as Atom requires.
    private func readIdentifier(_ node: YAMLNode) -> String? {
        guard let text = reader.string(node, "'id'") else { return nil }
        guard text.isEmpty || Self.isIRI(text) else {
            reader.fail(
                node, "'id' must be an IRI with a scheme, such as urn:example:my-river or https://example.org/river, found '\(text)'")
            return nil
        }
        return text
    }

    private func readAuthor(_ node: YAMLNode) -> Author? {
        if case .scalar = node.content {
            return reader.string(node, "'author'").map { Author(name: $0) }
        }
        guard let pairs = reader.mapping(node, "'author'") else { return nil }
        let keys = reader.keyed(pairs, allowed: ["name", "email", "url"], context: "in 'author'")
        let name = keys["name"].flatMap { reader.string($0.value, "'author.name'") }
        let email = keys["email"].flatMap { reader.string($0.value, "'author.email'") }
        let url = keys["url"].flatMap { reader.string($0.value, "'author.url'") }
        if name == nil { reader.fail(node, "'author' needs a 'name'") }
        return Author(name: name, url: url ?? email.map { "mailto:" + $0 }, email: url == nil ? nil : email)
    }

    private func readDefaults(_ node: YAMLNode) -> Defaults {
        var defaults = Defaults()
        guard let pairs = reader.mapping(node, "'defaults'") else { return defaults }
        let keys = reader.keyed(pairs, allowed: ConfigLoader.defaultsKeys, context: "in 'defaults'")
        if let node = keys["timeout"]?.value, let value = reader.positiveDuration(node, "'timeout'") {
            defaults.timeout = value
        }
        if let node = keys["max_items"]?.value {
            defaults.maxItems = reader.integer(node, "'max_items'", in: 1...1_000_000)
        }
        if let node = keys["jobs"]?.value, let value = reader.integer(node, "'jobs'", in: 1...256) {
            defaults.jobs = value
        }
        if let node = keys["stale_after"]?.value, let value = reader.duration(node, "'stale_after'") {
            defaults.staleAfter = value
        }
        if let node = keys["interval"]?.value { defaults.interval = readInterval(node) }
        if let node = keys["backoff"]?.value { defaults.backoff = readBackoff(node) }
        if let node = keys["per_host"]?.value, let value = reader.integer(node, "'per_host'", in: 1...64) {
            defaults.perHost = value
        }
        if let node = keys["user_agent"]?.value {
            defaults.userAgent = reader.string(node, "'user_agent'")
        }
        if let node = keys["timezone"]?.value {
            defaults.timeZone = reader.timeZone(node, "'timezone'")
        }
        if let node = keys["max_size"]?.value, let value = reader.byteCount(node, "'max_size'") {
            defaults.maxResponseBytes = value
        }
        return defaults
    }

    private func readSources(_ node: YAMLNode, defaults: Defaults) -> [SourceConfig] {
        guard let items = reader.sequence(node, "'sources'") else { return [] }
        var sources: [SourceConfig] = []
        var seen: [String: Mark] = [:]
        for item in items {
            if let nameNode = item.mapping?.first(where: { $0.key.scalar == "name" })?.value, let name = nameNode.scalar {
                if let first = seen[name] {
                    reader.fail(item, "duplicate source name '\(name)' (first used at line \(first.line)); names must be unique")
                    continue
                }
                seen[name] = item.mark
            }
            if let source = readSource(item, defaults: defaults) { sources.append(source) }
        }
        return sources
    }

    private func readSource(_ node: YAMLNode, defaults: Defaults) -> SourceConfig? {
        guard let pairs = reader.mapping(node, "each source") else { return nil }
        let errorsBefore = reader.errors.count
        let nameNode = pairs.first { $0.key.scalar == "name" }?.value
        let name = nameNode.flatMap { reader.string($0, "'name'") }
        let label = name.map { "source '\($0)'" } ?? "the source at line \(node.mark.line)"
        if nameNode == nil { reader.fail(node, "\(label) has no 'name'") }
        if let name, name.isEmpty, let nameNode { reader.fail(nameNode, "a source's 'name' must not be empty") }

        let adapterNode = pairs.first { $0.key.scalar == "adapter" }?.value
        var adapterType: (any SourceAdapter.Type)?
        var adapterKind = ""
        if let adapterNode, let kind = reader.string(adapterNode, "'adapter'") {
            adapterKind = kind
            adapterType = registry.adapter(named: kind)
            if adapterType == nil {
                var message = "\(label): unknown adapter '\(kind)'"
                if let suggestion = Spelling.suggestion(for: kind, among: registry.names) {
                    message += "; did you mean '\(suggestion)'?"
                }
                message += " (run 'tributary adapters' to list them)"
                reader.fail(adapterNode, message)
            }
        } else if adapterNode == nil {
            reader.fail(node, "\(label) has no 'adapter' (run 'tributary adapters' to list them)")
        }

        // Common keys and, when the adapter is known, its own options.
        let optionSpecs = adapterType?.options ?? []
        var allowed = ConfigLoader.commonSourceKeys
        if adapterType != nil {
            allowed += optionSpecs.map(\.name)
        } else {
            allowed += pairs.compactMap(\.key.scalar).filter { !allowed.contains($0) }
        }
        let context = adapterType.map { "in \(label) (adapter '\($0.kind)')" } ?? "in \(label)"
        let keys = reader.keyed(pairs, allowed: allowed, context: context)

        let enabled = keys["enabled"].flatMap { reader.boolean($0.value, "'enabled'") } ?? true
        let maxItems = keys["max_items"].map { reader.integer($0.value, "'max_items'", in: 1...1_000_000) } ?? defaults.maxItems
        let timeout = keys["timeout"].flatMap { reader.positiveDuration($0.value, "'timeout'") } ?? defaults.timeout
        let staleAfter = keys["stale_after"].flatMap { reader.duration($0.value, "'stale_after'") } ?? defaults.staleAfter
        let interval = keys["interval"].map { readInterval($0.value) } ?? defaults.interval
        let backoff = keys["backoff"].map { readBackoff($0.value) } ?? defaults.backoff
        var weight = 1.0
        if let node = keys["weight"]?.value, let value = reader.number(node, "'weight'") {
            if value < 0 { reader.fail(node, "'weight' must not be negative") } else { weight = value }
        }
        let tags = keys["tags"].flatMap { reader.strings($0.value, "'tags'") } ?? []
        let timeZone = keys["timezone"].map { reader.timeZone($0.value, "'timezone'") } ?? adapterType?.defaultTimeZone ?? defaults.timeZone
        let insecure = keys["insecure"].flatMap { reader.boolean($0.value, "'insecure'") } ?? false
        let rules = keys["rules"].map { RulesReader(reader: reader).read($0.value, scope: " of \(label)") } ?? RuleSet()

        guard let adapterType, let name else { return nil }
        var values: [String: OptionValue] = [:]
        var positions: [String: (line: Int, column: Int)] = [:]
        for spec in optionSpecs {
            if let pair = keys[spec.name] {
                positions[spec.name] = (pair.key.mark.line, pair.key.mark.column)
                if let value = reader.optionValue(pair.value, kind: spec.kind, "'\(spec.name)'") {
                    values[spec.name] = value
                }
            } else if let value = spec.defaultValue {
                values[spec.name] = value
            } else if spec.isRequired, !keys.suggested.contains(spec.name) {
                reader.fail(node, "\(label): missing required option '\(spec.name)' for adapter '\(adapterType.kind)' (\(spec.help))")
            }
        }
        // The adapter reads its options even after a problem with another one (so that `check` lists the adapter's own
        // problems too), as long as every option it requires is there; it is not told again what was said already:
        // an option whose value was refused above is missing to it.
        let reported = reader.errors[errorsBefore...]
        guard reported.isEmpty || optionSpecs.allSatisfy({ !$0.isRequired || values[$0.name] != nil }) else { return nil }
        let options = AdapterOptions(
            file: reader.file, sourceName: name, sourcePosition: (node.mark.line, node.mark.column), values: values,
            positions: positions)
        let adapter: any SourceAdapter
        do {
            adapter = try adapterType.init(options: options)
        } catch {
            let reportedLines = Set(reported.compactMap(\.line))
            for problem in error.flattened where !reportedLines.contains(problem.line ?? 0) { reader.record(problem) }
            return nil
        }
        guard reported.isEmpty else { return nil }
        return SourceConfig(
            name: name, adapter: adapter, adapterKind: adapterKind, enabled: enabled, maxItems: maxItems,
            timeout: timeout, weight: weight, tags: tags, timeZone: timeZone, allowInsecureTLS: insecure, staleAfter: staleAfter,
            interval: interval, backoff: backoff, rules: rules, options: options, line: node.mark.line)
    }

    /// `interval`: a duration, or `off` (every run).
    private func readInterval(_ node: YAMLNode) -> Duration? {
        if reader.isOff(node) { return nil }
        guard let value = reader.duration(node, "'interval'") else { return nil }
        return value > .zero ? value : nil
    }

    /// `backoff`: the longest wait between a failing source's attempts, at least the first step's; or `off`.
    private func readBackoff(_ node: YAMLNode) -> Duration? {
        if reader.isOff(node) { return nil }
        guard let value = reader.duration(node, "'backoff'") else { return Defaults().backoff }
        if value < FetchSchedule.firstBackoff {
            reader.fail(node, "'backoff' must be at least \(DurationParser.format(FetchSchedule.firstBackoff)) (the first wait), or off")
        }
        return value
    }

    private func readDedup(_ node: YAMLNode) -> DedupConfig {
        var dedup = DedupConfig()
        guard let pairs = reader.mapping(node, "'dedup'") else { return dedup }
        let keys = reader.keyed(pairs, allowed: ["same_url", "near_duplicates", "tracking_parameters"], context: "in 'dedup'")
        if let node = keys["near_duplicates"]?.value {
            if reader.isOff(node) {
                dedup.nearDuplicates = nil
            } else if let value = reader.number(node, "'near_duplicates'") {
                if value > 0, value <= 1 {
                    dedup.nearDuplicates = value
                } else {
                    reader.fail(node, "'near_duplicates' must be between 0 and 1, or off")
                }
            }
        }
        if let node = keys["same_url"]?.value, let value = reader.boolean(node, "'same_url'") {
            dedup.sameURL = value
        }
        if let node = keys["tracking_parameters"]?.value, let names = reader.strings(node, "'tracking_parameters'") {
            dedup.trackingParameters = names
        }
        return dedup
    }

    private func readRanking(_ node: YAMLNode) -> RankingConfig {
        var ranking = RankingConfig()
        guard let pairs = reader.mapping(node, "'ranking'") else { return ranking }
        let keys = reader.keyed(pairs, allowed: ["strategy", "half_life", "diversity"], context: "in 'ranking'")
        if let node = keys["strategy"]?.value,
            let word = reader.choice(node, "'strategy'", among: RankingConfig.Strategy.allCases.map(\.rawValue)),
            let strategy = RankingConfig.Strategy(rawValue: word)
        {
            ranking.strategy = strategy
        }
        if let node = keys["half_life"]?.value, let value = reader.duration(node, "'half_life'") {
            if value <= .zero { reader.fail(node, "'half_life' must be longer than zero") } else { ranking.halfLife = value }
        }
        if let node = keys["diversity"]?.value, let pairs = reader.mapping(node, "'diversity'") {
            let keys = reader.keyed(pairs, allowed: ["max_per_source", "max_consecutive"], context: "in 'diversity'")
            if let node = keys["max_per_source"]?.value {
                ranking.maxPerSource = reader.integer(node, "'max_per_source'", in: 1...1_000_000)
            }
            if let node = keys["max_consecutive"]?.value {
                ranking.maxConsecutive = reader.integer(node, "'max_consecutive'", in: 1...1000)
            }
        }
        return ranking
    }

    private func readOutputs(_ node: YAMLNode, hasTopLevelLink: Bool, readFiles: [ReadFile]) -> [OutputConfig] {
        guard let items = reader.sequence(node, "'outputs'") else { return [] }
        var outputs: [OutputConfig] = []
        var paths: [String: Int] = [:]
        for item in items {
            guard let output = readOutput(item, hasTopLevelLink: hasTopLevelLink) else { continue }
            if let url = output.path {
                let path = Self.identity(url)
                let shown = output.displayPath ?? url.path
                if let line = paths[path] {
                    reader.fail(item, "two outputs write '\(shown)' (the other at line \(line))")
                    continue
                }
                if let file = readFiles.first(where: { $0.path == path }) {
                    let pathNode = item.mapping?.first { $0.key.scalar == "path" }?.value ?? item
                    reader.fail(pathNode, "'path' '\(shown)' is \(file.what): the output would overwrite it")
                    continue
                }
                paths[path] = item.mark.line
            }
            outputs.append(output)
        }
        return outputs
    }

    private func readOutput(_ node: YAMLNode, hasTopLevelLink: Bool) -> OutputConfig? {
        guard let pairs = reader.mapping(node, "each output") else { return nil }
        guard let typeNode = pairs.first(where: { $0.key.scalar == "type" })?.value else {
            reader.fail(node, "the output has no 'type' (one of: \(OutputConfig.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
            return nil
        }
        guard let word = reader.choice(typeNode, "'type'", among: OutputConfig.Kind.allCases.map(\.rawValue)),
            let kind = OutputConfig.Kind(rawValue: word)
        else { return nil }
        let allowed =
            switch kind {
            case .stdout: ["type", "limit", "title", "format", "rules"]
            case .atom, .jsonfeed, .rss: ["type", "limit", "title", "path", "url", "content", "rules"]
            case .html: ["type", "limit", "title", "path", "url", "content", "rules"]
            }
        let keys = reader.keyed(pairs, allowed: allowed, context: "in a '\(kind.rawValue)' output")
        let limit = keys["limit"].flatMap { reader.integer($0.value, "'limit'", in: 1...10_000_000) }
        let title = keys["title"].flatMap { reader.string($0.value, "'title'") }
        let url = keys["url"].flatMap { reader.string($0.value, "'url'") }
        if let node = keys["url"]?.value, let url, !Self.isAbsoluteWebURL(url) {
            reader.fail(node, "'url' of an '\(kind.rawValue)' output must be its public http(s) URL, found '\(url)'\(Self.schemeHint(url))")
        }
        // A page shows summaries unless asked for the full text; feeds carry the full text.
        var content = kind == .html ? OutputConfig.ContentMode.summary : .full
        if let node = keys["content"]?.value,
            let word = reader.choice(node, "'content'", among: OutputConfig.ContentMode.allCases.map(\.rawValue)),
            let value = OutputConfig.ContentMode(rawValue: word)
        {
            content = value
        }
        let rules =
            keys["rules"].map { RulesReader(reader: reader).read($0.value, scope: " of the '\(kind.rawValue)' output") } ?? RuleSet()
        if kind == .rss, keys["url"] == nil, !hasTopLevelLink {
            reader.fail(node, "the 'rss' output needs a 'url' (its public address) or a top-level 'link': RSS 2.0 requires a channel link")
        }
        var format = OutputConfig.Format.text
        if let node = keys["format"]?.value,
            let word = reader.choice(node, "'format'", among: OutputConfig.Format.allCases.map(\.rawValue)),
            let value = OutputConfig.Format(rawValue: word)
        {
            format = value
        }
        var path: URL?
        var displayPath: String?
        if kind != .stdout {
            if let node = keys["path"]?.value, let text = reader.string(node, "'path'") {
                if text.isEmpty || text.hasSuffix("/") {
                    reader.fail(node, "'path' must name a file, found '\(text)'")
                } else {
                    path = URLResolver.resolve(text, against: reader.directory)
                    displayPath = text
                }
            } else if keys["path"] == nil {
                reader.fail(node, "the '\(kind.rawValue)' output needs a 'path' for its file")
            }
            if path == nil { return nil }
        }
        return OutputConfig(
            kind: kind, path: path, displayPath: displayPath, url: url, limit: limit, title: title, format: format, content: content,
            rules: rules)
    }

    /// A suggestion for a web address written without its scheme (`www.example.org`), else nothing.
    static func schemeHint(_ text: String) -> String {
        guard text.lowercased().hasPrefix("www."), isAbsoluteWebURL("https://" + text) else { return "" }
        return "; did you mean 'https://\(text)'?"
    }

    /// Whether the text is an IRI with a scheme (RFC 3987): `scheme:rest`, no spaces or control characters.
    static func isIRI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else {
            return false
        }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return false }
        return !text.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
            && !text.contains { "<>\"{}|\\^`".contains($0) }
    }

    /// Whether the text is an absolute `http(s)` URL with a host that the outputs publish as it is written
    /// (`WebLink.page`; a space or a quote, which they would escape, is a mistake to point out here).
    static func isAbsoluteWebURL(_ text: String) -> Bool {
        WebLink.page(text) == text
    }
}
