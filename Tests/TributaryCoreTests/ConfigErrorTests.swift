import Testing
import TributaryCore

@Suite("Configuration errors")
struct ConfigErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var rendered: String
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ rendered: String) {
            self.name = name
            self.text = text
            self.rendered = rendered
        }
    }

    /// One valid source, to complete files whose error is elsewhere.
    static let oneSource = "sources:\n  - {name: a, adapter: static, count: 1}\n"

    static let structureCases: [Case] = [
        Case("empty file", "", "feeds.yaml: error: the configuration is empty; it needs at least 'sources:'"),
        Case("only comments", "# nothing yet\n\n", "feeds.yaml: error: the configuration is empty; it needs at least 'sources:'"),
        Case("no sources key", "title: River\n", "feeds.yaml:1:1: error: the configuration has no 'sources:' list"),
        Case(
            "top level is a list", "- name: a\n",
            "feeds.yaml:1:1: error: the configuration must be a mapping of keys to values, found a list"),
        Case(
            "top level is a scalar", "hello\n",
            "feeds.yaml:1:1: error: the configuration must be a mapping of keys to values, found 'hello'"),
        Case("sources is a scalar", "sources: everything\n", "feeds.yaml:1:10: error: 'sources' must be a list, found 'everything'"),
        Case("sources is a mapping", "sources:\n  name: a\n", "feeds.yaml:2:3: error: 'sources' must be a list, found a mapping"),
        Case("sources is empty", "sources: []\n", "feeds.yaml:1:10: error: 'sources' lists no source; add at least one"),
        Case(
            "a source is a scalar", "sources:\n  - just-a-name\n",
            "feeds.yaml:2:5: error: each source must be a mapping of keys to values, found 'just-a-name'"),
        Case(
            "unknown top-level key with a suggestion", "tittle: River\n" + oneSource,
            "feeds.yaml:1:1: error: unknown key 'tittle' at the top level; did you mean 'title'?"),
        Case(
            "unknown top-level key without a suggestion", oneSource + "plugins: []\n",
            "feeds.yaml:3:1: error: unknown key 'plugins' at the top level "
                + "(expected one of: title, id, link, author, defaults, sources, rules, dedup, ranking, outputs, state, retention)"),
        Case(
            "a key that is not a word", "? [a, b]\n: c\n" + oneSource,
            "feeds.yaml:1:3: error: keys at the top level must be plain words, found a list"),
        Case(
            "unknown key in defaults", "defaults:\n  timout: 5s\n" + oneSource,
            "feeds.yaml:2:3: error: unknown key 'timout' in 'defaults'; did you mean 'timeout'?"),
        Case("author without a name", "author:\n  email: a@example.org\n" + oneSource, "feeds.yaml:2:3: error: 'author' needs a 'name'"),
        Case(
            "unknown ranking strategy", "ranking:\n  strategy: popular\n" + oneSource,
            "feeds.yaml:2:13: error: 'strategy' must be one of date, hot, found 'popular'"),
        Case(
            "unknown dedup key", "dedup:\n  same_title: true\n" + oneSource,
            "feeds.yaml:2:3: error: unknown key 'same_title' in 'dedup' (expected one of: same_url, near_duplicates, tracking_parameters)"),
    ]

    static let sourcesCases: [Case] = [
        Case(
            "unknown adapter option with a suggestion", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    prefx: p\n",
            "feeds.yaml:5:5: error: unknown key 'prefx' in source 'a' (adapter 'static'); did you mean 'prefix'?"),
        Case(
            "unknown common key with a suggestion", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    max_item: 3\n",
            "feeds.yaml:5:5: error: unknown key 'max_item' in source 'a' (adapter 'static'); did you mean 'max_items'?"),
        Case(
            "unknown source key without a suggestion",
            "sources:\n  - name: a\n    adapter: static\n    count: 1\n    colour_scheme: dark\n",
            "feeds.yaml:5:5: error: unknown key 'colour_scheme' in source 'a' (adapter 'static') (expected one of: name, adapter, "
                + "enabled, max_items, timeout, weight, tags, timezone, insecure, rules, stale_after, interval, backoff, "
                + "count, prefix, spacing, url, fail)"),
        Case(
            "missing required adapter option", "sources:\n  - name: a\n    adapter: static\n",
            "feeds.yaml:2:5: error: source 'a': missing required option 'count' for adapter 'static' (how many items to produce)"),
        Case(
            "missing name", "sources:\n  - adapter: static\n    count: 1\n", "feeds.yaml:2:5: error: the source at line 2 has no 'name'"),
        Case(
            "empty name", "sources:\n  - name: ''\n    adapter: static\n    count: 1\n",
            "feeds.yaml:2:11: error: a source's 'name' must not be empty"),
        Case(
            "missing adapter", "sources:\n  - name: a\n    count: 1\n",
            "feeds.yaml:2:5: error: source 'a' has no 'adapter' (run 'tributary adapters' to list them)"),
        Case(
            "unknown adapter with a suggestion (its options are not checked)",
            "sources:\n  - name: a\n    adapter: statik\n    count: 1\n    anything: goes\n",
            "feeds.yaml:3:14: error: source 'a': unknown adapter 'statik'; did you mean 'static'? (run 'tributary adapters' to list them)"),
        Case(
            "unknown adapter without a suggestion", "sources:\n  - name: a\n    adapter: rss\n",
            "feeds.yaml:3:14: error: source 'a': unknown adapter 'rss' (run 'tributary adapters' to list them)"),
        Case(
            "duplicate source names",
            "sources:\n  - name: a\n    adapter: static\n    count: 1\n  - name: a\n    adapter: fixed\n    count: 2\n",
            "feeds.yaml:5:5: error: duplicate source name 'a' (first used at line 2); names must be unique"),
        Case(
            "bad time zone with a suggestion", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    timezone: Asia/Shangai\n",
            "feeds.yaml:5:15: error: 'timezone': unknown time zone 'Asia/Shangai'; did you mean 'Asia/Shanghai'?"),
        Case(
            "bad default time zone without a suggestion", "defaults:\n  timezone: Mars/Olympus_Mons\n" + oneSource,
            "feeds.yaml:2:13: error: 'timezone': unknown time zone 'Mars/Olympus_Mons' (expected an IANA name such as Asia/Shanghai or UTC)"
        ),
        Case(
            "an ambiguous time-zone abbreviation", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    timezone: CST\n",
            "feeds.yaml:5:15: error: 'timezone': 'CST' is an abbreviation, not an IANA time zone name; write Asia/Shanghai (China) or America/Chicago (US Central)"
        ),
        Case(
            "a time-zone abbreviation Foundation takes for another zone", "defaults:\n  timezone: BST\n" + oneSource,
            "feeds.yaml:2:13: error: 'timezone': 'BST' is an abbreviation, not an IANA time zone name; write Europe/London (British Summer Time) or Asia/Dhaka (Bangladesh)"
        ),
        Case(
            "an ICU abbreviation without a known meaning", "defaults:\n  timezone: VST\n" + oneSource,
            "feeds.yaml:2:13: error: 'timezone': 'VST' is an abbreviation, not an IANA time zone name; write the zone's Area/Location name, such as Asia/Shanghai"
        ),
        Case(
            "error from the adapter's own checks, at the option",
            "sources:\n  - name: a\n    adapter: static\n    count: 1\n    prefix: ''\n",
            "feeds.yaml:5:5: error: source 'a': 'prefix' must not be empty"),
    ]

    static let typesCases: [Case] = [
        Case(
            "integer", "sources:\n  - name: a\n    adapter: static\n    count: lots\n",
            "feeds.yaml:4:12: error: 'count' must be an integer, found 'lots'"),
        Case(
            "integer out of the option's range", "sources:\n  - name: a\n    adapter: static\n    count: 1_001\n",
            "feeds.yaml:4:12: error: 'count' must be between 0 and 1000, found 1001"),
        Case(
            "max_items out of range", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    max_items: 0\n",
            "feeds.yaml:5:16: error: 'max_items' must be between 1 and 1000000, found 0"),
        Case(
            "boolean", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    enabled: maybe\n",
            "feeds.yaml:5:14: error: 'enabled' must be true or false, found 'maybe'"),
        Case(
            "duration", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    timeout: soon\n",
            "feeds.yaml:5:14: error: 'timeout' must be a duration such as 500ms, 30s, 5m or 1h, found 'soon'"),
        Case(
            "adapter duration option", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    spacing: 5 minutes\n",
            "feeds.yaml:5:14: error: 'spacing' must be a duration such as 500ms, 30s, 5m or 1h, found '5 minutes'"),
        Case(
            "default duration", "defaults:\n  timeout: -5s\n" + oneSource,
            "feeds.yaml:2:12: error: 'timeout' must be a duration such as 500ms, 30s, 5m or 1h, found '-5s'"),
        Case(
            "a zero timeout (a command raced it; an HTTP source ran without a limit)", "defaults:\n  timeout: 0s\n" + oneSource,
            "feeds.yaml:2:12: error: 'timeout' must be longer than zero, found '0s'"),
        Case(
            "a source's zero timeout",
            "sources:\n  - {name: a, adapter: static, count: 1, timeout: 0ms}\n",
            "feeds.yaml:2:51: error: 'timeout' must be longer than zero, found '0ms'"),
        Case(
            "a duration too large to hold", "defaults:\n  timeout: 1e16\n" + oneSource,
            "feeds.yaml:2:12: error: 'timeout' is too large: at most 36500d (100 years), found '1e16'"),
        Case(
            "a duration with a unit too large to hold", "retention: 9999999999999999999s\n" + oneSource,
            "feeds.yaml:1:12: error: 'retention' is too large: at most 36500d (100 years), found '9999999999999999999s'"),
        Case(
            "number", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    weight: heavy\n",
            "feeds.yaml:5:13: error: 'weight' must be a number, found 'heavy'"),
        Case(
            "negative weight", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    weight: -1\n",
            "feeds.yaml:5:13: error: 'weight' must not be negative"),
        Case(
            "list given a mapping", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    tags: {a: b}\n",
            "feeds.yaml:5:11: error: 'tags' must be a list, found a mapping"),
        Case(
            "list with a nested list", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    tags: [a, [b]]\n",
            "feeds.yaml:5:15: error: each entry of 'tags' must be a single value, found a list"),
        Case(
            "string given a list", "title: [a, b]\n" + oneSource, "feeds.yaml:1:8: error: 'title' must be a single value, found a list"),
        Case(
            "string given nothing", "title:\n" + oneSource, "feeds.yaml:1:7: error: 'title' must be a string, found nothing"),
        Case(
            "size", "defaults:\n  max_size: lots\n" + oneSource,
            "feeds.yaml:2:13: error: 'max_size' must be a size such as 512KB or 20MB, found 'lots'"),
        Case(
            "url with another scheme", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    url: ftp://example.org/feed\n",
            "feeds.yaml:5:10: error: 'url' must be an http(s) URL, a file: URL or a path, found the scheme 'ftp:'"),
        Case(
            "url without a host", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    url: https://\n",
            "feeds.yaml:5:10: error: 'url' is not a valid URL: 'https://'"),
        Case(
            "web url missing a slash", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    url: http:/example.org/feed\n",
            "feeds.yaml:5:10: error: 'url' is not a valid URL: 'http:/example.org/feed'"),
        Case(
            "empty url", "sources:\n  - name: a\n    adapter: static\n    count: 1\n    url: ''\n",
            "feeds.yaml:5:10: error: 'url' must not be empty"),
    ]

    static let outputsCases: [Case] = [
        Case(
            "output without a path", oneSource + "outputs:\n  - type: atom\n",
            "feeds.yaml:4:5: error: the 'atom' output needs a 'path' for its file"),
        Case(
            "output path naming a folder", oneSource + "outputs:\n  - type: jsonfeed\n    path: out/\n",
            "feeds.yaml:5:11: error: 'path' must name a file, found 'out/'"),
        Case(
            "output without a type", oneSource + "outputs:\n  - path: out/a.xml\n",
            "feeds.yaml:4:5: error: the output has no 'type' (one of: atom, jsonfeed, rss, html, stdout)"),
        Case(
            "unknown output type", oneSource + "outputs:\n  - type: feed\n    path: a.xml\n",
            "feeds.yaml:4:11: error: 'type' must be one of atom, jsonfeed, rss, html, stdout, found 'feed'"),
        Case(
            "misspelt output type", oneSource + "outputs:\n  - type: Atom\n    path: a.xml\n",
            "feeds.yaml:4:11: error: 'type' must be one of atom, jsonfeed, rss, html, stdout, found 'Atom'; did you mean 'atom'?"),
        Case(
            "a key another output type has", oneSource + "outputs:\n  - type: stdout\n    path: a.txt\n",
            "feeds.yaml:5:5: error: unknown key 'path' in a 'stdout' output (expected one of: type, limit, title, format, rules)"),
        Case(
            "an rss output without a channel link", oneSource + "outputs:\n  - type: rss\n    path: a.xml\n",
            "feeds.yaml:4:5: error: the 'rss' output needs a 'url' (its public address) or a top-level 'link': RSS 2.0 requires a channel link"
        ),
        Case(
            "an rss output with a relative url", oneSource + "outputs:\n  - type: rss\n    path: a.xml\n    url: river.xml\n",
            "feeds.yaml:6:10: error: 'url' of an 'rss' output must be its public http(s) URL, found 'river.xml'"),
        Case(
            "unknown content mode", oneSource + "outputs:\n  - type: atom\n    path: a.xml\n    content: summry\n",
            "feeds.yaml:6:14: error: 'content' must be one of full, summary, found 'summry'; did you mean 'summary'?"),
        Case(
            "an unknown content mode on an html output", oneSource + "outputs:\n  - type: html\n    path: a.html\n    content: ful\n",
            "feeds.yaml:6:14: error: 'content' must be one of full, summary, found 'ful'; did you mean 'full'?"),
        Case(
            "a key only stdout has on an html output", oneSource + "outputs:\n  - type: html\n    path: a.html\n    format: json\n",
            "feeds.yaml:6:5: error: unknown key 'format' in a 'html' output (expected one of: type, limit, title, path, url, content, rules)"
        ),
        Case(
            "a bad rule of an output",
            oneSource + "outputs:\n  - type: jsonfeed\n    path: a.json\n    rules: {keep: [{tag: {in: [swift]}}]}\n",
            "feeds.yaml:6:21: error: unknown rule field 'tag'; did you mean 'tags'?"),
        Case(
            "unknown stdout format", oneSource + "outputs:\n  - type: stdout\n    format: jsn\n",
            "feeds.yaml:5:13: error: 'format' must be one of text, json, found 'jsn'; did you mean 'json'?"),
        Case(
            "two outputs with the same path",
            oneSource + "outputs:\n  - type: atom\n    path: out/river.xml\n  - type: jsonfeed\n    path: ./out/../out/river.xml\n",
            "feeds.yaml:6:5: error: two outputs write './out/../out/river.xml' (the other at line 4)"),
    ]

    static let overwriteCases: [Case] = [
        Case(
            "an output over the configuration file", oneSource + "outputs:\n  - type: atom\n    path: ./feeds.yaml\n",
            "feeds.yaml:5:11: error: 'path' './feeds.yaml' is the configuration file itself: the output would overwrite it"),
        Case(
            "an output over a source's file",
            "sources:\n  - {name: a, adapter: static, count: 1, url: data/base.json}\noutputs:\n  - type: jsonfeed\n    path: data/../data/base.json\n",
            "feeds.yaml:5:11: error: 'path' 'data/../data/base.json' is the file source 'a' reads (line 2): the output would overwrite it"),
        Case(
            "an output over the state file", "state: data/state.db\n" + oneSource + "outputs:\n  - type: atom\n    path: data/state.db\n",
            "feeds.yaml:6:11: error: 'path' 'data/state.db' is the state file (line 1): the output would overwrite it"),
        Case(
            "an output over the default state file", oneSource + "outputs:\n  - type: atom\n    path: .tributary/state.sqlite\n",
            "feeds.yaml:5:11: error: 'path' '.tributary/state.sqlite' is the state file (.tributary/state.sqlite, as 'state' is not set): the output would overwrite it"
        ),
        Case(
            "the state file in the configuration's place", "state: feeds.yaml\n" + oneSource,
            "feeds.yaml:1:8: error: 'state' names the configuration file itself; the state file must be a file of its own"),
        Case(
            "an empty state file", "state: ''\n" + oneSource,
            "feeds.yaml:1:8: error: 'state' must name a file, found '' (write 'off' for no state file)"),
        Case(
            "a state file that is a directory", "state: /tmp\n" + oneSource,
            "feeds.yaml:1:8: error: 'state' names '/tmp', which is a directory; name a file in it, such as '/tmp/state.sqlite'"),
    ]

    static let addressCases: [Case] = [
        Case(
            "a link without its scheme", "link: www.example.org\n" + oneSource,
            "feeds.yaml:1:7: error: 'link' must be the river's home page as an absolute http(s) URL, found 'www.example.org'; did you mean 'https://www.example.org'?"
        ),
        Case(
            "a link that is no URL", "link: not a url\n" + oneSource,
            "feeds.yaml:1:7: error: 'link' must be the river's home page as an absolute http(s) URL, found 'not a url'"),
        Case(
            "a link with a space, which the outputs would escape", "link: https://example.org/my river\n" + oneSource,
            "feeds.yaml:1:7: error: 'link' must be the river's home page as an absolute http(s) URL, found 'https://example.org/my river'"
        ),
        Case(
            "a link without a host", "link: https:///river\n" + oneSource,
            "feeds.yaml:1:7: error: 'link' must be the river's home page as an absolute http(s) URL, found 'https:///river'"),
        Case(
            "an id that is no IRI", "id: my river\n" + oneSource,
            "feeds.yaml:1:5: error: 'id' must be an IRI with a scheme, such as urn:example:my-river or https://example.org/river, found 'my river'"
        ),
        Case(
            "an atom output's url that is no URL", oneSource + "outputs:\n  - type: atom\n    path: a.xml\n    url: also not a url\n",
            "feeds.yaml:6:10: error: 'url' of an 'atom' output must be its public http(s) URL, found 'also not a url'"),
    ]

    static let environmentCases: [Case] = [
        Case(
            "unset variable", "title: ${NOPE}\n" + oneSource,
            "feeds.yaml:1:8: error: 'title': environment variable 'NOPE' is not set (write ${NOPE:-default} for a fallback)"),
        Case(
            "unset variable in a typed option", "sources:\n  - name: a\n    adapter: static\n    count: ${COUNT}\n",
            "feeds.yaml:4:12: error: 'count': environment variable 'COUNT' is not set (write ${COUNT:-default} for a fallback)"),
        Case("unterminated reference", "title: River ${TOKEN\n" + oneSource, "feeds.yaml:1:8: error: 'title': '${' without a closing '}'"),
        Case(
            "bad variable name", "title: \"${1TOKEN}\"\n" + oneSource,
            "feeds.yaml:1:8: error: 'title': '1TOKEN' is not a valid environment variable name"),
    ]

    static let syntaxCases: [Case] = [
        Case(
            "unterminated flow sequence", "sources:\n  - name: [a\n    adapter: static\n",
            "feeds.yaml:3:12: error: did not find expected ',' or ']' (while parsing a flow sequence that started at 2:11)"),
        Case(
            "tab indentation", "sources:\n\t- name: a\n",
            "feeds.yaml:2:1: error: found character that cannot start any token (while scanning for the next token)"),
        Case(
            "duplicate key", "title: a\ntitle: b\n" + oneSource, "feeds.yaml:2:1: error: duplicate key 'title' (first defined at 1:1)"),
    ]

    @Test("structure", arguments: structureCases) func structure(_ testCase: Case) { check(testCase) }
    @Test("sources", arguments: sourcesCases) func sources(_ testCase: Case) { check(testCase) }
    @Test("wrong types", arguments: typesCases) func types(_ testCase: Case) { check(testCase) }
    @Test("outputs", arguments: outputsCases) func outputs(_ testCase: Case) { check(testCase) }
    @Test("files a run reads are not outputs", arguments: overwriteCases) func overwrites(_ testCase: Case) { check(testCase) }
    @Test("addresses of the river", arguments: addressCases) func addresses(_ testCase: Case) { check(testCase) }
    @Test("environment references", arguments: environmentCases) func environment(_ testCase: Case) { check(testCase) }
    @Test("YAML syntax", arguments: syntaxCases) func syntax(_ testCase: Case) { check(testCase) }

    private func check(_ testCase: Case) {
        #expect(loadErrors(testCase.text) == testCase.rendered)
    }

    @Test("every error in a file is reported, sorted by position")
    func severalErrors() {
        let text = """
            sources:
              - name: a
                adapter: static
                count: 1
              - name: b
                adapter: static
                count: lots
                prefx: red
              - name: a
                adapter: static
                count: 2
              - adapter: statik
            outputs:
              - type: atom
            defaults:
              timeout: forever
            tittle: x
            """
        #expect(
            loadErrors(text, file: "conf/team.yaml") == """
                conf/team.yaml:7:12: error: 'count' must be an integer, found 'lots'
                conf/team.yaml:8:5: error: unknown key 'prefx' in source 'b' (adapter 'static'); did you mean 'prefix'?
                conf/team.yaml:9:5: error: duplicate source name 'a' (first used at line 2); names must be unique
                conf/team.yaml:12:5: error: the source at line 12 has no 'name'
                conf/team.yaml:12:14: error: the source at line 12: unknown adapter 'statik'; did you mean 'static'? (run 'tributary adapters' to list them)
                conf/team.yaml:14:5: error: the 'atom' output needs a 'path' for its file
                conf/team.yaml:16:12: error: 'timeout' must be a duration such as 500ms, 30s, 5m or 1h, found 'forever'
                conf/team.yaml:17:1: error: unknown key 'tittle' at the top level; did you mean 'title'?
                """)
    }

    @Test("errors are values: the thrown list holds each error's file, line, column and message")
    func errorValues() throws {
        #expect(
            throws: ConfigErrors([
                ConfigError(file: "f.yaml", line: 2, column: 5, message: "the source at line 2 has no 'name'"),
                ConfigError(
                    file: "f.yaml", line: 2, column: 5,
                    message: "the source at line 2 has no 'adapter' (run 'tributary adapters' to list them)"),
            ])
        ) {
            try makeLoader().load(text: "sources:\n  - enabled: true\n", file: "f.yaml", directory: configDirectory)
        }
    }
}
