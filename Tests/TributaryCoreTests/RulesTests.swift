import Foundation
import TestSupport
import Testing
import TributaryModel

@testable import TributaryCore

/// Block and keep rules: the YAML shape from the issue, each matcher, combinators, scopes and errors.
@Suite("Rules")
struct RulesTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    private func load(_ yaml: String) throws -> Configuration {
        try ConfigLoader(registry: AdapterRegistry([StaticAdapter.self]), environment: [:])
            .load(text: yaml, file: "feeds.yaml", directory: URL(fileURLWithPath: "/srv"))
    }

    private func errors(_ yaml: String) -> [String] {
        do {
            _ = try load(yaml)
            return []
        } catch let error as ConfigErrors {
            return error.errors.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    static let issueExample = """
        sources:
          - {name: toutiao, adapter: static, count: 1}
        rules:
          block:
            - name: ads-zh
              title: {contains: 推广}
            - title: {matches: "(?i)^sponsored"}
            - any: [{url: {contains: "/ads/"}}, {tags: {in: [广告, promoted]}}]
            - all: [{source: {equals: toutiao}}, {comments: {lt: 3}}]
            - older_than: 14d
          keep:
            - title: {contains: swift}
            - title: {contains: 新闻}

        """

    static func item(
        _ title: String, source: String = "blog", url: String = "https://example.org/a", tags: [String] = [],
        comments: Int? = nil, age: TimeInterval = 3600
    ) -> Item {
        Item(
            id: title, source: source, url: url, title: title, published: now.addingTimeInterval(-age), tags: tags,
            metrics: comments.map { ["comments": $0] } ?? [:])
    }

    @Test(arguments: [
        (item("Swift 6.3 released"), "pass"),
        (item("Swift 推广 event"), "blocked by 'ads-zh' (feeds.yaml:5:7)"),
        (item("SPONSORED: Swift tools"), "blocked by the rule at feeds.yaml:7:7"),
        (item("Swift ads", url: "https://example.org/ads/1"), "blocked by the rule at feeds.yaml:8:7"),
        (item("Swift thing", tags: ["Promoted"]), "blocked by the rule at feeds.yaml:8:7"),
        (item("Swift hot take", source: "toutiao", comments: 2), "blocked by the rule at feeds.yaml:9:7"),
        (item("Swift hot take", source: "toutiao", comments: 30), "pass"),
        (item("Swift hot take", source: "toutiao"), "pass"),  // no comments metric: the comparison does not hold
        (item("Swift history", age: 15 * 86_400), "blocked by the rule at feeds.yaml:10:7"),
        (item("今日新闻：开源"), "pass"),
        (item("Rust 1.90 released"), "not kept"),
    ])
    func theIssuesExample(_ item: Item, _ expected: String) throws {
        let rules = try load(Self.issueExample).rules
        let verdict: String =
            switch rules.verdict(on: item, now: Self.now) {
            case .pass: "pass"
            case .blocked(let rule): "blocked by \(rule.label)"
            case .notKept: "not kept"
            }
        #expect(verdict == expected)
    }

    @Test func sourceRulesApplyToTheirSourceAndExplainWhy() throws {
        let yaml = """
            sources:
              - name: a
                adapter: static
                count: 3
                rules: {block: [{name: no-two, title: {equals: "a 2"}}]}
              - {name: b, adapter: static, count: 3}
            rules:
              keep: [{not: {title: {equals: "b 3"}}}]

            """
        let configuration = try load(yaml)
        let batches = configuration.sources.map { source in
            Pipeline.Batch(
                source: source,
                items: (1...3).map {
                    Item(id: "\(source.name)-\($0)", source: source.name, title: "\(source.name) \($0)", published: Self.now)
                })
        }
        let result = Pipeline(configuration, now: Self.now).run(batches)
        #expect(Set(result.items.map(\.id)) == ["a-1", "a-3", "b-1", "b-2"])
        #expect(result.dropped.map(\.id) == ["a-2", "b-3"])
        #expect(result.dropped.first?.reason == "blocked by 'no-two' (feeds.yaml:5:21)")
        #expect(result.dropped.last?.reason == "matched none of the global rules (keep: feeds.yaml:8:10)")
    }

    @Test(arguments: [
        (30.0 * 60, "pass"),  // newer than 2h and not older than 1d
        (3 * 3600.0, "not kept"),  // older than the 2h of the keep rule
        (2 * 86_400.0, "blocked"),  // older than 1d, nested under `all`
        (7200.0, "not kept"),  // exactly 2h old: `newer_than` is strict
    ])
    func agesAloneAndNested(_ age: TimeInterval, _ expected: String) throws {
        let yaml = """
            sources: [{name: a, adapter: static, count: 1}]
            rules:
              block: [{all: [{older_than: 1d}, {not: {newer_than: 1h}}]}]
              keep: [{newer_than: 2h}, {all: [{older_than: 1d}, {title: {contains: old}}]}]

            """
        let rules = try load(yaml).rules
        let item = Self.item("x", age: age)
        let verdicts = [rules.verdict(on: item, now: Self.now), rules.generalVerdict(on: item, now: Self.now)].map { verdict in
            switch verdict {
            case .pass: "pass"
            case .blocked: "blocked"
            case .notKept: "not kept"
            }
        }
        #expect(verdicts == [expected, expected])
    }

    @Test func metricsNotInTheListUseTheMetricForm() throws {
        let rules = try load("sources: [{name: a, adapter: static, count: 1}]\nrules: {block: [{metric: {name: buries, gte: 10}}]}\n").rules
        var item = Self.item("x")
        item.metrics["buries"] = 12
        if case .blocked = rules.verdict(on: item, now: Self.now) {} else { Issue.record("a metric rule must block") }
    }

    @Test(arguments: [
        ("rules: {block: [{titel: {contains: x}}]}\n", "feeds.yaml:2:18: error: unknown rule field 'titel'; did you mean 'title'?"),
        (
            "rules: {block: [{title: {matches: \"(unclosed\"}}]}\n",
            "feeds.yaml:2:35: error: 'matches': invalid regular expression '(unclosed'"
        ),
        (
            "rules: {block: [{title: {contians: x}}]}\n",
            "feeds.yaml:2:26: error: unknown key 'contians' in 'title' (a text match); did you mean 'contains'?"
        ),
        ("rules: {block: [{comments: {gte: many}}]}\n", "feeds.yaml:2:34: error: 'gte' must be an integer, found 'many'"),
        (
            "rules: {block: [{older_than: soon}]}\n",
            "feeds.yaml:2:30: error: 'older_than' must be a duration such as 500ms, 30s, 5m or 1h, found 'soon'"
        ),
        ("rules: {block: [{name: empty}]}\n", "feeds.yaml:2:17: error: a rule needs a condition, e.g. title: {contains: word}"),
        ("rules: {allow: []}\n", "feeds.yaml:2:9: error: unknown key 'allow' in 'rules' (expected one of: block, keep)"),
    ])
    func mistakesArePositioned(_ rules: String, _ expected: String) {
        #expect(errors("sources: [{name: a, adapter: static, count: 1}]\n" + rules) == [expected])
    }
}

/// Near-duplicate headlines merged across sources in the pipeline, and the switch that turns it off.
@Suite("Near-duplicates in the pipeline")
struct NearDuplicatePipelineTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    private func river(_ dedup: String) throws -> [Item] {
        let yaml = "sources:\n  - {name: a, adapter: static, count: 1}\n  - {name: b, adapter: static, count: 1, weight: 2}\n" + dedup
        let configuration = try ConfigLoader(registry: AdapterRegistry([StaticAdapter.self]), environment: [:])
            .load(text: yaml, file: "feeds.yaml", directory: URL(fileURLWithPath: "/srv"))
        let titles = [("a", "【独家】国产操作系统新版本发布"), ("b", "国产操作系统新版本发布"), ("a", "Linux 6.10 released"), ("b", "Linux 6.11 released")]
        let batches = configuration.sources.map { source in
            Pipeline.Batch(
                source: source,
                items: titles.enumerated().filter { $0.element.0 == source.name }.map { index, pair in
                    Item(
                        id: "\(index)", source: source.name, url: "https://\(source.name).example.org/\(index)", title: pair.1,
                        published: Self.now)
                })
        }
        return Pipeline(configuration, now: Self.now).run(batches).items
    }

    @Test func theSameStoryIsMergedIntoTheHeavierSourcesItem() throws {
        let items = try river("")
        #expect(items.count == 3, "\(items.map(\.title))")
        let merged = try #require(items.first { $0.title == "国产操作系统新版本发布" })
        #expect(merged.source == "b")
        #expect(merged.duplicates.map(\.title) == ["【独家】国产操作系统新版本发布"])
        #expect(items.contains { $0.title == "Linux 6.10 released" } && items.contains { $0.title == "Linux 6.11 released" })
    }

    @Test func offKeepsEveryItem() throws {
        #expect(try river("dedup: {near_duplicates: off}\n").count == 4)
        // The 【独家】 prefix is stripped before comparing, so even 0.99 merges that pair.
        #expect(try river("dedup: {near_duplicates: 0.99}\n").count == 3)
    }

    @Test func aThresholdOutsideZeroToOneIsAnError() {
        #expect(throws: ConfigErrors.self) { try river("dedup: {near_duplicates: 1.5}\n") }
    }
}
