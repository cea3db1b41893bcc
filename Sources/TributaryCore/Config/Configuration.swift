public import Foundation
public import TributaryModel

/// A validated configuration: what `feeds.yaml` says, typed, with every path made absolute.
public struct Configuration: Sendable {
    /// The configuration file as the user named it (used in messages).
    public var file: String
    /// The folder that relative paths and `file:` URLs resolve against.
    public var directory: URL
    /// The combined feed's title.
    public var title: String
    /// The combined feed's id (an IRI); derived from the output's URL or the title when absent.
    public var id: String?
    /// The combined feed's home page.
    public var link: String?
    /// The combined feed's author (Atom requires one).
    public var author: Author?
    /// Settings every source inherits.
    public var defaults: Defaults
    /// The sources, in file order, disabled ones included.
    public var sources: [SourceConfig]
    /// The global block and keep rules.
    public var rules: RuleSet
    /// How duplicates are merged.
    public var dedup: DedupConfig
    /// How the river is ordered.
    public var ranking: RankingConfig
    /// Where the river goes.
    public var outputs: [OutputConfig]
    /// The state file (`state:`), by default `.tributary/state.sqlite` beside the configuration;
    /// nil when the configuration says `state: off`.
    public var statePath: URL?
    /// How long an item stays in the river after it was first seen, once its source no longer serves it.
    public var retention: Duration

    /// A digest of the configuration's text and the environment values it reads (set by the
    /// loader): equal digests mean the same configuration.
    public var digest: String?

    /// Whether the river depends only on the items, not on the time of the run: `date` ranking,
    /// no rule on age, no output that shows relative times. Only such a river can be known to be
    /// unchanged when no source changed.
    public var riverIsTimeIndependent: Bool {
        guard ranking.strategy == .date, !outputs.contains(where: { $0.kind == .html || $0.kind == .stdout }) else { return false }
        let ruleSets = [rules] + sources.map(\.rules) + outputs.map(\.rules)
        return !ruleSets.contains { $0.dependsOnTime }
    }

    /// The retention period when the configuration names none: 30 days.
    public static let defaultRetention: Duration = .seconds(30 * 24 * 3600)

    /// The sources that will run.
    public var enabledSources: [SourceConfig] { sources.filter(\.enabled) }
}

/// Settings that apply to every source unless the source overrides them.
public struct Defaults: Sendable, Hashable {
    /// How long one attempt to fetch may take.
    public var timeout: Duration = .seconds(30)
    /// How many items a source may contribute at most; nil for `SourceConfig.defaultItemLimit`.
    public var maxItems: Int?
    /// How many sources are fetched at once.
    public var jobs: Int = 8
    /// How many connections one host gets at once.
    public var perHost: Int = 2
    /// The User-Agent sent with every request; nil for Tributary's own.
    public var userAgent: String?
    /// The time zone for dates that carry none (IANA name); nil for UTC.
    public var timeZone: String?
    /// The largest response body accepted, in bytes.
    public var maxResponseBytes: Int = 20 * 1024 * 1024
    /// How long after its last success a failing source's items are still used.
    public var staleAfter: Duration = .seconds(24 * 3600)
    /// The least time between two fetches of a healthy source; nil to fetch it at every run.
    public var interval: Duration?
    /// The longest a source that keeps failing waits between attempts; nil to try it at every run.
    public var backoff: Duration? = .seconds(6 * 3600)

    /// Settings with their documented defaults.
    public init() {}
}

/// One entry of `sources:`.
public struct SourceConfig: Sendable {
    /// Creates a source entry; the loader does this, and tests may too.
    public init(
        name: String, adapter: any SourceAdapter, adapterKind: String? = nil, enabled: Bool = true,
        maxItems: Int? = nil, timeout: Duration = .seconds(30), weight: Double = 1, tags: [String] = [],
        timeZone: String? = nil, allowInsecureTLS: Bool = false, staleAfter: Duration = .seconds(24 * 3600),
        interval: Duration? = nil, backoff: Duration? = .seconds(6 * 3600), rules: RuleSet = RuleSet(), options: AdapterOptions,
        line: Int = 1
    ) {
        self.name = name
        self.adapter = adapter
        self.adapterKind = adapterKind ?? type(of: adapter).kind
        self.enabled = enabled
        self.maxItems = maxItems
        self.timeout = timeout
        self.weight = weight
        self.tags = tags
        self.timeZone = timeZone
        self.allowInsecureTLS = allowInsecureTLS
        self.staleAfter = staleAfter
        self.interval = interval
        self.backoff = backoff
        self.rules = rules
        self.options = options
        self.line = line
    }

    /// The most items a source without `max_items` contributes from one fetch; the rest are left out with a warning.
    /// Far above what a real feed serves (a podcast's whole archive is a few thousand), it keeps one hostile
    /// response (20 MB of `<item/>`, over 600,000 of them) from taking a gigabyte of memory and filling every output
    /// and the state. `max_items` raises it, up to 1,000,000.
    public static let defaultItemLimit = 10_000

    /// The most items the source contributes from one fetch: `max_items`, else `defaultItemLimit`.
    public var itemLimit: Int { maxItems ?? SourceConfig.defaultItemLimit }

    /// The unique name of the source; items carry it as `source`.
    public var name: String
    /// The adapter kind as written (`jsonfeed`, `rss`, `qdaily`, …).
    public var adapterKind: String
    /// The adapter, built from the source's options.
    public var adapter: any SourceAdapter
    /// Whether the source runs.
    public var enabled: Bool
    /// How many items the source contributes at most (`max_items`); nil when not set, for `defaultItemLimit`.
    public var maxItems: Int?
    /// How long one fetch attempt may take.
    public var timeout: Duration
    /// The source's weight in ranking and when choosing among duplicates (1 is neutral).
    public var weight: Double
    /// Tags added to every item of the source.
    public var tags: [String]
    /// The time zone for dates that carry none (IANA name); nil for UTC.
    public var timeZone: String?
    /// Whether TLS certificates of this source go unchecked (`insecure: true`; off by default).
    public var allowInsecureTLS: Bool
    /// How long after its last success the source's items are still used while it fails (`stale_after`).
    public var staleAfter: Duration
    /// The least time between two fetches while the source is healthy (`interval`); nil to fetch it at every run.
    public var interval: Duration?
    /// The longest the source waits between attempts while it keeps failing (`backoff`); nil to try it at every run.
    public var backoff: Duration?
    /// The source's own block and keep rules (applied before the global ones).
    public var rules: RuleSet
    /// The adapter's own options, validated against its declaration.
    public var options: AdapterOptions
    /// Where the source's entry starts in the file.
    public var line: Int

    /// How long after its last success a failing source's items are still used, in seconds: `stale_after`, counted
    /// from when the source was next due. A source fetched once per `interval` has a last success up to an interval
    /// old when it is next asked; one failure then must not drop its items at once.
    public var staleWindow: TimeInterval {
        staleAfter.inSeconds + (interval?.inSeconds ?? 0)
    }

    /// A digest of what the source is asked with: what shapes its items (``settingsDigest``), its timeout, whether TLS
    /// is checked, and its backoff. A source that waits (its interval, a backoff, a server's `Retry-After`) is asked
    /// at once when it changes: the user edited the source, most likely to mend it.
    public var scheduleDigest: String { digests.schedule }

    /// Both digests, the settings one computed once: what a run asks of each source (the schedule's, the validators').
    public var digests: (settings: String, schedule: String) {
        let settings = settingsDigest
        let schedule = StableID.digest([
            settings, String(timeout.inMilliseconds), allowInsecureTLS ? "insecure" : "-", backoff.map { String($0.inMilliseconds) } ?? "-",
        ])
        return (settings, schedule)
    }

    /// A digest of what shapes the items made of the source's answers (its adapter and options, item limit and time
    /// zone) and of the Tributary that makes them. The state keeps it with the source's validators and sends them
    /// again only while it is the same: after a change a 304 would bring back items made the old way, so the source
    /// is read afresh once instead.
    public var settingsDigest: String {
        StableID.digest([
            Tributary.version, adapterKind, maxItems.map(String.init) ?? "-", timeZone ?? "-", options.digestText,
        ])
    }
}

/// The `dedup:` section.
public struct DedupConfig: Sendable, Hashable {
    /// Whether items are merged when their links are the same after normalization.
    public var sameURL: Bool = true
    /// The similarity at or above which headlines are the same story (0…1); nil turns it off.
    public var nearDuplicates: Double? = NearDuplicateDetector.defaultThreshold
    /// Query parameters removed from links besides `utm_*` and the usual trackers.
    public var trackingParameters: [String] = []

    /// The documented defaults.
    public init() {}
}

/// The `ranking:` section.
public struct RankingConfig: Sendable, Hashable {
    /// How the river is ordered.
    public enum Strategy: String, Sendable, Hashable, CaseIterable {
        /// Newest first.
        case date
        /// By a score of engagement (normalized within each source), source weight and age decay.
        case hot
    }

    /// How the river is ordered.
    public var strategy: Strategy = .date
    /// For `hot`: the age at which an item's score has halved.
    public var halfLife: Duration = .seconds(12 * 3600)
    /// The most items one source may have in the river; nil for no limit.
    public var maxPerSource: Int?
    /// The most items in a row from one source; later ones move down; nil for no limit.
    public var maxConsecutive: Int?

    /// The documented defaults.
    public init() {}
}

/// One entry of `outputs:`.
public struct OutputConfig: Sendable, Hashable {
    /// The kind of output.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Atom 1.0 to a file.
        case atom
        /// JSON Feed 1.1 to a file.
        case jsonfeed
        /// RSS 2.0 to a file.
        case rss
        /// A self-contained HTML page (the river grouped by day) to a file.
        case html
        /// A listing on standard output.
        case stdout
    }

    /// What the listing on standard output looks like.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// A readable list for a person.
        case text
        /// JSON Feed 1.1.
        case json
    }

    /// How much of each item an output carries (a page shows the summary or the content).
    public enum ContentMode: String, Sendable, Hashable, CaseIterable {
        /// The full content HTML when the item has it.
        case full
        /// Only the plain-text summary (readers open the link for the rest).
        case summary
    }

    /// The kind of output.
    public var kind: Kind
    /// The file to write (absolute); nil for `stdout`.
    public var path: URL?
    /// The path as written in the configuration, for messages.
    public var displayPath: String?
    /// The public URL of the file: the feed's self link, the HTML page's canonical link.
    public var url: String?
    /// The most items written; nil for all.
    public var limit: Int?
    /// A title for this output instead of the configuration's.
    public var title: String?
    /// The listing's format, for `stdout`.
    public var format: Format
    /// How much of each item the output carries.
    public var content: ContentMode = .full
    /// This output's own block and keep rules, applied to the river before `limit` (e.g. one
    /// output per tag); empty lets every item of the river through.
    public var rules = RuleSet()

    /// Whether two outputs are configured alike; rules compare by where they are written.
    public static func == (lhs: OutputConfig, rhs: OutputConfig) -> Bool {
        lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.displayPath == rhs.displayPath && lhs.url == rhs.url
            && lhs.limit == rhs.limit && lhs.title == rhs.title && lhs.format == rhs.format && lhs.content == rhs.content
            && lhs.ruleLocations == rhs.ruleLocations
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(path)
        hasher.combine(displayPath)
        hasher.combine(url)
        hasher.combine(limit)
        hasher.combine(title)
        hasher.combine(format)
        hasher.combine(content)
        hasher.combine(ruleLocations)
    }

    private var ruleLocations: [[String]] { [rules.block.map(\.location), rules.keep.map(\.location)] }
}
