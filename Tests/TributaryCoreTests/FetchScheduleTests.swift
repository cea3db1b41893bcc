import Foundation
import TestSupport
import Testing
import TributaryModel

@testable import TributaryCore
@testable import TributaryState

/// Which sources a run fetches: intervals, backoff of failing sources, a server's Retry-After.
@Suite("Engine: when sources are fetched")
struct FetchScheduleTests {
    static let feedURL = "https://feeds.example.org/a"

    /// A configuration of source `a` (fetching `feedURL`, with `extra` settings) and source `b`, which has none.
    func configuration(_ extra: String, in folder: TemporaryDirectory) throws -> Configuration {
        try ConfigLoader(registry: AdapterRegistry([StaticAdapter.self]), environment: [:]).load(
            file: try folder.write(
                """
                sources:
                  - {name: a, adapter: static, count: 2, url: "\(Self.feedURL)"\(extra)}
                  - {name: b, adapter: static, count: 1}
                outputs: [{type: stdout}]
                """, to: "feeds.yaml"))
    }

    /// One run at `seconds` after `fixedNow`.
    func run(
        _ configuration: Configuration, at seconds: TimeInterval, fetcher: InMemoryFetcher, store: StateStore,
        options: RunOptions = RunOptions()
    ) async -> RunReport {
        await Engine(fetcher: fetcher, clock: { at(seconds) }, state: store).run(configuration, options: options)
    }

    @Test("A healthy source with an interval is fetched once per interval, its items kept meanwhile; --force and --source fetch it")
    func interval() async throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let fetcher = InMemoryFetcher()
        fetcher.serve(Self.feedURL, body: "ok")
        let config = try configuration(", interval: 1h", in: folder)

        let first = await run(config, at: 0, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 1)
        #expect(first.sources[0].wait == nil && !first.sources[0].deferred)

        let early = await run(config, at: 1800, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 1, "not fetched within the hour")
        let a = try #require(early.sources.first { $0.name == "a" })
        #expect(a.status == .deferred && a.deferred && a.succeeded)
        #expect(a.wait == FetchSchedule.Wait(until: at(3600), interval: .seconds(3600)))
        #expect(a.wait?.reason == "interval 1h")
        #expect(a.itemCount == 2)
        #expect(early.items.count(where: { $0.source == "a" }) == 2, "its stored items stay in the river")
        #expect(early.sources.first { $0.name == "b" }?.status == .ok, "b has no interval")
        #expect(early.status == .success)

        // Runs from cron every hour start a moment apart: a little early is on time.
        _ = await run(config, at: 3600 - 30, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 2)

        var forced = RunOptions()
        forced.force = true
        let force = await run(config, at: 3600, fetcher: fetcher, store: store, options: forced)
        #expect(fetcher.requests.count == 3)
        #expect(force.sources.allSatisfy { !$0.deferred })
        _ = await run(config, at: 3660, fetcher: fetcher, store: store, options: RunOptions(onlySources: ["a"]))
        #expect(fetcher.requests.count == 4, "a source named with --source is asked now")
        _ = await run(config, at: 3720, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 4)
        // Edited (a longer timeout): asked at once, then waits its interval again.
        let edited = try configuration(", interval: 1h, timeout: 45s", in: folder)
        _ = await run(edited, at: 3780, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 5, "an edited source is asked at once")
        _ = await run(edited, at: 3840, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 5)
    }

    @Test("A source fetched once per interval keeps its items through a failure: stale_after counts from when it was due")
    func intervalLongerThanStaleAfter() async throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let fetcher = InMemoryFetcher()
        fetcher.serve(Self.feedURL, body: "ok")
        let config = try configuration(", interval: 2d, stale_after: 1d", in: folder)
        _ = await run(config, at: 0, fetcher: fetcher, store: store)
        fetcher.serve(Self.feedURL, body: "gone", status: 404)
        let failed = await run(config, at: 2.1 * 86400, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 2)
        #expect(failed.sources[0].status == .stale, "its items are still used")
        #expect(failed.items.count(where: { $0.source == "a" }) == 2)
        let later = await run(config, at: 3.1 * 86400, fetcher: fetcher, store: store)
        #expect(later.sources[0].status == .failed, "a day after it was due, they are not")
    }

    @Test("From its third failure in a row a source waits 15 minutes, doubling up to backoff; an edited source is asked at once")
    func backoff() async throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let fetcher = InMemoryFetcher()
        fetcher.serve(Self.feedURL, body: "down", status: 500)
        let config = try configuration(", backoff: 20m", in: folder)

        for (run, seconds) in [0.0, 60, 120].enumerated() {
            let report = await self.run(config, at: seconds, fetcher: fetcher, store: store)
            #expect(fetcher.requests.count == run + 1, "failures one to three are each asked at once")
            #expect(
                report.sources[0].wait == (run < 2 ? nil : FetchSchedule.Wait(until: at(120 + 900), reason: "backoff after 3 failures")))
        }
        let waiting = await run(config, at: 600, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 3)
        let a = waiting.sources[0]
        #expect(a.deferred && !a.succeeded && a.status == .failed, "still failing, with no success to fall back on")
        #expect(a.failure?.contains("HTTP 500") == true && a.httpStatus == 500)
        #expect(a.wait?.until == at(1020))
        #expect(waiting.status == .partialFailure)
        #expect(try store.histories(for: ["a"])["a"]?.consecutiveFailures == 3, "a run that did not ask counts no failure")

        // A run a moment earlier in its minute than the one that failed is on time (cron's runs start a few
        // milliseconds apart: without the slack the source waited a whole further cron period).
        let justEarly = await run(config, at: 1019.8, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 4, "a backoff is over a little early, as an interval is")
        #expect(justEarly.sources[0].wait == FetchSchedule.Wait(until: at(1019.8 + 1200), reason: "backoff after 4 failures"))
        _ = await run(config, at: 1019.8 + 1200 - 121, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 4, "but not more than a minute early")

        // The fourth failure would wait 30 minutes; backoff: 20m caps it (the fifth here).
        let fourth = await run(config, at: 1019.8 + 1200, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 5)
        #expect(fourth.sources[0].wait == FetchSchedule.Wait(until: at(1019.8 + 2400), reason: "backoff after 5 failures"))

        // A longer timeout, the usual mend: asked at once.
        let longer = try configuration(", backoff: 20m, timeout: 1m", in: folder)
        _ = await run(longer, at: 2230, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 6, "an edited source is asked at once")
        // The URL corrected: asked at once.
        let fixed = "https://feeds.example.org/fixed"
        fetcher.serve(fixed, body: "ok")
        let corrected = try configuration(", backoff: 20m, timeout: 1m", in: folder).replacingFeedURL(with: fixed, in: folder)
        let recovered = await run(corrected, at: 2300, fetcher: fetcher, store: store)
        #expect(recovered.sources[0].status == .ok && recovered.sources[0].wait == nil)
        #expect(try store.histories(for: ["a"])["a"]?.deferral == nil, "a success clears the wait")
    }

    @Test("backoff: off asks a failing source at every run")
    func backoffOff() async throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let fetcher = InMemoryFetcher()
        fetcher.serve(Self.feedURL, body: "down", status: 500)
        let config = try configuration(", backoff: off", in: folder)
        for seconds in stride(from: 0.0, to: 600, by: 60) {
            let report = await run(config, at: seconds, fetcher: fetcher, store: store)
            #expect(report.sources[0].wait == nil)
        }
        #expect(fetcher.requests.count == 10)
    }

    @Test("A 429 with Retry-After keeps the source waiting that long (at most a day), whatever its failures")
    func retryAfter() async throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let fetcher = InMemoryFetcher()
        fetcher.serve(Self.feedURL, body: "slow down", status: 429, headers: [HTTPHeader("Retry-After", "7200")])
        let config = try configuration("", in: folder)
        let first = await run(config, at: 0, fetcher: fetcher, store: store)
        #expect(first.sources[0].wait == FetchSchedule.Wait(until: at(7200), reason: "Retry-After"))
        let during = await run(config, at: 3600, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 1)
        #expect(during.sources[0].deferred && during.sources[0].wait?.reason == "Retry-After")
        _ = await run(config, at: 7200, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 2)

        fetcher.serve(Self.feedURL, body: "", status: 503, headers: [HTTPHeader("Retry-After", "31536000")])
        let year = await run(config, at: 14400, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 3)
        #expect(year.sources[0].wait == FetchSchedule.Wait(until: at(14400 + 86400), reason: "Retry-After"), "a year is taken as a day")
        // A 500 says nothing about waiting: the second failure is asked again at the next run.
        let plain = try TemporaryDirectory()
        let plainStore = try StateStore(path: plain.path("state.sqlite"))
        fetcher.serve(Self.feedURL, body: "", status: 500, headers: [HTTPHeader("Retry-After", "7200")])
        let ignored = await run(try configuration("", in: plain), at: 0, fetcher: fetcher, store: plainStore)
        #expect(ignored.sources[0].wait == nil)
    }

    @Test("A wait counted from an attempt made while the clock ran ahead does not hold")
    func clockPutBack() async throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let fetcher = InMemoryFetcher()
        fetcher.serve(Self.feedURL, body: "ok")
        let config = try configuration(", interval: 1d", in: folder)
        _ = await run(config, at: 365 * 86400, fetcher: fetcher, store: store)
        _ = await run(config, at: 0, fetcher: fetcher, store: store)
        #expect(fetcher.requests.count == 2)
    }

    @Test("interval and backoff are read from defaults and sources, and checked")
    func configurationKeys() throws {
        let folder = try TemporaryDirectory()
        let loader = ConfigLoader(registry: AdapterRegistry([StaticAdapter.self]), environment: [:])
        let config = try loader.load(
            file: try folder.write(
                """
                defaults: {interval: 30m, backoff: 2h}
                sources:
                  - {name: a, adapter: static, count: 1}
                  - {name: b, adapter: static, count: 1, interval: off, backoff: off}
                  - {name: c, adapter: static, count: 1, interval: 2h}
                """, to: "feeds.yaml"))
        #expect(config.sources.map(\.interval) == [.seconds(1800), nil, .seconds(7200)])
        #expect(config.sources.map(\.backoff) == [.seconds(7200), nil, .seconds(7200)])
        #expect(Defaults().backoff == .seconds(6 * 3600) && Defaults().interval == nil)
        do {
            _ = try loader.load(file: try folder.write("defaults: {backoff: 5m}\nsources: []\n", to: "short.yaml"))
            Issue.record("a backoff shorter than the first wait was accepted")
        } catch let error as ConfigErrors {
            #expect(error.description.contains("short.yaml:1:21: error: 'backoff' must be at least 15m (the first wait), or off"))
        }
    }

    /// After the clock was put back, items an earlier run found are stored as first seen now; the run's total of new
    /// items counted them again (4 new where the only source said 1).
    @Test("After the clock is put back, a run's new items are those no earlier run had seen")
    func newItemsAfterTheClockWentBack() async throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let fetcher = InMemoryFetcher()
        fetcher.serve(Self.feedURL, body: "ok")
        func configuration(count: Int) throws -> Configuration {
            try ConfigLoader(registry: AdapterRegistry([StaticAdapter.self]), environment: [:]).load(
                file: try folder.write(
                    "sources:\n  - {name: a, adapter: static, count: \(count), url: \"\(Self.feedURL)\"}\noutputs: [{type: stdout}]\n",
                    to: "feeds.yaml"))
        }
        let three = try configuration(count: 3)
        let first = await run(three, at: 1000, fetcher: fetcher, store: store)
        #expect(first.riverNewItemCount == 3 && first.newItemCount == 3)
        let four = try configuration(count: 4)
        let back = await run(four, at: 880, fetcher: fetcher, store: store)
        #expect(back.sources.first { $0.name == "a" }?.newItemCount == 1)
        #expect(back.riverNewItemCount == 1, "the three found at 1000 were new then, not now")
        #expect(back.newItemCount == 1)
    }
}

extension Configuration {
    /// The configuration with source `a`'s feed URL replaced, as a user correcting it would edit the file.
    fileprivate func replacingFeedURL(with url: String, in folder: TemporaryDirectory) throws -> Configuration {
        let text = try String(contentsOfFile: folder.path("feeds.yaml"), encoding: .utf8)
            .replacingOccurrences(of: FetchScheduleTests.feedURL, with: url)
        return try ConfigLoader(registry: AdapterRegistry([StaticAdapter.self]), environment: [:])
            .load(file: try folder.write(text, to: "feeds.yaml"))
    }
}
