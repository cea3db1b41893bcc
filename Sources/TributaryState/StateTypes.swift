public import Foundation
import TributaryJSON
public import TributaryModel

/// What identifies an item apart from its id: its link and title (or the start of its text when it
/// has neither). Used to carry an item's history over when the way ids are derived changes. Its
/// definition is part of the state format and never changes.
enum MatchKey {
    static func of(_ item: Item) -> String {
        if item.url == nil, item.title == nil {
            return "\n\n" + String((item.summary ?? item.contentHTML ?? "").prefix(200))
        }
        return (item.url ?? "") + "\n" + (item.title ?? "")
    }
}

/// An item as the state remembers it.
public struct StoredItem: Sendable, Hashable {
    /// The item as its source gave it (before the pipeline).
    public var item: Item
    /// When a run first saw it.
    public var firstSeen: Date
    /// When its stored copy was last written: when it was first seen, or last changed (an
    /// unchanged item, or a 304, writes nothing).
    public var lastSeen: Date
    /// Whether the source served it in its last successful fetch.
    public var served: Bool

    /// Creates a stored item.
    public init(item: Item, firstSeen: Date, lastSeen: Date, served: Bool) {
        self.item = item
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.served = served
    }
}

/// An item that aged out or was removed, remembered so that it does not come back as new.
public struct Tombstone: Sendable, Hashable {
    /// The item's id.
    public var id: String
    /// The item's match key.
    var matchKey: String?
    /// When it was first seen.
    public var firstSeen: Date
    /// When it was removed.
    public var removed: Date
}

/// The validators of a source's first request, sent back next run.
public struct StoredValidators: Sendable, Hashable {
    /// The URL they belong to.
    public var url: String
    /// The `ETag` received.
    public var etag: String?
    /// The `Last-Modified` received.
    public var lastModified: String?
    /// The digest of the source's settings when they were received (`SourceConfig.settingsDigest`): they are sent
    /// again only while the settings are the same, since a 304 brings back the items made with them.
    public var settings: String?

    /// Creates validators.
    public init(url: String, etag: String?, lastModified: String?, settings: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.settings = settings
    }
}

/// A time before which a failing source is not asked again, and why.
public struct StoredDeferral: Sendable, Hashable {
    /// Why the source waits.
    public enum Reason: String, Sendable, Hashable {
        /// The server asked for it (`Retry-After` with a 429 or 503).
        case retryAfter = "retry-after"
        /// It failed several times in a row: each further failure doubles the wait, up to `backoff`.
        case backoff
    }

    /// Until when the source is not fetched.
    public var until: Date
    /// Why.
    public var reason: Reason

    /// Creates a deferral.
    public init(until: Date, reason: Reason) {
        self.until = until
        self.reason = reason
    }
}

/// Everything the state knows about one source.
public struct SourceHistory: Sendable {
    /// The source's name.
    public var name: String
    /// When a run last tried it.
    public var lastAttempt: Date?
    /// When it last succeeded (a 304 counts).
    public var lastSuccess: Date?
    /// Failures since the last success.
    public var consecutiveFailures: Int = 0
    /// The last failure's message.
    public var lastError: String?
    /// The HTTP status of its last first request.
    public var lastHTTPStatus: Int?
    /// The validators to send with its first request.
    public var validators: StoredValidators?
    /// The version of `StableID` its stored ids were derived with.
    public var identityScheme: Int?
    /// While it fails: when it may be asked again.
    public var deferral: StoredDeferral?
    /// The digest of what its last attempt was made with (`SourceConfig.scheduleDigest`): a wait holds only while it is
    /// the same.
    public var attemptSettings: String?
    /// Its feed's description from the last success.
    public var feed: FeedInfo? {
        get { storedFeed.value }
        set { storedFeed = StoredFeed(newValue) }
    }
    /// The same, as the state file holds it.
    var storedFeed = StoredFeed(nil)
    /// Its remembered items, served or not, in the order they were stored.
    public var items: [StoredItem] = []
    /// Its tombstones, by id.
    public var tombstones: [String: Tombstone] = [:]

    /// An empty history: a source the state has never seen.
    public init(name: String) {
        self.name = name
    }
}

/// A feed description as the state file holds it: the stored text is decoded only when the description is asked for,
/// and written back as it was when it did not change, so that a run that needs none (every source answered 304 and the
/// river is unchanged) neither decodes nor encodes one.
struct StoredFeed: Sendable {
    private var text: String?
    private var decoded: FeedInfo?

    /// A description given as a value.
    init(_ feed: FeedInfo?) {
        decoded = feed
    }

    /// A description as the state file holds it.
    init(text: String?) {
        self.text = text
    }

    /// The description (nil when there is none or the text is not one).
    var value: FeedInfo? { decoded ?? text.flatMap(ItemCodec.decodeFeed) }

    /// The text to store.
    var encoded: String? { text ?? decoded.map(ItemCodec.encode) }
}

/// One source's health, for `tributary status`.
public struct SourceHealth: Sendable, Hashable {
    /// The source's name.
    public var name: String
    /// When a run last tried it.
    public var lastAttempt: Date?
    /// When it last succeeded.
    public var lastSuccess: Date?
    /// Failures since the last success.
    public var consecutiveFailures: Int
    /// The last failure's message.
    public var lastError: String?
    /// The HTTP status of its last first request.
    public var lastHTTPStatus: Int?
    /// How many items the state holds for it.
    public var storedItems: Int
    /// While it fails: when it may be asked again.
    public var deferral: StoredDeferral?
    /// The digest of what its last attempt was made with.
    public var attemptSettings: String?

    /// Its history, as far as the health tells it (no items, validators or description).
    public var history: SourceHistory {
        var history = SourceHistory(name: name)
        history.lastAttempt = lastAttempt
        history.lastSuccess = lastSuccess
        history.consecutiveFailures = consecutiveFailures
        history.lastError = lastError
        history.lastHTTPStatus = lastHTTPStatus
        history.deferral = deferral
        history.attemptSettings = attemptSettings
        return history
    }
}

/// One finished run, as the state records it.
public struct RunRecord: Sendable, Hashable {
    /// When it started.
    public var started: Date
    /// How long it took, in seconds.
    public var duration: Double
    /// Its exit status.
    public var status: Int
    /// How many sources ran.
    public var sources: Int
    /// How many failed.
    public var failed: Int
    /// How many items the river held.
    public var items: Int
    /// How many items were new.
    public var newItems: Int

    /// Creates a record.
    public init(started: Date, duration: Double, status: Int, sources: Int, failed: Int, items: Int, newItems: Int) {
        self.started = started
        self.duration = duration
        self.status = status
        self.sources = sources
        self.failed = failed
        self.items = items
        self.newItems = newItems
    }
}

/// What a run that keeps the river checks and reports of the stored items.
public struct RiverFacts: Sendable, Equatable {
    /// How many items each source served in its last successful fetch.
    public var servedCounts: [String: Int]
    /// When the oldest item no source serves any more was first seen: the next to age out.
    public var oldestUnservedFirstSeen: Date?

    /// The `meta` keys they are recorded under, and the id of the last run they hold through.
    static let key = "river_facts"
    static let runKey = "river_facts_run"

    init(servedCounts: [String: Int], oldestUnservedFirstSeen: Date?) {
        self.servedCounts = servedCounts
        self.oldestUnservedFirstSeen = oldestUnservedFirstSeen
    }

    /// Counted from the items.
    init(counting database: SQLiteConnection) throws(SQLiteError) {
        let served = try database.prepare("SELECT source, COUNT(*) FROM items WHERE served = 1 GROUP BY source")
        var counts: [String: Int] = [:]
        while try served.step() { counts[served.text(0) ?? ""] = served.int(1) }
        let oldest = try database.prepare("SELECT MIN(first_seen) FROM items WHERE served = 0")
        self.init(
            servedCounts: counts,
            oldestUnservedFirstSeen: try oldest.step() ? oldest.optionalDouble(0).map(Date.init(timeIntervalSince1970:)) : nil)
    }

    /// As recorded: JSON, `{"oldest_unserved": seconds, "served": {source: count}}`.
    init?(encoded text: String) {
        guard let value = try? JSON.parse(text), case .object(let served)? = value["served"] else { return nil }
        var counts: [String: Int] = [:]
        for (name, count) in served {
            guard let count = count.int else { return nil }
            counts[name] = count
        }
        self.init(servedCounts: counts, oldestUnservedFirstSeen: value["oldest_unserved"]?.double.map(Date.init(timeIntervalSince1970:)))
    }

    var encoded: String {
        var served = JSONObject()
        for (name, count) in servedCounts.sorted(by: { $0.key < $1.key }) { served[name] = .number(JSONNumber(count)) }
        var object = JSONObject()
        object["served"] = .object(served)
        object["oldest_unserved"] = oldestUnservedFirstSeen.flatMap { JSONNumber($0.timeIntervalSince1970) }.map(JSONValue.number)
        return JSONWriter.string(from: .object(object), style: .compact)
    }
}
