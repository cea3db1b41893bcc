import Foundation
import TestSupport
import Testing
import TributaryModel

@testable import TributaryState

/// Runs through a real state file, one simulated run at a time.
struct Timeline {
    let store: StateStore
    var now = Date(timeIntervalSince1970: 1_780_000_000)
    var retention: TimeInterval = 30 * 86400
    var staleAfter: TimeInterval = 86400
    var historyLimit = SourceMerge.historyLimit
    var tombstoneLimit = StateStore.tombstoneLimit

    init(_ folder: TemporaryDirectory) throws {
        store = try StateStore(path: folder.path("state.sqlite"))
    }

    /// One run of source "s" with the given answer; returns its merge after committing it.
    @discardableResult
    mutating func run(_ outcome: SourceOutcome, after interval: TimeInterval = 3600, keepsItems: Bool = false) throws -> SourceMerge {
        now = now.addingTimeInterval(interval)
        let history = try #require(try store.histories(for: ["s"])["s"])
        let merge = SourceMerge.merge(
            history, outcome: outcome, now: now, retention: retention, staleAfter: staleAfter, historyLimit: historyLimit)
        try store.commit(
            [merge],
            run: RunRecord(started: now, duration: 0, status: 0, sources: 1, failed: 0, items: merge.items.count, newItems: merge.newCount),
            retention: retention, keepsItems: keepsItems, tombstoneLimit: tombstoneLimit)
        return merge
    }

    static func fetched(_ ids: [String]) -> SourceOutcome {
        .fetched(
            items: ids.map { Item(id: $0, source: "s", url: "https://e.com/\($0)", title: "Title \($0)") }, feed: nil, validators: nil,
            httpStatus: 200)
    }
}

@Suite("Merging a source's answer with its history")
struct SourceMergeTests {
    /// An RSS item without a guid is its link, unless another item of its document shares the link (then its link and
    /// title). A second item that comes or goes with the same link changed the first one's id: it was published again
    /// as new (a changelog page with one entry, then two). It keeps the id stored for its link and title.
    @Test("An item identified by its link keeps its id when another item with that link comes or goes")
    func linkIDsStayWhenASiblingComesOrGoes() throws {
        let folder = try TemporaryDirectory()
        var timeline = try Timeline(folder)
        let link = "https://e.com/changelog"
        func item(_ title: String, shared: Bool) -> Item {
            Item(id: shared ? StableID.digest(link, title) : StableID.digest(link), source: "s", url: link, title: title)
        }
        func fetched(_ items: [Item]) -> SourceOutcome { .fetched(items: items, feed: nil, validators: nil, httpStatus: 200) }
        let notes = StableID.digest(link)

        var merge = try timeline.run(fetched([item("Release notes", shared: false)]))
        #expect(merge.newCount == 1)
        merge = try timeline.run(fetched([item("Hotfix", shared: true), item("Release notes", shared: true)]))
        #expect(merge.newCount == 1, "only the hotfix is new")
        #expect(merge.items.map(\.item.id) == [StableID.digest(link, "Hotfix"), notes])
        merge = try timeline.run(fetched([item("Release notes", shared: false)]))
        #expect(merge.newCount == 0)
        #expect(merge.items.first?.item.id == notes)

        // Two that shared the link from the start: the one left keeps its id too.
        merge = try timeline.run(fetched([item("v2", shared: true), item("v1", shared: true)]))
        #expect(merge.newCount == 2)
        merge = try timeline.run(fetched([item("v2", shared: false)]))
        #expect(merge.newCount == 0)
        #expect(merge.items.first?.item.id == StableID.digest(link, "v2"))
        // Alone at the link with another title, it is the item at that link with a corrected headline.
        merge = try timeline.run(fetched([item("v3", shared: false)]))
        #expect(merge.newCount == 0)
    }
    /// A source that serves new items at every fetch grew the state, each run's memory and the outputs for the whole
    /// retention (an auditor's 100,000 new items a fetch: 40 MB of state and 200 MB of memory more at every run).
    @Test("A source keeps at most historyLimit items besides those it serves, and at most tombstoneLimit tombstones")
    func historyIsBounded() throws {
        let folder = try TemporaryDirectory()
        var timeline = try Timeline(folder)
        timeline.historyLimit = 3
        timeline.tombstoneLimit = 5
        for run in 0..<8 {
            let merge = try timeline.run(Timeline.fetched(["n\(run)a", "n\(run)b"]))
            #expect(merge.newCount == 2)
            #expect(merge.items.count == min(2 + 2 * run, 5), "run \(run): 2 served and at most 3 remembered")
        }
        let history = try #require(try timeline.store.histories(for: ["s"])["s"])
        #expect(history.items.count == 5)
        #expect(
            Set(history.items.filter { !$0.served }.map(\.item.id)) == ["n6a", "n6b", "n5a"],
            "the newest are remembered, the first listed of a fetch first")
        #expect(history.tombstones.count == 5, "the newest tombstones are kept")
        // An item with a tombstone is not new when it comes back; one whose tombstone was let go is.
        let back = try timeline.run(Timeline.fetched(["n4b", "n0a"]))
        #expect(back.newCount == 1)
    }

    @Test("First-seen times stay put across runs; only unseen ids are new")
    func firstSeenIsStable() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        let first = try timeline.run(Timeline.fetched(["a", "b"]))
        #expect(first.newCount == 2)
        let firstSeen = timeline.now
        let second = try timeline.run(Timeline.fetched(["c", "a", "b"]))
        #expect(second.newCount == 1)
        let byID = Dictionary(uniqueKeysWithValues: second.items.map { ($0.item.id, $0) })
        #expect(byID["a"]?.firstSeen == firstSeen)
        #expect(byID["c"]?.firstSeen == timeline.now)
        #expect(second.items.prefix(3).map(\.item.id) == ["c", "a", "b"], "served items first, in the source's order")
    }

    @Test("The river is left as it was by a 304 or a 200 with the stored items, in any order; not by anything new, changed or gone")
    func leavesRiverUnchanged() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        #expect(try timeline.run(Timeline.fetched(["a", "b"])).leavesRiverUnchanged == false, "both items are new")
        #expect(try timeline.run(Timeline.fetched(["a", "b"])).leavesRiverUnchanged)
        #expect(try timeline.run(Timeline.fetched(["b", "a"])).leavesRiverUnchanged, "the same items in another order")
        #expect(try timeline.run(.notModified(httpStatus: 304)).leavesRiverUnchanged)
        #expect(try timeline.run(Timeline.fetched(["a", "b", "c"])).leavesRiverUnchanged == false, "c is new")
        #expect(try timeline.run(Timeline.fetched(["a", "b"])).leavesRiverUnchanged == false, "c is no longer served")
        let edited = SourceOutcome.fetched(
            items: [
                Item(id: "a", source: "s", url: "https://e.com/a", title: "Title a, edited"),
                Item(id: "b", source: "s", url: "https://e.com/b", title: "Title b"),
            ],
            feed: nil, validators: nil, httpStatus: 200)
        #expect(try timeline.run(edited).leavesRiverUnchanged == false, "a's title changed")
        #expect(try timeline.run(edited).leavesRiverUnchanged)

        // The feed's description counts; an answer without one keeps the stored one.
        func described(_ title: String?) -> SourceOutcome {
            guard case .fetched(let items, _, _, let status) = edited else { return edited }
            return .fetched(items: items, feed: title.map { FeedInfo(title: $0) }, validators: nil, httpStatus: status)
        }
        #expect(try timeline.run(described("Feed")).leavesRiverUnchanged == false)
        #expect(try timeline.run(described("Feed")).leavesRiverUnchanged)
        #expect(try timeline.run(described(nil)).leavesRiverUnchanged)
        #expect(try timeline.run(described("Renamed")).leavesRiverUnchanged == false)

        // After a failure the last river may have lacked the source's items: not unchanged, whatever it answers.
        #expect(try timeline.run(.failed(error: "down", httpStatus: 503)).leavesRiverUnchanged == false)
        #expect(try timeline.run(described("Renamed")).leavesRiverUnchanged == false)
        #expect(try timeline.run(described("Renamed")).leavesRiverUnchanged)
    }

    @Test("A 200 with the same items rewrites nothing; a changed item is rewritten; a dropped one stops being served")
    func onlyChangesAreWritten() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        try timeline.run(Timeline.fetched(["a", "b"]))
        let first = timeline.now
        try timeline.run(Timeline.fetched(["a", "b"]))
        var history = try #require(try timeline.store.histories(for: ["s"])["s"])
        #expect(history.items.allSatisfy { $0.lastSeen == first && $0.served }, "unchanged rows were not written")
        let edited = Item(id: "a", source: "s", url: "https://e.com/a", title: "Title a, corrected")
        try timeline.run(.fetched(items: [edited], feed: nil, validators: nil, httpStatus: 200))
        history = try #require(try timeline.store.histories(for: ["s"])["s"])
        let byID = Dictionary(uniqueKeysWithValues: history.items.map { ($0.item.id, $0) })
        #expect(byID["a"]?.item.title == "Title a, corrected")
        #expect(byID["a"]?.lastSeen == timeline.now && byID["a"]?.firstSeen == first)
        #expect(byID["b"]?.served == false && byID["b"]?.lastSeen == first)
        let again = try timeline.run(Timeline.fetched(["b"]))
        #expect(again.newCount == 0)
        history = try #require(try timeline.store.histories(for: ["s"])["s"])
        #expect(history.items.first { $0.item.id == "b" }?.served == true)
        #expect(history.items.first { $0.item.id == "a" }?.served == false)
    }

    @Test("The river keeps items the source no longer serves, until retention after they were first seen")
    func historyAndRetention() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        timeline.retention = 10 * 86400
        try timeline.run(Timeline.fetched(["old"]))
        let later = try timeline.run(Timeline.fetched(["new"]), after: 86400)
        #expect(later.items.map(\.item.id) == ["new", "old"])
        #expect(later.items.map(\.served) == [true, false])
        let expired = try timeline.run(Timeline.fetched(["new"]), after: 10 * 86400)
        #expect(expired.items.map(\.item.id) == ["new"], "'old' aged out")
        let history = try #require(try timeline.store.histories(for: ["s"])["s"])
        #expect(history.tombstones["old"] != nil, "an aged-out item leaves a tombstone")
        #expect(!history.items.contains { $0.item.id == "old" })
        let back = try timeline.run(Timeline.fetched(["new", "old"]))
        #expect(back.newCount == 0, "an item that comes back within the tombstone's life is not new")
        #expect(back.items.first { $0.item.id == "old" }?.firstSeen == Date(timeIntervalSince1970: 1_780_000_000 + 3600))
    }

    @Test("An item the source still serves stays, however old")
    func servedItemsNeverAgeOut() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        timeline.retention = 86400
        try timeline.run(Timeline.fetched(["evergreen"]))
        let much = try timeline.run(Timeline.fetched(["evergreen"]), after: 90 * 86400)
        #expect(much.items.map(\.item.id) == ["evergreen"])
        #expect(much.newCount == 0)
    }

    @Test("Not modified: the served items come back from the state, validators kept")
    func notModified() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        let validators = StoredValidators(url: "http://127.0.0.1/f", etag: "\"1\"", lastModified: nil)
        let described = FeedInfo(title: "F", homePageURL: "https://e.com/", language: "zh")
        try timeline.run(.fetched(items: [Item(id: "a", source: "s")], feed: described, validators: validators, httpStatus: 200))
        let storedFeed = { try timeline.store.text("SELECT feed FROM sources WHERE name = 's'") }
        let written = try storedFeed()
        let unchanged = try timeline.run(.notModified(httpStatus: 304))
        #expect(unchanged.status == .notModified)
        #expect(unchanged.items.map(\.item.id) == ["a"])
        #expect(unchanged.items.allSatisfy { $0.served })
        #expect(unchanged.feed == described)
        let history = try #require(try timeline.store.histories(for: ["s"])["s"])
        #expect(history.validators == validators)
        #expect(history.lastSuccess == timeline.now)
        #expect(history.items.first?.lastSeen == timeline.now.addingTimeInterval(-3600), "a 304 writes nothing per item")
        #expect(history.feed == described)
        #expect(try storedFeed() == written, "the stored description is written back as it was")
        let fetched = try timeline.run(.fetched(items: [Item(id: "a", source: "s")], feed: nil, validators: nil, httpStatus: 200))
        #expect(fetched.feed == described, "a feed that describes nothing keeps the remembered description")
        #expect(try timeline.store.histories(for: ["s"])["s"]?.feed == described)
    }

    @Test("A failing source serves its last good items while they are fresh enough, then nothing")
    func staleFallback() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        timeline.staleAfter = 6 * 3600
        try timeline.run(Timeline.fetched(["a", "b"]))
        let stale = try timeline.run(.failed(error: "HTTP 503", httpStatus: 503), after: 3600)
        #expect(stale.status == .stale)
        #expect(stale.items.map(\.item.id) == ["a", "b"])
        let expired = try timeline.run(.failed(error: "HTTP 503", httpStatus: 503), after: 6 * 3600)
        #expect(expired.status == .failed)
        #expect(expired.items.isEmpty)
        let history = try #require(try timeline.store.histories(for: ["s"])["s"])
        #expect(history.consecutiveFailures == 2)
        #expect(history.items.count == 2, "the items are kept for when the source recovers")
        let recovered = try timeline.run(Timeline.fetched(["a", "b"]))
        #expect(recovered.newCount == 0)
        #expect(try timeline.store.histories(for: ["s"])["s"]?.consecutiveFailures == 0)
    }

    @Test("A source that never worked has nothing to fall back on")
    func neverWorked() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        let failed = try timeline.run(.failed(error: "no", httpStatus: nil))
        #expect(failed.status == .failed && failed.items.isEmpty)
    }

    @Test("A success recorded while the clock ran a year ahead keeps a failing source stale for stale_after, not a year")
    func clockSetBack() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        let start = timeline.now
        try timeline.run(Timeline.fetched(["a"]), after: 365 * 86400)
        timeline.now = start
        let first = try timeline.run(.failed(error: "down", httpStatus: nil))
        #expect(first.status == .stale)
        let later = try timeline.run(.failed(error: "down", httpStatus: nil), after: timeline.staleAfter + 3600)
        #expect(later.status == .failed, "stale_after counted from when the clock was put right")
    }

    @Test("Items first seen while the clock ran ahead are taken as seen now and stored so, whether served again or not")
    func firstSeenInTheFuture() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        let start = timeline.now
        try timeline.run(Timeline.fetched(["a", "b"]), after: 365 * 86400)
        timeline.now = start
        let unchanged = try timeline.run(.notModified(httpStatus: 304))
        #expect(unchanged.items.allSatisfy { $0.firstSeen <= timeline.now && $0.lastSeen <= timeline.now })
        #expect(unchanged.riverItems.allSatisfy { ($0.published ?? .distantFuture) <= timeline.now }, "not dated in the future")
        let afterNotModified = try #require(try timeline.store.histories(for: ["s"])["s"])
        #expect(afterNotModified.items.allSatisfy { $0.firstSeen == timeline.now && $0.lastSeen == timeline.now }, "stored by a 304")
        let clampedAt = timeline.now
        let fetched = try timeline.run(Timeline.fetched(["a"]), after: 3600)
        #expect(fetched.newCount == 0)
        let stored = try #require(try timeline.store.histories(for: ["s"])["s"])
        #expect(stored.items.allSatisfy { $0.firstSeen == clampedAt }, "first seen when the clock was put right")
        // b is no longer served: it ages out a retention after the clock was put right, not a year later.
        let expired = try timeline.run(Timeline.fetched(["a"]), after: timeline.retention)
        #expect(expired.items.map(\.item.id) == ["a"])
        #expect(try timeline.store.histories(for: ["s"])["s"]?.tombstones["b"] != nil)
    }

    @Test("Times put back to now are counted in the river's facts, even by a commit that keeps the items")
    func clampedTimesRecountTheFacts() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        let start = timeline.now
        try timeline.run(Timeline.fetched(["a", "b"]), after: 365 * 86400)
        try timeline.run(Timeline.fetched(["a"]), after: 60)  // b no longer served, first seen a year ahead
        timeline.now = start
        try timeline.run(.notModified(httpStatus: 304), keepsItems: true)
        #expect(try timeline.store.riverFacts().oldestUnservedFirstSeen == timeline.now)
    }

    @Test("A 304 after a change of id scheme leaves the stored ids on the old scheme, so the next answer re-keys them")
    func notModifiedKeepsTheOldScheme() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        try timeline.run(Timeline.fetched(["old-a"]))
        try timeline.store.execute("UPDATE sources SET identity_scheme = \(StableID.schemeVersion - 1)")
        try timeline.run(.notModified(httpStatus: 304))
        #expect(try timeline.store.histories(for: ["s"])["s"]?.identityScheme == StableID.schemeVersion - 1)
        let items = [Item(id: "new-a", source: "s", url: "https://e.com/old-a", title: "Title old-a")]
        let migrated = try timeline.run(.fetched(items: items, feed: nil, validators: nil, httpStatus: 200))
        #expect(migrated.newCount == 0, "re-keyed, not new")
        #expect(try timeline.store.histories(for: ["s"])["s"]?.items.map(\.item.id) == ["new-a"])
    }

    @Test("A change of id scheme re-keys stored items by link and title instead of making them new")
    func identityMigration() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        try timeline.run(Timeline.fetched(["old-a", "old-b"]))
        timeline.retention = 2 * 3600
        try timeline.run(Timeline.fetched(["old-a"]), after: 3 * 3600)  // old-b ages out into a tombstone
        try timeline.store.execute("UPDATE sources SET identity_scheme = \(StableID.schemeVersion - 1)")
        // The same stories, ids now derived differently; match keys (link + title) stay.
        let items = [
            Item(id: "new-a", source: "s", url: "https://e.com/old-a", title: "Title old-a"),
            Item(id: "new-b", source: "s", url: "https://e.com/old-b", title: "Title old-b"),
            Item(id: "new-c", source: "s", url: "https://e.com/c", title: "Fresh"),
        ]
        let migrated = try timeline.run(.fetched(items: items, feed: nil, validators: nil, httpStatus: 200))
        #expect(migrated.newCount == 1, "only new-c is new")
        #expect(migrated.items.first { $0.item.id == "new-a" }?.firstSeen == Date(timeIntervalSince1970: 1_780_000_000 + 3600))
        let history = try #require(try timeline.store.histories(for: ["s"])["s"])
        #expect(Set(history.items.map(\.item.id)) == ["new-a", "new-b", "new-c"])
        #expect(history.tombstones["old-b"] == nil)
        #expect(history.identityScheme == StableID.schemeVersion)
        // Once migrated, matching by link and title is off: a different id is a different item.
        let later = try timeline.run(
            .fetched(
                items: [Item(id: "other", source: "s", url: "https://e.com/c", title: "Fresh")], feed: nil, validators: nil, httpStatus: 200
            ))
        #expect(later.newCount == 1)
    }

    @Test("Duplicate ids within one answer count once")
    func duplicateIDs() throws {
        var timeline = try Timeline(try TemporaryDirectory())
        let merge = try timeline.run(Timeline.fetched(["a", "a", "b"]))
        #expect(merge.items.map(\.item.id) == ["a", "b"])
        #expect(merge.newCount == 2)
    }
}
