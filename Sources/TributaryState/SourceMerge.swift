public import Foundation
public import TributaryModel

/// What a run got from one source.
public enum SourceOutcome: Sendable {
    /// The source answered with items.
    case fetched(items: [Item], feed: FeedInfo?, validators: StoredValidators?, httpStatus: Int?)
    /// The server said nothing changed since the validators sent (HTTP 304).
    case notModified(httpStatus: Int?)
    /// The source failed.
    case failed(error: String, httpStatus: Int?)
    /// The source was not fetched: its `interval` since the last attempt has not passed, or, while it fails, a
    /// deferral (``StoredDeferral``) holds. It contributes as it stands: a healthy source's stored items, a failing
    /// one's as a failure's (until `stale_after`), with no attempt counted.
    case deferred
}

/// How a source fared, as the river and the report see it.
public enum SourceStatus: String, Sendable, Hashable {
    /// Fetched and read.
    case ok
    /// Unchanged since the last run (HTTP 304); its stored items were used.
    case notModified = "not-modified"
    /// Failed, but its last good items are recent enough to be used.
    case stale
    /// Failed, and nothing of it is used.
    case failed
    /// Not fetched this run (its `interval` has not passed); its stored items were used.
    case deferred
}

/// One source's contribution to a run, worked out from its history and what it answered now.
public struct SourceMerge: Sendable {
    /// How the source fared.
    public var status: SourceStatus
    /// The items for the river, each with its first-seen time: what the source serves now (or last
    /// served, when unchanged or stale) first, then its remembered items within the retention period.
    public var items: [StoredItem]
    /// How many of the served items no run had seen before.
    public var newCount: Int { newIDs.count }
    /// The ids of the served items no run had seen before. (Not "first seen at this run's start": after the clock was
    /// put back, items an earlier run found are stored as first seen now too.)
    public private(set) var newIDs: Set<String> = []
    /// The feed's description: fresh, or remembered.
    public var feed: FeedInfo? { storedFeed.value }
    private var storedFeed: StoredFeed
    /// What the state must write.
    var update: SourceUpdate
    /// Whether the source's part of the river is what it was in the run before: that run read it (a failing source's
    /// items may have been left out), and now it answered 304, or 200 with the items the state holds as served (the
    /// same data, in any order: none new, changed, dropped, renamed or back from a tombstone) and the same description;
    /// and none of its items ages out now. A run in which this holds for every source makes the river the run before
    /// made.
    public private(set) var leavesRiverUnchanged = false

    /// The items for the river, an item without a date dated when it was first seen.
    public var riverItems: [Item] {
        items.map { stored in
            var item = stored.item
            if item.published == nil, item.updated == nil { item.published = stored.firstSeen }
            return item
        }
    }

    /// Keeps the ids of items identified by their link (RSS and Atom items without an id of their own) when only a
    /// neighbour changed: such an item has the digest of its link, or of its link and title while another item of the
    /// document shares the link (a changelog whose entries all link to one page). When a second item with its link
    /// comes or goes, the item would change ids and be published again as new; it keeps the id stored for the same
    /// link and title instead, as long as no other item of this fetch has that id.
    static func keepLinkIDs(_ items: inout [Item], stored: [String: StoredItem]) {
        guard !stored.isEmpty else { return }
        var ids: Set<String>?
        for index in items.indices {
            guard let url = items[index].url else { continue }
            let title = items[index].title ?? ""
            // Stored with this link and title already; one stored with another title is that item with a corrected
            // headline, unless the other id was stored with this very title.
            if let same = stored[items[index].id], (same.item.title ?? "") == title { continue }
            let linkID = StableID.digest(url)
            let sharedID = StableID.digest(url, title)
            let other: String
            switch items[index].id {
            case linkID: other = sharedID
            case sharedID: other = linkID
            default: continue
            }
            guard let known = stored[other], known.item.url == url, (known.item.title ?? "") == title else { continue }
            if ids == nil { ids = Set(items.map(\.id)) }
            guard ids?.insert(other).inserted == true else { continue }
            items[index].id = other
        }
    }

    /// Works out a source's contribution.
    ///
    /// - Parameters:
    ///   - retention: how long an item stays after it was first seen, once its source no longer serves it.
    ///   - staleAfter: how long after its last success a failing source's items are still used.
    /// The most items a source keeps in its history besides those it serves now: the newest by first-seen time stay,
    /// older ones age out early (and leave a tombstone). A source that serves new items at every fetch would otherwise
    /// grow the state, every run's memory and the outputs for the whole retention.
    public static let historyLimit = 10_000

    public static func merge(
        _ history: SourceHistory, outcome: SourceOutcome, now: Date, retention: TimeInterval, staleAfter: TimeInterval,
        historyLimit: Int = SourceMerge.historyLimit
    ) -> SourceMerge {
        let cutoff = now.addingTimeInterval(-retention)
        var update = SourceUpdate(history: history, now: now)
        // Times "after" now were recorded while the clock ran ahead: taken as now, and stored so, that the items are
        // neither dated in the future at every run nor kept past their retention for as long as the clock was wrong.
        var futureIDs = Set<String>()
        var history = history
        for index in history.items.indices where history.items[index].firstSeen > now || history.items[index].lastSeen > now {
            futureIDs.insert(history.items[index].item.id)
            update.clampedIDs.append(history.items[index].item.id)
            history.items[index].firstSeen = min(history.items[index].firstSeen, now)
            history.items[index].lastSeen = min(history.items[index].lastSeen, now)
        }
        switch outcome {
        case .fetched(var items, let feed, let validators, let httpStatus):
            let migrating = history.identityScheme.map { $0 != StableID.schemeVersion } ?? false
            var stored: [String: StoredItem] = [:]
            for entry in history.items { stored[entry.item.id] = entry }
            keepLinkIDs(&items, stored: stored)
            var storedByKey: [String: (id: String, firstSeen: Date, isTombstone: Bool)] = [:]
            if migrating {
                for tombstone in history.tombstones.values {
                    if let key = tombstone.matchKey { storedByKey[key] = (tombstone.id, tombstone.firstSeen, true) }
                }
                for entry in history.items { storedByKey[MatchKey.of(entry.item)] = (entry.item.id, entry.firstSeen, false) }
            }
            var current: [StoredItem] = []
            var seen = Set<String>()
            var newIDs = Set<String>()
            for item in items where seen.insert(item.id).inserted {
                var firstSeen = now
                if let known = stored[item.id] {
                    firstSeen = known.firstSeen
                } else if let tombstone = history.tombstones[item.id] {
                    firstSeen = min(tombstone.firstSeen, now)
                    update.revivedTombstones.append(item.id)
                } else if migrating, let old = storedByKey[MatchKey.of(item)], !seen.contains(old.id) {
                    firstSeen = min(old.firstSeen, now)
                    if old.isTombstone { update.revivedTombstones.append(old.id) } else { update.renamedIDs.append(old.id) }
                } else {
                    newIDs.insert(item.id)
                }
                current.append(StoredItem(item: item, firstSeen: firstSeen, lastSeen: now, served: true))
            }
            let renamed = Set(update.renamedIDs)
            var river = current
            var remembered: [StoredItem] = []
            for entry in history.items where !seen.contains(entry.item.id) && !renamed.contains(entry.item.id) {
                if entry.firstSeen >= cutoff {
                    remembered.append(StoredItem(item: entry.item, firstSeen: entry.firstSeen, lastSeen: entry.lastSeen, served: false))
                } else {
                    update.expired.append(entry)
                }
            }
            if remembered.count > historyLimit {
                // The newest stay (of items first seen together, those the source listed first), in the order they
                // were in; the rest age out now.
                let newestFirst = remembered.indices.sorted { a, b in
                    remembered[a].firstSeen != remembered[b].firstSeen ? remembered[a].firstSeen > remembered[b].firstSeen : a < b
                }
                let kept = Set(newestFirst.prefix(historyLimit))
                for index in remembered.indices where !kept.contains(index) {
                    let entry = remembered[index]
                    update.expired.append(StoredItem(item: entry.item, firstSeen: entry.firstSeen, lastSeen: entry.lastSeen, served: false))
                }
                remembered = remembered.indices.filter(kept.contains).map { remembered[$0] }
            }
            river += remembered
            // Only what changed is written: a source that answers 200 with the same items every
            // run (many have no validators) costs no rewrite of their rows.
            update.upserts = current.filter { entry in
                guard let known = stored[entry.item.id] else { return true }
                return !known.served || known.item != entry.item || futureIDs.contains(entry.item.id)
            }
            update.unservedIDs = history.items.filter { $0.served && !seen.contains($0.item.id) }.map(\.item.id)
            let described = feed.map { StoredFeed($0) } ?? history.storedFeed
            update.succeeded(validators: validators, httpStatus: httpStatus, feed: described)
            var merge = SourceMerge(status: .ok, items: river, storedFeed: described, update: update)
            merge.newIDs = newIDs
            merge.leavesRiverUnchanged =
                history.consecutiveFailures == 0 && newIDs.isEmpty && update.upserts.isEmpty && update.unservedIDs.isEmpty
                && update.renamedIDs.isEmpty && update.revivedTombstones.isEmpty && update.expired.isEmpty
                && (feed == nil || described.encoded == history.storedFeed.encoded)
            return merge

        case .notModified(let httpStatus):
            update.succeeded(validators: history.validators, httpStatus: httpStatus, feed: history.storedFeed)
            // The stored ids are as they were: only an answer with the items can move them to a new scheme.
            update.identityScheme = history.identityScheme
            return stored(history, status: .notModified, update: update, cutoff: cutoff)

        case .failed(let error, let httpStatus):
            update.failed(error: error, httpStatus: httpStatus)
            return failing(history, update: update, now: now, cutoff: cutoff, staleAfter: staleAfter)

        case .deferred:
            // No attempt was made: the last one stays the one an interval counts from.
            update.lastAttempt = history.lastAttempt.map { min($0, now) } ?? now
            if history.consecutiveFailures > 0 {
                return failing(history, update: update, now: now, cutoff: cutoff, staleAfter: staleAfter)
            }
            return stored(history, status: .deferred, update: update, cutoff: cutoff)
        }
    }

    /// The contribution of a source whose stored items stand for what it serves (a 304, or not fetched): the served
    /// ones and the others within the retention; older ones age out.
    private static func stored(_ history: SourceHistory, status: SourceStatus, update: SourceUpdate, cutoff: Date) -> SourceMerge {
        var update = update
        var river: [StoredItem] = []
        for entry in history.items {
            if entry.served || entry.firstSeen >= cutoff {
                river.append(entry)
            } else {
                update.expired.append(entry)
            }
        }
        var merge = SourceMerge(
            status: status, items: river.sorted { $0.served && !$1.served }, storedFeed: history.storedFeed, update: update)
        merge.leavesRiverUnchanged = history.consecutiveFailures == 0 && update.expired.isEmpty
        return merge
    }

    /// The contribution of a failing source: its last good items while its last success is within `staleAfter`.
    private static func failing(
        _ history: SourceHistory, update: SourceUpdate, now: Date, cutoff: Date, staleAfter: TimeInterval
    ) -> SourceMerge {
        var update = update
        for entry in history.items where !entry.served && entry.firstSeen < cutoff { update.expired.append(entry) }
        if let lastSuccess = update.lastSuccess, lastSuccess >= now.addingTimeInterval(-staleAfter) {
            let river = history.items.filter { $0.served || $0.firstSeen >= cutoff }.sorted { $0.served && !$1.served }
            return SourceMerge(status: .stale, items: river, storedFeed: history.storedFeed, update: update)
        }
        return SourceMerge(status: .failed, items: [], storedFeed: StoredFeed(nil), update: update)
    }

    /// Sets when the source, which failed now, may be asked again (nil: at the next run). Only a failure's merge keeps
    /// it: a success clears any deferral.
    public mutating func deferNextAttempt(_ deferral: StoredDeferral?) {
        guard status == .stale || status == .failed else { return }
        update.deferral = deferral
    }

    /// Records what the source was asked with this run (`SourceConfig.scheduleDigest`); a source that was not asked
    /// keeps what its last attempt was made with.
    public mutating func recordAttempt(settings: String) {
        update.attemptSettings = settings
    }

    /// When the source may be asked again, as this merge stores it.
    public var deferral: StoredDeferral? { update.deferral }
}

/// What the state writes for one source at the end of a run.
struct SourceUpdate: Sendable {
    var name: String
    var now: Date
    var lastAttempt: Date
    var lastSuccess: Date?
    var consecutiveFailures: Int
    var lastError: String?
    var lastHTTPStatus: Int?
    var validators: StoredValidators?
    var identityScheme: Int?
    var feed: StoredFeed
    /// Items to write as served now, with their first-seen times.
    var upserts: [StoredItem] = []
    /// Items the source served before and no longer serves.
    var unservedIDs: [String] = []
    /// Stored ids replaced by the same items' new ids.
    var renamedIDs: [String] = []
    /// Tombstones of items that came back.
    var revivedTombstones: [String] = []
    /// Items that aged out and become tombstones.
    var expired: [StoredItem] = []
    /// While the source fails: when it may be asked again.
    var deferral: StoredDeferral?
    /// The digest of what the source's last attempt was made with.
    var attemptSettings: String?
    /// Stored items whose first- or last-seen time lies after `now` (recorded while the clock ran ahead): stored as now.
    var clampedIDs: [String] = []

    init(history: SourceHistory, now: Date) {
        name = history.name
        self.now = now
        lastAttempt = now
        // A success "after" now was recorded while the clock ran ahead; counted from now, it cannot keep a failing
        // source's items in the river for as long as the clock was wrong.
        lastSuccess = history.lastSuccess.map { min($0, now) }
        consecutiveFailures = history.consecutiveFailures
        lastError = history.lastError
        lastHTTPStatus = history.lastHTTPStatus
        validators = history.validators
        identityScheme = history.identityScheme
        deferral = history.deferral
        attemptSettings = history.attemptSettings
        feed = history.storedFeed
    }

    mutating func succeeded(validators: StoredValidators?, httpStatus: Int?, feed: StoredFeed) {
        lastSuccess = now
        consecutiveFailures = 0
        lastError = nil
        lastHTTPStatus = httpStatus
        self.validators = validators
        identityScheme = StableID.schemeVersion
        self.feed = feed
        deferral = nil
    }

    mutating func failed(error: String, httpStatus: Int?) {
        consecutiveFailures += 1
        lastError = error
        lastHTTPStatus = httpStatus
    }
}
