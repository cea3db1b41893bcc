import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Running from cron: the real binary against a loopback server, many runs over one state file.
@Suite("State across runs", .serialized)
struct StateEndToEndTests {
    /// An RSS document with one item per id (title "Story <id>", dated a day apart).
    static func rss(_ ids: [String]) -> [UInt8] {
        var text = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Loop</title><link>http://127.0.0.1/</link>"
        for (index, id) in ids.enumerated() {
            text += "<item><guid>\(id)</guid><title>Story \(id)</title><link>http://127.0.0.1/\(id)</link>"
            text += "<pubDate>\(10 + index) Nov 2026 08:00:00 GMT</pubDate></item>"
        }
        return Array((text + "</channel></rss>").utf8)
    }

    static func config(_ server: LoopbackServer, paths: [String], extra: String = "") -> String {
        var text = "title: State test\n\(extra)sources:\n"
        for path in paths {
            text += "  - name: \(path.replacingOccurrences(of: ".xml", with: ""))\n    adapter: rss\n    url: \(server.url("/" + path))\n"
        }
        return text + "outputs:\n  - type: jsonfeed\n    path: out/river.json\n"
    }

    static func titles(_ folder: TemporaryDirectory) throws -> [String] {
        let data = try Data(contentsOf: folder.url.appendingPathComponent("out/river.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (json["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }.sorted()
    }

    static func report(_ folder: TemporaryDirectory) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.url.appendingPathComponent("report.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func sources(_ report: [String: Any]) -> [String: [String: Any]] {
        Dictionary(uniqueKeysWithValues: (report["sources"] as? [[String: Any]] ?? []).map { ($0["name"] as? String ?? "", $0) })
    }

    /// `max_items` is "the most items one source contributes": the state kept every item a source served (an
    /// auditor's 100,000 new items a fetch grew the state by 40 MB a run with `max_items: 50`).
    @Test("max_items bounds what the state keeps of a source, not only what the river shows")
    func maxItemsBoundsTheState() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        try folder.write(
            Self.config(server, paths: ["a.xml"]).replacingOccurrences(
                of: "    adapter: rss\n", with: "    adapter: rss\n    max_items: 3\n"), to: "feeds.yaml")
        for run in 0..<3 {
            server.route("/a.xml", .ok(body: Self.rss((0..<20).map { "r\(run)-\($0)" }), contentType: "application/rss+xml"))
            let result = try await TributaryBinary.run(["run"], in: folder.url.path)
            #expect(result.status == 0, "\(result.standardError)")
        }
        let status = try await TributaryBinary.run(["status", "-f", "json"], in: folder.url.path)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any])
        let sources = try #require(json["sources"] as? [[String: Any]])
        #expect(sources.first?["stored_items"] as? Int == 9, "three runs of three items: \(sources)")
        #expect(try Self.titles(folder) == ["Story r2-0", "Story r2-1", "Story r2-2"])
    }

    /// A source without `max_items` keeps at most `SourceConfig.defaultItemLimit` items of a fetch: an auditor's
    /// 20 MB response of 637,613 `<item>`s took 1.15 GB of memory, 552 MB of outputs and 112 MB of state in one run.
    @Test("Without max_items a fetch keeps the first 10,000 items, with a warning naming the setting; max_items raises it")
    func defaultItemLimit() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        var text = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Big</title><link>http://127.0.0.1/</link>"
        for index in 0..<10_003 { text += "<item><guid>g\(index)</guid><title>Story \(index)</title></item>" }
        server.route("/a.xml", .ok(body: Array((text + "</channel></rss>").utf8), contentType: "application/rss+xml"))
        let folder = try TemporaryDirectory()
        try folder.write(Self.config(server, paths: ["a.xml"]), to: "feeds.yaml")

        let first = try await TributaryBinary.run(["run", "--report", "report.json"], in: folder.url.path)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(
            first.standardError.contains(
                "the source gave 10003 items; only the first 10000 are kept (the default limit; max_items raises it, up to 1,000,000)"),
            "\(first.standardError)")
        #expect(Self.sources(try Self.report(folder))["a"]?["items"] as? Int == 10_000)
        let titles = try Self.titles(folder)
        #expect(titles.count == 10_000)
        #expect(titles.contains("Story 9999") && !titles.contains("Story 10000"), "the first ones in the document's order")

        // `max_items` above the default is the limit, and says nothing when the source stays under it.
        try folder.write(
            Self.config(server, paths: ["a.xml"]).replacingOccurrences(
                of: "    adapter: rss\n", with: "    adapter: rss\n    max_items: 20000\n"),
            to: "feeds.yaml")
        let second = try await TributaryBinary.run(["run", "--report", "report.json"], in: folder.url.path)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(!second.standardError.contains("only the first"), "\(second.standardError)")
        #expect(Self.sources(try Self.report(folder))["a"]?["items"] as? Int == 10_003)
        #expect(try Self.titles(folder).count == 10_003)
    }

    @Test("The second run against unchanged servers sends validators, gets 304s and keeps every item")
    func conditionalGET() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route(
            "/a.xml", .cached(body: Self.rss(["a1", "a2"]), contentType: "application/rss+xml", etag: "\"a-v1\"", lastModified: nil))
        server.route(
            "/b.xml",
            .cached(
                body: Self.rss(["b1"]), contentType: "application/rss+xml", etag: nil,
                lastModified: LoopbackServer.httpDate(secondsSince1970: 1_790_000_000)))
        let folder = try TemporaryDirectory()
        try folder.write(Self.config(server, paths: ["a.xml", "b.xml"]), to: "feeds.yaml")

        let first = try await TributaryBinary.run(["run", "--report", "report.json"], in: folder.url.path)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardError.contains("3 items (3 new)"))
        #expect(server.requests("/a.xml").first.map { header("If-None-Match", in: $0) } == .some(nil))

        let second = try await TributaryBinary.run(["run", "--report", "report.json"], in: folder.url.path)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(try Self.titles(folder) == ["Story a1", "Story a2", "Story b1"])
        let a = try #require(server.requests("/a.xml").last)
        let b = try #require(server.requests("/b.xml").last)
        #expect(header("If-None-Match", in: a) == "\"a-v1\"")
        #expect(header("If-Modified-Since", in: b) == LoopbackServer.httpDate(secondsSince1970: 1_790_000_000))
        let sources = Self.sources(try Self.report(folder))
        #expect(sources["a"]?["status"] as? String == "not-modified")
        #expect(sources["a"]?["http_status"] as? Int == 304)
        #expect(sources["b"]?["http_status"] as? Int == 304)
        #expect(sources["a"]?["items"] as? Int == 2)
        #expect(sources["a"]?["new_items"] as? Int == 0)
        #expect(second.standardError.contains("not-modified"), "the table shows it:\n\(second.standardError)")

        // When the document changes, the server answers 200 again and the new item is new.
        server.route(
            "/a.xml", .cached(body: Self.rss(["a3", "a1"]), contentType: "application/rss+xml", etag: "\"a-v2\"", lastModified: nil))
        let third = try await TributaryBinary.run(["run", "-v", "--report", "report.json"], in: folder.url.path)
        #expect(third.status == 0)
        #expect(third.standardError.contains("read 3 stored items"), "read while b is fetched, or after:\n\(third.standardError)")
        #expect(Self.sources(try Self.report(folder))["a"]?["new_items"] as? Int == 1)
        #expect(try Self.report(folder)["new_items"] as? Int == 1, "the river's new items")
        #expect(third.standardError.contains("4 items (1 new)"), "\(third.standardError)")
        #expect(try Self.titles(folder) == ["Story a1", "Story a2", "Story a3", "Story b1"], "a2 stays in the river as history")
    }

    /// Only a source's first request is made conditional. For a listing read over several pages, a 304 on the first
    /// kept the stored items and read no other page, so what was added further on (a thread's last page) never came:
    /// such a source now reads every page at every run. A single page is still asked "has it changed?".
    @Test("A source read over several pages reads them all even when its first page has not changed")
    func pagedSourcesAreNotShortCutByTheFirstPagesValidators() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        func page(_ titles: [String], next: String?) -> [UInt8] {
            let rows = titles.map { "<div class=\"post\"><a href=\"/t/\($0)\">\($0)</a></div>" }.joined()
            return Array("<html><body>\(rows)\(next.map { "<a rel=\"next\" href=\"\($0)\">next</a>" } ?? "")</body></html>".utf8)
        }
        server.route(
            "/p1.html", .cached(body: page(["one", "two"], next: "/p2.html"), contentType: "text/html", etag: "\"p1\"", lastModified: nil))
        server.route("/p2.html", .cached(body: page(["three"], next: nil), contentType: "text/html", etag: "\"p2\"", lastModified: nil))
        server.route("/single.html", .cached(body: page(["solo"], next: nil), contentType: "text/html", etag: "\"s\"", lastModified: nil))
        let folder = try TemporaryDirectory()
        let fields = "items: \"//div[@class='post']\", fields: {title: ./a, url: ./a/@href}"
        try folder.write(
            """
            sources:
              - {name: thread, adapter: html, url: "\(server.url("/p1.html"))", \(fields), pagination: {next: "//a[@rel='next']/@href"}, pages: 3}
              - {name: single, adapter: html, url: "\(server.url("/single.html"))", \(fields)}
            outputs:
              - {type: jsonfeed, path: out/river.json}

            """, to: "feeds.yaml")
        let first = try await TributaryBinary.run(["run", "-q"], in: folder.url.path)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(try Self.titles(folder) == ["one", "solo", "three", "two"])

        server.route(
            "/p2.html", .cached(body: page(["three", "four"], next: nil), contentType: "text/html", etag: "\"p2b\"", lastModified: nil))
        let second = try await TributaryBinary.run(["run", "-q", "--report", "report.json"], in: folder.url.path)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(try Self.titles(folder) == ["four", "one", "solo", "three", "two"])
        #expect(server.requests("/p1.html").map { header("If-None-Match", in: $0) } == [nil, nil])
        #expect(header("If-None-Match", in: try #require(server.requests("/single.html").last)) == "\"s\"")
        let sources = Self.sources(try Self.report(folder))
        #expect(sources["thread"]?["new_items"] as? Int == 1)
        #expect(sources["single"]?["status"] as? String == "not-modified")
    }

    @Test("When every source is unchanged and so is the configuration, the outputs are left as they are")
    func unchangedRiverIsNotRebuilt() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/a.xml", .cached(body: Self.rss(["a1", "a2"]), contentType: "application/rss+xml", etag: "\"1\"", lastModified: nil))
        let folder = try TemporaryDirectory()
        let config = Self.config(server, paths: ["a.xml"])
        try folder.write(config, to: "feeds.yaml")
        #expect(try await TributaryBinary.run(["run", "-q"], in: folder.url.path).status == 0)
        let path = folder.path("out/river.json")
        let written = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date

        let second = try await TributaryBinary.run(["run", "-v", "--report", "report.json"], in: folder.url.path)
        #expect(second.status == 0)
        #expect(second.standardError.contains("2 items (0 new), unchanged: out/river.json"), "\(second.standardError)")
        #expect(!second.standardError.contains("stored items"), "a run in which every source answers 304 reads none")
        #expect(try Self.report(folder)["river_unchanged"] as? Bool == true)
        #expect(try Self.sources(Self.report(folder))["a"]?["items"] as? Int == 2, "the items the source serves")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == written)
        #expect(try Self.titles(folder) == ["Story a1", "Story a2"])

        // A missing output, a changed configuration, or a time-dependent ranking: rebuilt.
        try FileManager.default.removeItem(atPath: path)
        let rebuilt = try await TributaryBinary.run(["run", "-v", "--report", "report.json"], in: folder.url.path)
        #expect(rebuilt.status == 0)
        #expect(rebuilt.standardError.contains("read 2 stored items"), "\(rebuilt.standardError)")
        #expect(try Self.report(folder)["river_unchanged"] as? Bool == false)
        #expect(try Self.titles(folder) == ["Story a1", "Story a2"], "the river is rebuilt from the stored items")
        #expect(try await TributaryBinary.run(["run", "-q", "--report", "report.json"], in: folder.url.path).status == 0)
        #expect(try Self.report(folder)["river_unchanged"] as? Bool == true)
        try folder.write(config.replacingOccurrences(of: "title: State test", with: "title: Renamed"), to: "feeds.yaml")
        #expect(try await TributaryBinary.run(["run", "-q", "--report", "report.json"], in: folder.url.path).status == 0)
        #expect(try Self.report(folder)["river_unchanged"] as? Bool == false)
        try folder.write("ranking: {strategy: hot}\n" + config, to: "feeds.yaml")
        for _ in 0..<2 {
            #expect(try await TributaryBinary.run(["run", "-q", "--report", "report.json"], in: folder.url.path).status == 0)
            #expect(try Self.report(folder)["river_unchanged"] as? Bool == false, "hot ranking changes with time")
        }
        #expect(server.requests("/a.xml").dropFirst().allSatisfy { header("If-None-Match", in: $0) == "\"1\"" })
    }

    @Test("The same items served again (no validators) leave the outputs; new items, or a source back after failing, rebuild them")
    func sameItemsKeepTheRiver() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/a.xml", .ok(body: Self.rss(["a1", "a2"]), contentType: "application/rss+xml"))
        server.route("/b.xml", .cached(body: Self.rss(["b1"]), contentType: "application/rss+xml", etag: "\"b\"", lastModified: nil))
        let folder = try TemporaryDirectory()
        try folder.write(Self.config(server, paths: ["a.xml", "b.xml"], extra: "defaults:\n  stale_after: 1s\n"), to: "feeds.yaml")
        let path = folder.path("out/river.json")
        func run() async throws -> (report: [String: Any], output: Date?, log: String) {
            let result = try await TributaryBinary.run(["run", "-v", "--report", "report.json"], in: folder.url.path)
            #expect(result.status == 0 || result.status == 2, "\(result.standardError)")
            let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            return (try Self.report(folder), modified, result.standardError)
        }

        let first = try await run()
        let again = try await run()
        #expect(again.report["river_unchanged"] as? Bool == true, "\(again.log)")
        #expect(again.output == first.output)
        #expect(again.log.contains("3 items (0 new), unchanged: out/river.json"), "\(again.log)")
        #expect(!again.log.contains("stored items"), "only a's own items were read, to compare: \(again.log)")
        let a = try #require(Self.sources(again.report)["a"])
        #expect(a["status"] as? String == "ok")
        #expect(a["http_status"] as? Int == 200)
        #expect(a["items"] as? Int == 2)
        #expect(a["new_items"] as? Int == 0)
        #expect(Self.sources(again.report)["b"]?["status"] as? String == "not-modified")

        // A new item: the river is rebuilt, and the next run with the same answer keeps it.
        server.route("/a.xml", .ok(body: Self.rss(["a3", "a1", "a2"]), contentType: "application/rss+xml"))
        let changed = try await run()
        #expect(changed.report["river_unchanged"] as? Bool == false)
        #expect(try Self.titles(folder) == ["Story a1", "Story a2", "Story a3", "Story b1"])
        #expect(try await run().report["river_unchanged"] as? Bool == true)

        // Failing past stale_after, the source's items leave the river; answering with the same items again, it
        // brings them back (its items were not in the last river, so that river is not kept).
        server.route("/a.xml", .status(503, body: "down"))
        try await Task.sleep(for: .seconds(1.5))
        let failed = try await run()
        #expect(Self.sources(failed.report)["a"]?["status"] as? String == "failed", "\(failed.log)")
        #expect(try Self.titles(folder) == ["Story b1"])
        server.route("/a.xml", .ok(body: Self.rss(["a3", "a1", "a2"]), contentType: "application/rss+xml"))
        let back = try await run()
        #expect(back.report["river_unchanged"] as? Bool == false, "\(back.log)")
        #expect(try Self.titles(folder) == ["Story a1", "Story a2", "Story a3", "Story b1"])
    }

    @Test("A server's Retry-After and an interval keep sources from being asked; the report and status say when; --force asks")
    func waitsBetweenRuns() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/busy.xml", .status(429, body: "slow down", headers: [("Retry-After", "3600")]))
        server.route("/calm.xml", .ok(body: Self.rss(["c1"]), contentType: "application/rss+xml"))
        let folder = try TemporaryDirectory()
        try folder.write(
            Self.config(server, paths: ["busy.xml", "calm.xml"]).replacingOccurrences(
                of: "url: \(server.url("/calm.xml"))\n", with: "url: \(server.url("/calm.xml"))\n    interval: 1h\n"),
            to: "feeds.yaml")
        let first = try await TributaryBinary.run(["run", "--report", "report.json"], in: folder.url.path)
        #expect(first.status == 2)
        #expect(first.standardError.contains("HTTP 429 Too Many Requests (next in 1h: Retry-After)"), "\(first.standardError)")

        let second = try await TributaryBinary.run(["run", "--report", "report.json"], in: folder.url.path)
        #expect(second.status == 2, "busy is still failing")
        #expect(server.requestCount("/busy.xml") == 1 && server.requestCount("/calm.xml") == 1, "neither was asked again")
        let sources = Self.sources(try Self.report(folder))
        #expect(sources["busy"]?["fetched"] as? Bool == false && sources["busy"]?["waiting_for"] as? String == "Retry-After")
        #expect(sources["busy"]?["status"] as? String == "failed" && sources["busy"]?["next_attempt"] is String)
        #expect(sources["calm"]?["status"] as? String == "deferred" && sources["calm"]?["waiting_for"] as? String == "interval 1h")
        #expect(sources["calm"]?["items"] as? Int == 1)
        #expect(try Self.titles(folder) == ["Story c1"], "calm's items stay in the river")
        #expect(second.standardError.contains("(not fetched now; next in 1h: Retry-After)"))
        #expect(second.standardError.contains("2 sources (1 ok, 1 failed: busy; 2 not fetched now)"), "\(second.standardError)")

        let status = try await TributaryBinary.run(["status", "-f", "json"], in: folder.url.path)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any])
        let health = Dictionary(
            uniqueKeysWithValues: (json["sources"] as? [[String: Any]] ?? []).map { ($0["name"] as? String ?? "", $0) })
        #expect(health["busy"]?["waiting_for"] as? String == "Retry-After" && health["busy"]?["next_attempt"] is String)
        #expect(health["calm"]?["waiting_for"] as? String == "interval 1h")

        let forced = try await TributaryBinary.run(["run", "--force"], in: folder.url.path)
        #expect(forced.status == 2)
        #expect(server.requestCount("/busy.xml") == 2 && server.requestCount("/calm.xml") == 2, "--force asks every source")
    }

    @Test("A failing source contributes its last good items until stale_after, and the failure is reported")
    func staleFallback() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/ok.xml", .ok(body: Self.rss(["k1"]), contentType: "application/rss+xml"))
        server.route(
            "/flaky.xml", .sequence([.ok(body: Self.rss(["f1", "f2"]), contentType: "application/rss+xml"), .status(503, body: "down")]))
        let folder = try TemporaryDirectory()
        try folder.write(Self.config(server, paths: ["ok.xml", "flaky.xml"], extra: "defaults:\n  stale_after: 3s\n"), to: "feeds.yaml")

        let first = try await TributaryBinary.run(["run", "-q"], in: folder.url.path)
        #expect(first.status == 0)
        let failing = try await TributaryBinary.run(["run", "--report", "report.json"], in: folder.url.path)
        #expect(failing.status == 2, "a failure is still reported: \(failing.standardError)")
        #expect(try Self.titles(folder) == ["Story f1", "Story f2", "Story k1"])
        let flaky = Self.sources(try Self.report(folder))["flaky"]
        #expect(flaky?["status"] as? String == "stale")
        #expect(flaky?["http_status"] as? Int == 503)
        #expect((flaky?["error"] as? String)?.contains("HTTP 503") == true)
        #expect(failing.standardError.contains("using its last good items"))

        try await Task.sleep(for: .seconds(3.5))
        let expired = try await TributaryBinary.run(["run", "--report", "report.json"], in: folder.url.path)
        #expect(expired.status == 2)
        #expect(try Self.titles(folder) == ["Story k1"], "past stale_after the failing source's items are gone")
        #expect(Self.sources(try Self.report(folder))["flaky"]?["status"] as? String == "failed")

        let status = try await TributaryBinary.run(["status"], in: folder.url.path)
        #expect(status.status == 0)
        #expect(status.standardOutput.contains("exit 2"))
        let flakyLine = try #require(status.standardOutput.split(separator: "\n").first { $0.contains("flaky") })
        #expect(flakyLine.contains("failing") && flakyLine.contains(" 2 ") && flakyLine.contains("HTTP 503"), "\(flakyLine)")
    }

    @Test("Two overlapping runs never interleave: the second exits 4 naming the holder, or waits with --wait")
    func locking() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/slow.xml", .delay(milliseconds: 2_500, then: .ok(body: Self.rss(["s1"]), contentType: "application/rss+xml")))
        let folder = try TemporaryDirectory()
        try folder.write(Self.config(server, paths: ["slow.xml"]), to: "feeds.yaml")

        let pid = try ChildProcess([TributaryBinary.path, "run", "-q"], directory: folder.url.path)
            .spawn(standardOutput: "/dev/null", standardError: "/dev/null")
        var reaped = false
        defer {
            if !reaped {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while server.requestCount("/slow.xml") == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(server.requestCount("/slow.xml") == 1, "the first run started fetching")

        let second = try await TributaryBinary.run(["run"], in: folder.url.path)
        #expect(second.status == 4)
        #expect(second.standardError.contains("another run holds the lock"))
        #expect(second.standardError.contains("(PID \(pid))"), "\(second.standardError)")
        #expect(server.requestCount("/slow.xml") == 1, "the second run fetched nothing")

        let waiting = try await TributaryBinary.run(["run", "-q", "--wait=2m"], in: folder.url.path)
        #expect(waiting.status == 0, "\(waiting.standardError)")
        var status: Int32 = 0
        reaped = waitpid(pid, &status, 0) == pid
        #expect(reaped && status == 0, "the first run finished well")
        #expect(server.requestCount("/slow.xml") == 2)
        #expect(server.maxConcurrentRequests == 1, "the waiting run fetched only after the first one was done")
    }

    @Test("A damaged state file stops the run with exit 5 and a way out; --reset-state keeps the old file aside")
    func damagedState() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(String(decoding: Self.rss(["x"]), as: UTF8.self), to: "feed.xml")
        try folder.write(
            "sources:\n  - name: local\n    adapter: rss\n    url: feed.xml\noutputs:\n  - type: jsonfeed\n    path: out/river.json\n",
            to: "feeds.yaml")
        try folder.write(String(repeating: "garbage ", count: 1000), to: ".tributary/state.sqlite")

        let refused = try await TributaryBinary.run(["run"], in: folder.url.path)
        #expect(refused.status == 5)
        #expect(refused.standardError.contains(folder.path(".tributary/state.sqlite")))
        #expect(refused.standardError.contains("--reset-state"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/river.json")), "nothing was written")

        let reset = try await TributaryBinary.run(["run", "--reset-state"], in: folder.url.path)
        #expect(reset.status == 0, "\(reset.standardError)")
        #expect(reset.standardError.contains("moved the state file aside"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path(".tributary")).filter { $0.contains(".broken-") }
        #expect(kept.count == 1)
        #expect(try folder.read(".tributary/" + kept[0]).hasPrefix("garbage "))

        let stateless = try await TributaryBinary.run(["run", "--no-state", "--state", "x.sqlite"], in: folder.url.path)
        #expect(stateless.status == 1, "contradictory options are a usage error")
    }

    @Test("--no-state and 'state: off' leave no state behind; --state puts it where asked")
    func stateLocation() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(String(decoding: Self.rss(["x"]), as: UTF8.self), to: "feed.xml")
        let config =
            "sources:\n  - name: local\n    adapter: rss\n    url: feed.xml\noutputs:\n  - type: jsonfeed\n    path: out/river.json\n"
        try folder.write(config, to: "feeds.yaml")
        #expect(try await TributaryBinary.run(["run", "-q", "--no-state"], in: folder.url.path).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path(".tributary")))
        #expect(try await TributaryBinary.run(["run", "-q", "--state", "elsewhere/s.db"], in: folder.url.path).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("elsewhere/s.db")))
        try folder.write("state: off\n" + config, to: "feeds.yaml")
        #expect(try await TributaryBinary.run(["run", "-q"], in: folder.url.path).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path(".tributary")))
        try folder.write("state: var/state.sqlite\nretention: 7d\n" + config, to: "feeds.yaml")
        #expect(try await TributaryBinary.run(["run", "-q"], in: folder.url.path).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("var/state.sqlite")))
    }

    /// SIGKILL at random moments of many runs: the state always opens and each output is the old
    /// file or a complete new one.
    @Test("Random kills never damage the state or leave a partial output")
    func randomKills() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-kill-state")
        try folder.write(CLIFixtures.largeFeed(count: 1_500), to: "large.json")
        try folder.write(
            "sources:\n  - name: large\n    adapter: jsonfeed\n    url: large.json\noutputs:\n  - type: atom\n    path: out/river.atom\n",
            to: "feeds.yaml")
        let started = ContinuousClock.now
        let reference = try await TributaryBinary.run(["run", "-q"], in: folder.url.path)
        #expect(reference.status == 0)
        let runTime = ContinuousClock.now - started
        let complete = try folder.read("out/river.atom")
        let old = "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><!-- old --></feed>\n"
        var generator = SystemRandomNumberGenerator()
        for round in 0..<10 {
            try folder.write(old, to: "out/river.atom")
            let pid = try ChildProcess([TributaryBinary.path, "run", "-q"], directory: folder.url.path)
                .spawn(standardOutput: "/dev/null", standardError: "/dev/null")
            try await Task.sleep(for: runTime * Double.random(in: 0.1...1.2, using: &generator))
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            let now = try folder.read("out/river.atom")
            #expect(now == old || now == complete, "round \(round): a kill left a partial file of \(now.utf8.count) bytes")
            let check = try await TributaryBinary.run(["status", "--runs", "1"], in: folder.url.path)
            #expect(check.status == 0, "round \(round): the state does not open: \(check.standardError)")
        }
        let final = try await TributaryBinary.run(["run", "-q"], in: folder.url.path)
        #expect(final.status == 0)
        #expect(try folder.read("out/river.atom") == complete)
    }

    @Test(
        "run --every repeats until SIGTERM (or SIGHUP), then finishes and exits with the last run's status", arguments: [SIGTERM, SIGHUP])
    func everyStopsOnSignal(_ signal: Int32) async throws {
        let folder = try TemporaryDirectory()
        try folder.write(String(decoding: Self.rss(["x"]), as: UTF8.self), to: "feed.xml")
        try folder.write(
            "sources:\n  - name: local\n    adapter: rss\n    url: feed.xml\noutputs:\n  - type: jsonfeed\n    path: out/river.json\n",
            to: "feeds.yaml")
        let pid = try ChildProcess([TributaryBinary.path, "run", "--every", "1s"], directory: folder.url.path)
            .spawn(standardOutput: "/dev/null", standardError: folder.path("stderr.txt"))
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let runs = (try? folder.read("stderr.txt"))?.components(separatedBy: "1 item (").count ?? 0
            if runs >= 3 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let log = try folder.read("stderr.txt")
        #expect(log.components(separatedBy: "1 item (").count - 1 >= 2, "it ran repeatedly:\n\(log)")
        #expect(log.contains("stopping on signal \(signal == SIGHUP ? "SIGHUP" : "SIGTERM")"))
        #expect((status & 0x7f) == 0, "it exited rather than dying of the signal")
        #expect((status >> 8) & 0xff == 0)
    }

    @Test(
        "run --every --wait stops waiting for the lock at once on SIGTERM, SIGINT or SIGHUP: no run starts, exit 0",
        arguments: [SIGTERM, SIGINT, SIGHUP])
    func everyStopsWhileWaitingForTheLock(_ signal: Int32) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let (folder, held) = try Self.lockedFolder(server)
        defer { held.release() }
        let pid = try Self.spawnLogged(["run", "--every", "1h", "--wait"], in: folder)
        var status: Int32?
        defer { if status == nil { Self.killAndReap(pid) } }
        let waiting = "tributary: waiting for the lock \(held.path) held by PID \(getpid()) (at most 1h)\n"
        #expect(await Self.waitUntil(folder.path("stderr.txt"), contains: waiting), "it said it waits")
        kill(pid, signal)
        // An hour's wait and an hour between runs: only the signal can end it within the minute.
        status = await Self.exitStatus(of: pid, within: .seconds(60))
        let raw = try #require(status, "it exited soon after the signal")
        let name = [SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP"][signal] ?? "?"
        #expect(try folder.read("stderr.txt") == waiting + "tributary: stopping on signal \(name)\n")
        #expect((raw & 0x7f) == 0 && (raw >> 8) & 0xff == 0, "it exited with status 0, not of the signal: \(raw)")
        #expect(server.requestCount("/feed.xml") == 0, "no run started")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/river.json")))
    }

    @Test("A single run --wait ends at once on SIGTERM while it waits for the lock, as any process does")
    func singleRunDiesWhileWaitingForTheLock() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let (folder, held) = try Self.lockedFolder(server)
        defer { held.release() }
        let pid = try Self.spawnLogged(["run", "--wait"], in: folder)
        var status: Int32?
        defer { if status == nil { Self.killAndReap(pid) } }
        #expect(await Self.waitUntil(folder.path("stderr.txt"), contains: "waiting for the lock"))
        kill(pid, SIGTERM)
        status = await Self.exitStatus(of: pid, within: .seconds(60))
        let raw = try #require(status, "it ended soon after the signal")
        #expect((raw & 0x7f) == SIGTERM, "SIGTERM's default disposition ended it: \(raw)")
        #expect(server.requestCount("/feed.xml") == 0, "no run started")
    }

    /// A folder configured for one feed (`/feed.xml` on `server`) whose state's lock the test process holds.
    static func lockedFolder(_ server: LoopbackServer) throws -> (TemporaryDirectory, HeldLock) {
        server.route("/feed.xml", .ok(body: rss(["x"]), contentType: "application/rss+xml"))
        let folder = try TemporaryDirectory()
        try folder.write(config(server, paths: ["feed.xml"]), to: "feeds.yaml")
        return (folder, try HeldLock(path: folder.path(".tributary/state.sqlite.lock")))
    }

    /// Starts `tributary` with `arguments` in `folder`, its standard error going to `stderr.txt` there.
    static func spawnLogged(_ arguments: [String], in folder: TemporaryDirectory) throws -> pid_t {
        try ChildProcess([TributaryBinary.path] + arguments, directory: folder.url.path)
            .spawn(standardOutput: "/dev/null", standardError: folder.path("stderr.txt"))
    }

    /// Polls `path` until it contains `text`, for at most a minute.
    static func waitUntil(_ path: String, contains text: String) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let content = try? String(contentsOfFile: path, encoding: .utf8), content.contains(text) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// The raw `waitpid` status of `pid` once it ends, or nil if it is still running after `limit`.
    static func exitStatus(of pid: pid_t, within limit: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + limit
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) != pid {
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return status
    }

    /// Ends `pid` with SIGKILL and reaps it (a test that failed must not leave it running).
    static func killAndReap(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

@Suite("Progress line")
struct ProgressLineTests {
    @Test("On a terminal a live progress line shows while fetching; not when standard error is a file")
    func progressOnlyOnATerminal() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(String(decoding: StateEndToEndTests.rss(["x", "y"]), as: UTF8.self), to: "feed.xml")
        try folder.write(
            "sources:\n  - name: local\n    adapter: rss\n    url: feed.xml\noutputs:\n  - type: jsonfeed\n    path: out/river.json\n",
            to: "feeds.yaml")
        // script(1) (util-linux, always on Debian) runs the command on a pseudo-terminal.
        let onTerminal = try await ChildProcess(
            ["/usr/bin/script", "-qec", "'\(TributaryBinary.path)' run --no-state", "/dev/null"], directory: folder.url.path
        ).run()
        #expect(onTerminal.status == 0, "\(onTerminal.standardOutput)")
        #expect(onTerminal.standardOutput.contains("\r\u{1B}[2Kfetching 1/1 sources, "), "\(onTerminal.standardOutput)")
        let piped = try await TributaryBinary.run(["run", "--no-state"], in: folder.url.path)
        #expect(piped.status == 0)
        #expect(!piped.standardError.contains("fetching") && !piped.standardError.contains("\u{1B}"))
    }
}

private func header(_ name: String, in request: LoopbackRequest) -> String? {
    request.headers.first { $0.0.lowercased() == name.lowercased() }?.1
}
