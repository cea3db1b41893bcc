import Foundation
import TestSupport
import Testing
import TributaryModel

@testable import TributaryCore

@Suite("Configuration loading")
struct ConfigLoaderTests {
    @Test("a configuration using every section loads into the expected values")
    func fullConfiguration() throws {
        let configuration = try load(try fixture("full.yaml"))

        #expect(configuration.file == "feeds.yaml")
        #expect(configuration.directory == configDirectory)
        #expect(configuration.title == "Team river")
        #expect(configuration.id == "urn:example:team-river")
        #expect(configuration.link == "https://example.org/")
        #expect(configuration.author == Author(name: "River Team", url: "mailto:river@example.org"))

        var defaults = Defaults()
        defaults.timeout = .seconds(10)
        defaults.maxItems = 20
        defaults.jobs = 4
        defaults.perHost = 3
        defaults.userAgent = "RiverBot/1.0 (s3cret)"
        defaults.timeZone = "Asia/Shanghai"
        defaults.maxResponseBytes = 512 * 1024
        #expect(configuration.defaults == defaults)

        let alphaAdapter = StaticAdapter(count: 5, prefix: "alpha", interval: .seconds(1800))
        let betaURL = URL(fileURLWithPath: "/srv/river/data/beta.json")
        let gammaURL = URL(fileURLWithPath: "/srv/river/feeds/gamma.json")
        let deltaURL = try #require(URL(string: "https://Example.org/delta?x=1"))
        let expected = [
            SourceSummary(
                name: "alpha", adapterKind: "static", maxItems: 20, timeout: .seconds(10), tags: ["team", "alpha"],
                timeZone: "Asia/Shanghai", line: 20, adapter: alphaAdapter,
                options: ["count": .integer(5), "spacing": .duration(.seconds(1800))], written: ["count", "spacing"]),
            // Merged from the template: count, spacing and tags; name and adapter overridden.
            SourceSummary(
                name: "beta", adapterKind: "fixed", enabled: false, maxItems: 3, timeout: .seconds(90), weight: 0.5,
                tags: ["team", "alpha"], timeZone: "Europe/Paris", line: 27,
                adapter: StaticAdapter(count: 5, prefix: "b", interval: .seconds(1800), url: betaURL),
                options: ["count": .integer(5), "spacing": .duration(.seconds(1800)), "prefix": .string("b"), "url": .url(betaURL)],
                written: ["count", "spacing", "prefix", "url"]),
            SourceSummary(
                name: "gamma", adapterKind: "static", maxItems: 20, timeout: .seconds(10), tags: ["solo"], timeZone: "Asia/Shanghai",
                line: 38, adapter: StaticAdapter(count: 4, prefix: "gam", url: gammaURL),
                options: [
                    "count": .integer(4), "prefix": .string("gam"), "spacing": .duration(.seconds(3600)), "url": .url(gammaURL),
                ],
                written: ["count", "prefix", "url"]),
            SourceSummary(
                name: "delta", adapterKind: "static", maxItems: 20, timeout: .seconds(10), timeZone: "Asia/Shanghai", line: 45,
                adapter: StaticAdapter(count: 0, prefix: "delta", url: deltaURL, failure: "down for maintenance"),
                options: [
                    "count": .integer(0), "spacing": .duration(.seconds(3600)), "url": .url(deltaURL),
                    "fail": .string("down for maintenance"),
                ],
                written: ["count", "url", "fail"]),
        ]
        #expect(configuration.sources.map(\.summary) == expected)
        #expect(configuration.enabledSources.map(\.name) == ["alpha", "gamma", "delta"])

        var dedup = DedupConfig()
        dedup.sameURL = false
        #expect(configuration.dedup == dedup)
        #expect(configuration.ranking == RankingConfig())
        #expect(
            configuration.outputs == [
                OutputConfig(
                    kind: .atom, path: URL(fileURLWithPath: "/srv/river/out/river.atom"), displayPath: "out/river.atom",
                    url: "https://example.org/river.atom", limit: nil, title: "Team river (Atom)", format: .text),
                OutputConfig(
                    kind: .jsonfeed, path: URL(fileURLWithPath: "/var/www/river.json"), displayPath: "/var/www/river.json", url: nil,
                    limit: 50, title: nil, format: .text),
                OutputConfig(kind: .stdout, path: nil, displayPath: nil, url: nil, limit: 10, title: nil, format: .json),
            ])
    }

    /// The README's `author: {name, email, url}`: the address was lost when a page was given too.
    @Test("the river's author keeps a page and an address both")
    func authorWithPageAndAddress() throws {
        let yaml =
            "author: {name: Jane Doe, email: jane@example.org, url: \"https://jane.example.org/\"}\n"
            + "sources:\n  - {name: only, adapter: static, count: 1}\n"
        #expect(try load(yaml).author == Author(name: "Jane Doe", url: "https://jane.example.org/", email: "jane@example.org"))
    }

    @Test("the smallest configuration gets the documented defaults and a text listing on standard output")
    func minimalConfiguration() throws {
        let configuration = try load("sources:\n  - {name: only, adapter: static, count: 1}\n")
        #expect(configuration.title == "Tributary")
        #expect(configuration.id == nil)
        #expect(configuration.link == nil)
        #expect(configuration.author == nil)
        #expect(configuration.defaults == Defaults())
        #expect(configuration.dedup == DedupConfig())
        #expect(configuration.ranking == RankingConfig())
        #expect(
            configuration.sources.map(\.summary) == [
                SourceSummary(
                    name: "only", adapterKind: "static", timeout: .seconds(30), line: 2, adapter: StaticAdapter(count: 1, prefix: "only"),
                    options: ["count": .integer(1), "spacing": .duration(.seconds(3600))], written: ["count"])
            ])
        #expect(
            configuration.outputs == [
                OutputConfig(kind: .stdout, path: nil, displayPath: nil, url: nil, limit: nil, title: nil, format: .text)
            ])
    }

    @Test(
        "url options and output paths resolve against the configuration's folder",
        arguments: [
            ("feed.json", "file:///srv/river/feed.json"),
            ("./data/feed.json", "file:///srv/river/data/feed.json"),
            ("../shared/feed.json", "file:///srv/shared/feed.json"),
            ("/abs/feed.json", "file:///abs/feed.json"),
            ("file:feed.json", "file:///srv/river/feed.json"),
            ("file:../feed.json", "file:///srv/feed.json"),
            ("file:///abs/feed.json", "file:///abs/feed.json"),
            ("file:with%20space.json", "file:///srv/river/with%20space.json"),
            ("https://example.org/feed.json", "https://example.org/feed.json"),
            ("HTTP://example.org/a", "HTTP://example.org/a"),
        ])
    func pathResolution(_ written: String, _ expected: String) throws {
        // The output writes beside the source's file, not over it.
        func output(_ path: String) -> String { path.replacingOccurrences(of: ".json", with: ".out.json") }
        let configuration = try load(
            """
            sources:
              - name: a
                adapter: static
                count: 1
                url: "\(written)"
            outputs:
              - type: atom
                path: "\(written.lowercased().hasPrefix("http") ? "out.atom" : output(written))"
            """)
        let source = try #require(configuration.sources.first)
        #expect(source.options.url("url")?.absoluteString == expected)
        #expect((source.adapter as? StaticAdapter)?.url?.absoluteString == expected)
        if !written.lowercased().hasPrefix("http") {
            #expect(configuration.outputs.first?.path?.absoluteString == output(expected))
            #expect(configuration.outputs.first?.displayPath == output(written))
        }
    }

    @Test("a file is read from disk and its paths resolve against its own folder")
    func loadFile() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write(
            "sources:\n  - {name: a, adapter: static, count: 1, url: data/a.json}\noutputs:\n  - {type: jsonfeed, path: out/a.json}\n",
            to: "conf/feeds.yaml")
        let configuration = try makeLoader().load(file: path)
        let conf = folder.url.appendingPathComponent("conf")
        #expect(configuration.file == path)
        #expect(configuration.directory.path == conf.path)
        #expect(configuration.sources.first?.options.url("url")?.path == conf.appendingPathComponent("data/a.json").path)
        #expect(configuration.outputs.first?.path?.path == conf.appendingPathComponent("out/a.json").path)
    }

    @Test("a missing file is one error naming it")
    func missingFile() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("nope.yaml")
        #expect(throws: ConfigErrors([ConfigError(file: path, line: nil, column: nil, message: "the configuration file does not exist")])) {
            try makeLoader().load(file: path)
        }
    }

    @Test("a folder instead of a file cannot be read")
    func folderInsteadOfFile() throws {
        let folder = try TemporaryDirectory()
        #expect(
            throws: ConfigErrors([
                ConfigError(file: folder.url.path, line: nil, column: nil, message: "the configuration file cannot be read")
            ])
        ) {
            try makeLoader().load(file: folder.url.path)
        }
    }

    @Test("anchors and aliases work for single values too")
    func scalarAliases() throws {
        let configuration = try load(
            """
            defaults:
              timeout: &patience 45s
            sources:
              - name: a
                adapter: static
                count: &n 2
                tags: &shared [x, y]
              - name: b
                adapter: static
                count: *n
                timeout: *patience
                tags: *shared
            """)
        #expect(configuration.sources.map { ($0.adapter as? StaticAdapter)?.count } == [2, 2])
        #expect(configuration.sources.map(\.timeout) == [.seconds(45), .seconds(45)])
        #expect(configuration.sources.map(\.tags) == [["x", "y"], ["x", "y"]])
    }

    @Test(
        "booleans",
        arguments: [
            ("true", true), ("false", false), ("yes", true), ("no", false), ("on", true), ("off", false), ("True", true), ("NO", false),
        ])
    func booleans(_ written: String, _ expected: Bool) throws {
        let configuration = try load("sources:\n  - {name: a, adapter: static, count: 1, enabled: \(written)}\n")
        #expect(configuration.sources.map(\.enabled) == [expected])
    }

    @Test(
        "IANA names are time zones, the one-word ones too", arguments: ["Asia/Shanghai", "UTC", "GMT", "Etc/GMT-8", "EST", "PRC", "Japan"])
    func ianaTimeZones(_ name: String) throws {
        let configuration = try load("sources:\n  - {name: a, adapter: static, count: 1, timezone: \(name)}\n")
        #expect(configuration.sources.map(\.timeZone) == [name])
    }

    @Test("${VAR:-default} and ${VAR} work in any value, and $$ is a dollar")
    func environmentValues() throws {
        let configuration = try makeLoader(environment: ["NAME": "from-env", "EMPTY": "", "N": "7"])
            .load(
                text: """
                    title: "${TITLE:-Untitled} costs $$5"
                    sources:
                      - name: ${NAME}
                        adapter: static
                        count: ${N}
                        prefix: ${EMPTY:-p}
                        fail: ${EMPTY}
                    """, file: "feeds.yaml", directory: configDirectory)
        #expect(configuration.title == "Untitled costs $5")
        #expect(configuration.sources.first?.summary.adapter == StaticAdapter(count: 7, prefix: "p", failure: ""))
        #expect(configuration.sources.map(\.name) == ["from-env"])
    }

    @Test("The digest changes with the text and with the environment values the text reads, not with others")
    func digestReadsReferencedValues() throws {
        let text = "title: \"${TITLE:-T} 长 $${LITERAL}\"\nsources:\n  - name: a\n    adapter: static\n    count: ${N}\n"
        func digest(_ environment: [String: String], _ text: String = text) throws -> String? {
            try makeLoader(environment: environment).load(text: text, file: "feeds.yaml", directory: configDirectory).digest
        }
        let base = try digest(["N": "1"])
        #expect(base != nil)
        #expect(try digest(["N": "1", "OTHER": "x"]) == base, "a variable the text does not read")
        #expect(try digest(["N": "2"]) != base)
        #expect(try digest(["N": "1", "TITLE": "x"]) != base, "read with a default")
        #expect(try digest(["N": "1", "LITERAL": "x"]) != base, "named after an escaped dollar: counted, as before")
        #expect(try digest(["N": "1"], text + "# more\n") != base)
    }
}

/// An adapter whose API writes Beijing time, like the Chinese apps'.
private struct BeijingAdapter: SourceAdapter {
    static let kind = "beijing"
    static let summary = "test adapter with a time zone of its own"
    static let options: [AdapterOption] = []
    static let defaultTimeZone: String? = "Asia/Shanghai"
    init(options: AdapterOptions) throws(ConfigError) {}
    func fetch(in context: FetchContext) async throws -> SourceResult { SourceResult(items: []) }
}

@Suite("Adapter time zones")
struct AdapterTimeZoneTests {
    @Test(
        arguments: [
            ("", "Asia/Shanghai", ""),
            ("defaults: {timezone: Europe/Berlin}\n", "Asia/Shanghai", ""),
            ("", "UTC", "    timezone: UTC\n"),
        ] as [(String, String, String)])
    func theAdaptersZoneSitsBetweenTheSourceAndTheDefaults(_ defaults: String, _ expected: String, _ sourceLine: String) throws {
        let text = defaults + "sources:\n  - name: a\n    adapter: beijing\n" + sourceLine
        let configuration = try ConfigLoader(registry: AdapterRegistry([BeijingAdapter.self]), environment: [:])
            .load(text: text, file: "feeds.yaml", directory: URL(fileURLWithPath: "/srv"))
        #expect(configuration.sources.first?.timeZone == expected)
    }

    @Test func otherAdaptersTakeTheDefaults() throws {
        let text = "defaults: {timezone: Europe/Berlin}\nsources:\n  - name: a\n    adapter: static\n    count: 1\n"
        let configuration = try ConfigLoader(registry: AdapterRegistry([StaticAdapter.self]), environment: [:])
            .load(text: text, file: "feeds.yaml", directory: URL(fileURLWithPath: "/srv"))
        #expect(configuration.sources.first?.timeZone == "Europe/Berlin")
    }
}
