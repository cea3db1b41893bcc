import Foundation
import TestSupport
import Testing
import TributaryModel
import TributarySyndication

@testable import TributaryCore

/// The byte-level paths of the pipeline stages give what the general paths give, on generated inputs that mix
/// ASCII, Chinese, full-width forms, accents, combining marks and the scalars whose case mappings or canonical
/// decompositions reach ASCII.
@Suite("Pipeline byte-level fast paths")
struct PipelineByteFastPathTests {
    /// A small seeded generator (SplitMix64), so every run sees the same inputs.
    struct Generator {
        private var random: SeededGenerator

        init(state: UInt64) { random = SeededGenerator(seed: state) }

        mutating func next() -> UInt64 { random.next() }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        mutating func pick<T>(_ list: [T]) -> T { list[below(list.count)] }

        /// A text of `pieces` pieces drawn from `alphabet`.
        mutating func text(_ alphabet: [String], pieces: Int) -> String {
            (0..<below(pieces + 1)).map { _ in pick(alphabet) }.joined()
        }
    }

    /// Pieces of text: ASCII in both cases, spaces and controls, Chinese and its punctuation, full-width letters,
    /// accents precomposed and decomposed, and scalars that fold or decompose to ASCII (ſ, K the Kelvin sign, ß, ﬆ,
    /// İ, U+037E, U+1FEF), non-breaking and ideographic spaces, markup and entities.
    static let alphabet = [
        "a", "B", "s", "S", "k", "K", "sponsored", "Sponsored", "SPONSORED", "ad", "AD", "swift", "Swift", " ", "  ", "\t", "\n",
        "推广", "广告", "新闻", "模型", "芯片", "，", "【", "】", "。", "Ａ", "ａ", "Ｓ", "é", "e\u{301}", "É", "\u{301}", "ſ", "\u{212A}",
        "ß", "ﬆ", "İ", "\u{37E}", "\u{1FEF}", "\u{A0}", "\u{3000}", "\u{2003}", "<b>", "&amp;", "&", "<", "1", "2024", "-", "/ads/",
        "が", "ｶ", "😀", "\u{85}", "\u{7F}", "\u{200B}",
    ]

    static func texts(count: Int, seed: UInt64, pieces: Int = 8) -> [String] {
        var generator = Generator(state: seed)
        return (0..<count).map { _ in generator.text(alphabet, pieces: pieces) }
    }

    // MARK: Rules

    @Test("`contains` by bytes with A–Z lower-cased on the way finds what a search in the lower-cased text finds")
    func containsRules() {
        let needles = ["sponsored", "ad", "swift", "推广", "广告", "s", "k", "ss", "st", "é", "e\u{301}", "ａ", "ｓ", "", " ", "/ads/", "i"]
        let texts = Self.texts(count: 3_000, seed: 1)
        for needle in needles {
            let rules = RuleSet(block: [Rule(location: "feeds.yaml:1:1", condition: .text(.any, .contains([needle])))])
            for text in texts {
                let item = Item(id: "1", source: text, url: text, title: text, summary: text, tags: [text, "x"])
                #expect(
                    rules.verdict(on: item, now: fixedNow).isPass == rules.generalVerdict(on: item, now: fixedNow).isPass,
                    "needle \(needle.debugDescription) in \(text.debugDescription)")
            }
        }
    }

    @Test("a text is lower-cased without a new string only when lower-casing would not change it")
    func lowercasedTexts() {
        for text in Self.texts(count: 3_000, seed: 2) {
            let lowered = ItemFields.lowercased(text)
            #expect(Array(lowered.unicodeScalars) == Array(text.lowercased().unicodeScalars), "\(text.debugDescription)")
        }
    }

    @Test("`equals` and `in` read fields lower-cased as before")
    func equalsAndOneOf() {
        let rules = RuleSet(block: [
            Rule(location: "feeds.yaml:1:1", condition: .text(.source, .equals("toutiao"))),
            Rule(location: "feeds.yaml:2:1", condition: .text(.tags, .oneOf(["广告", "promoted", "sponsored", "ß"]))),
        ])
        var generator = Generator(state: 3)
        let sources = ["toutiao", "Toutiao", "TOUTIAO", "toutiao ", "ｔｏｕｔｉａｏ", "sina"]
        let tags = ["广告", "Promoted", "PROMOTED", "Sponſored", "SPONSORED", "ẞ", "ß", "news"]
        for _ in 0..<500 {
            let item = Item(id: "1", source: generator.pick(sources), tags: [generator.pick(tags), generator.pick(tags)])
            #expect(rules.verdict(on: item, now: fixedNow).isPass == rules.generalVerdict(on: item, now: fixedNow).isPass)
        }
    }

    @Test("`in` on tags and authors with values that compare by bytes reads them as the set does")
    func oneOfByBytes() {
        let rules = RuleSet(block: [
            Rule(location: "feeds.yaml:1:1", condition: .text(.tags, .oneOf(["广告", "promoted", "sponsored", "推广 合作"]))),
            Rule(location: "feeds.yaml:2:1", condition: .text(.author, .oneOf(["新华社", "reuters"]))),
        ])
        var generator = Generator(state: 4)
        let tags = [
            "广告", "Promoted", "PROMOTED", "promoted ", "Sponſored", "SPONSORED", "ｐromoted", "推广 合作", "推广合作", "广告\u{301}", "news", "",
        ]
        let authors = ["新华社", "Reuters", "REUTERS", "Reuter", "Ｒeuters", "新华社\u{20DD}", "e\u{301}"]
        for _ in 0..<500 {
            let item = Item(
                id: "1", source: "s", authors: [Author(name: generator.pick(authors))],
                tags: [generator.pick(tags), generator.pick(tags)])
            #expect(rules.verdict(on: item, now: fixedNow).isPass == rules.generalVerdict(on: item, now: fixedNow).isPass, "\(item.tags)")
        }
    }

    @Test("regular expressions that are plain strings are found by bytes where ICU finds them")
    func literalPatterns() throws {
        let patterns = [
            "(?i)^sponsored", "sponsored", "^Sponsored", "(?i)ad", "(?i)k", "(?i)ss", "(?i)st", "(?i)i", "(?i)^ad", "Swift 6",
            "(?i)/ads/", "(?i)a-b, c: d!",
        ]
        let texts = Self.texts(count: 2_000, seed: 4) + ["ſponsored", "\u{212A}", "straße", "ﬆ", "İ", "ＳＰＯＮＳＯＲＥＤ", "Sponsored 推广"]
        for pattern in patterns {
            let expression = try RegularExpression(pattern)
            #expect(expression.literal != nil, "\(pattern) is a plain string")
            for text in texts {
                #expect(
                    expression.isFound(in: text) == expression.isFoundByExpression(in: text), "\(pattern) in \(text.debugDescription)")
            }
        }
        for pattern in ["a.b", "(?i)a+b", "a|b", "(?x)a#b", "^$", "(?i)", "^", "a\\b", "(?s)a", "[ab]", "a{2}", "a$"] {
            #expect(try RegularExpression(pattern).literal == nil, "\(pattern) is a regular expression")
        }
    }

    // MARK: Normalizing

    /// ``Normalizer/isPlainLine(_:)`` as it was written on scalars.
    static func isPlainLineByScalars(_ text: String) -> Bool {
        var atStart = true
        var afterSpace = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x20 {
                if atStart || afterSpace { return false }
                afterSpace = true
                continue
            }
            if value < 0x80 {
                if value < 0x20 || value == 0x7F || value == 0x3C || value == 0x26 { return false }
            } else {
                if afterSpace && !(0x3400...0x9FFF).contains(value) { return false }
                if value <= 0x3000 && scalar.properties.isWhitespace { return false }
                if value <= 0x9F || value == 0xFFFE || value == 0xFFFF { return false }
            }
            atStart = false
            afterSpace = false
        }
        return !afterSpace
    }

    @Test("plain lines are recognized by bytes as by scalars")
    func plainLines() {
        for text in Self.texts(count: 5_000, seed: 5) + ["a b", " a", "a ", "a  b", "苹果 发布", "a é", "😀 a", "a 😀", "\u{3000}"] {
            #expect(Normalizer.isPlainLine(text) == Self.isPlainLineByScalars(text), "\(text.debugDescription)")
        }
    }

    /// Pieces of mostly plain text, with now and then a scalar the sixteen- and eight-byte loops must stop at: long
    /// texts exercise those loops across multi-byte scalars.
    static let plainAlphabet = [
        "a", "Swift", "released", "6.10", " ", " ", " ", "新闻", "模型发布", "，", "。", "“", "”", "—", "é", "ß", "😀", "Ａ", "《", "》",
        "￥", "\u{3000}", "\u{A0}", "\u{2003}", "\u{85}", "  ", "\t", "<", "&", "e\u{301}", " \u{301}", "\u{7F}", "\u{92}",
        "\u{FFFE}", "\u{FFFF}",
    ]

    @Test("plain lines are recognized by bytes as by scalars in long texts, sixteen and eight bytes at a time")
    func longPlainLines() {
        var generator = Generator(state: 21)
        for _ in 0..<5_000 {
            // Mostly the plain pieces, so that many texts are plain lines and the rest fail late.
            let text = (0..<generator.below(60)).map { _ in
                generator.pick(Array(Self.plainAlphabet.prefix(generator.below(40) == 0 ? 35 : 21)))
            }
            .joined()
            #expect(Normalizer.isPlainLine(text) == Self.isPlainLineByScalars(text), "\(text.debugDescription)")
        }
    }

    @Test("tags left as they are when already plain and distinct are what the general path gives")
    func plainTags() {
        var generator = Generator(state: 22)
        let pieces = [
            "news", "News", "NEWS", "swift", "科技", "广告", "promoted", "Ａ", "ß", "é", "e\u{301}", " ", "  ", "<b>", "&amp;", "\u{3000}",
        ]
        for _ in 0..<3_000 {
            let tags = (0..<(2 + generator.below(4))).map { _ in (0..<(1 + generator.below(2))).map { _ in generator.pick(pieces) }.joined()
            }
            var seen = Set<String>()
            let general = tags.map(Normalizer.plainLine).filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
            var item = Item(id: "1", source: "s", tags: tags)
            var problems: [Problem] = []
            Normalizer(now: fixedNow).normalize(&item, problems: &problems)
            #expect(item.tags == general, "\(tags)")
            if Normalizer.areDistinctPlainTags(tags) { #expect(tags == general, "\(tags)") }
            // Plain text the same way, its `<` and `&` characters of the text.
            seen = []
            let plain = tags.map { Normalizer.plainLine($0, .plain) }.filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
            var plainItem = Item(id: "1", source: "s", tags: tags)
            Normalizer(now: fixedNow).normalize(&plainItem, text: .plain, problems: &problems)
            #expect(plainItem.tags == plain, "\(tags)")
            if Normalizer.areDistinctPlainTags(tags, .plain) { #expect(tags == plain, "\(tags)") }
        }
    }

    @Test("plain lines with spaces at their ends, or plain once markup is gone, are what collapsing character by character gives")
    func plainLinesAndTheGeneralPath() {
        var generator = Generator(state: 12)
        let ends = ["", " ", "  ", "\t", "\u{3000}", " \u{301}"]
        let middles =
            Self.texts(count: 4_000, seed: 13) + ["【独家】标题（附全文）", "Tom &amp; Jerry", "<p>a &amp; b</p>", "a < b", "\u{302A}x", "x\u{600}"]
        for middle in middles {
            let text = generator.pick(ends) + middle + generator.pick(ends)
            let plain = text.utf8.contains(0x3C) || text.utf8.contains(0x26) ? HTMLSanitizer.plainText(fromHTML: text) : text
            #expect(Normalizer.plainLine(text) == Normalizer.collapsingWhitespace(plain), "\(text.debugDescription)")
            #expect(Normalizer.plainLine(text, .plain) == Normalizer.collapsingWhitespace(text), "\(text.debugDescription)")
        }
    }

    @Test("the whitespace table above U+007F is Unicode's White_Space property")
    func whitespaceTable() {
        for value in UInt32(0x80)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(Normalizer.isWhitespaceAbove127(value) == scalar.properties.isWhitespace, "U+\(String(value, radix: 16))")
        }
    }

    // MARK: Links

    /// Generated ASCII links: upper- and lower-case schemes and hosts, www., ports, paths with trailing slashes,
    /// queries with tracking and other parameters in any case, empty items, `=` at odd places, percent escapes,
    /// fragments, and bytes the byte parser leaves to URLComponents.
    static func links(count: Int, seed: UInt64) -> [String] {
        var generator = Generator(state: seed)
        let schemes = ["https://", "http://", "HTTPS://", "Http://", "ftp://", "https:/"]
        let hosts = [
            "example.org", "WWW.Example.ORG", "www.example.org", "xn--fiqs8s.example", "a-b.example", "exa_mple.org", "", "user@h.org",
        ]
        let ports = ["", "", ":443", ":80", ":8080", ":0443", ":", ":99999", ":12a"]
        let paths = ["", "/", "/a", "/a/", "/a//", "/news/2026/10/1-2.html", "/%E6%96%B0", "/a%zz", "/a b", "/(x)!$'*+,;=", "/a{b}"]
        let names = [
            "utm_source", "UTM_Medium", "utm_", "utm", "fbclid", "FBCLID", "spm", "from", "From", "share_token", "share_id", "page", "id",
            "a", "b", "", "%75tm_source", "x%20y", "wt.mc_id", "si",
        ]
        let values = ["", "1", "2", "rss", "a=b", "x%41", "=", "v", "timeline", "Weixin", "rss=1"]
        return (0..<count).map { _ in
            var link = generator.pick(schemes) + generator.pick(hosts) + generator.pick(ports) + generator.pick(paths)
            let items = generator.below(5)
            if items > 0 || generator.below(4) == 0 {
                var query: [String] = []
                for _ in 0..<items {
                    switch generator.below(8) {
                    case 0: query.append("")
                    case 1: query.append("=" + generator.pick(names))
                    case 2: query.append(generator.pick(names))
                    default: query.append(generator.pick(names) + "=" + generator.pick(values))
                    }
                }
                link += "?" + query.joined(separator: "&")
            }
            if generator.below(5) == 0 { link += generator.pick(["#top", "#", "#a#b", "#frag?x=1"]) }
            return link
        }
    }

    @Test("tracking parameters are removed from ASCII links by bytes as through strings")
    func cleanLinks() {
        let canonical = CanonicalURL(extra: ["share_id", "WT.MC_ID"])
        for link in Self.links(count: 5_000, seed: 6) {
            #expect(canonical.clean(link) == canonical.cleanASCIIByStrings(link), "\(link)")
        }
    }

    @Test("comparison keys read by bytes are the keys read through strings")
    func linkKeys() {
        let canonical = CanonicalURL(extra: ["share_id"])
        var read = 0
        for link in Self.links(count: 5_000, seed: 7) {
            var key: [UInt8] = [0x21]
            if canonical.appendKey(for: link, to: &key) {
                read += 1
                #expect(String(decoding: key.dropFirst(), as: UTF8.self) == canonical.key(for: link), "\(link)")
            } else {
                #expect(key == [0x21], "\(link): nothing appended")
            }
        }
        #expect(read > 500, "many generated links are read by bytes")
    }

    @Test("the ASCII string a key equals by canonical equivalence")
    func asciiEquivalents() {
        #expect(ByteKeyIndex.asciiEquivalent(of: "//a.org/x") == Array("//a.org/x".utf8))
        #expect(ByteKeyIndex.asciiEquivalent(of: "//a\u{37E}\u{1FEF}\u{212A}") == Array("//a;`K".utf8))
        #expect("//a\u{37E}\u{1FEF}\u{212A}" == "//a;`K")
        for text in ["//例子.org", "//e\u{301}", "//\u{212B}", "//a\u{301}", "//ß"] {
            #expect(ByteKeyIndex.asciiEquivalent(of: text) == nil, "\(text.debugDescription)")
        }
    }

    @Test("the byte key index finds each key's first position")
    func byteKeyIndex() {
        var index = ByteKeyIndex(capacity: 4)
        var reference: [String: Int] = [:]
        var generator = Generator(state: 8)
        for position in 0..<20_000 {
            let key = "//h\(generator.below(3_000)).org/" + String(repeating: "x", count: generator.below(20))
            let found = index.first(Array(key.utf8), orInsert: position)
            #expect(found == reference[key])
            if reference[key] == nil { reference[key] = position }
        }
    }

    @Test("merging the same links gives what grouping by string keys gives")
    func sameURLMerge() {
        var generator = Generator(state: 9)
        let links = Self.links(count: 400, seed: 10) + ["https://例子.example/a", "https://xn--fiqs8s.example/a", "https://example.org/é"]
        let items = (0..<3_000).map { index in
            Item(
                id: "\(index)", source: "s\(generator.below(7))", url: generator.below(20) == 0 ? nil : generator.pick(links),
                title: "t\(index)", published: at(-Double(generator.below(100_000))))
        }
        let weights = ["s1": 2.0, "s2": 0.5]
        let pipeline = Pipeline(dedup: DedupConfig(), ranking: RankingConfig(), now: fixedNow)
        // The grouping as it was: a dictionary of string keys.
        let canonical = CanonicalURL(extra: DedupConfig().trackingParameters)
        var groups: [String: [Int]] = [:]
        for index in items.indices {
            guard let url = items[index].url, let key = canonical.key(for: url) else { continue }
            groups[key, default: []].append(index)
        }
        let expected = pipeline.merge(items, groups: Array(groups.values), weights: weights)
        #expect(pipeline.mergeSameURL(items, weights: weights) == expected)
        #expect(expected.count < items.count - 1_000)
    }

    /// Item `index`'s form, key and hash in `keys`.
    static func entry(_ keys: LinkKeys, _ index: Int) -> (LinkKeys.Form, String, UInt64) {
        keys.withStorage { ($0.forms[index], String(decoding: $0.key(index), as: UTF8.self), $0.hashes[index]) }
    }

    @Test("link keys stored one after another are the canonical keys with their hashes, and stores appended equal one store")
    func linkKeyStore() {
        let canonical = CanonicalURL(extra: DedupConfig().trackingParameters)
        let links: [String?] =
            Self.links(count: 300, seed: 11) + [
                nil, "https://例子.example/a", "https://example.org/é", "mailto:a@b.org", "", " https://a.org/ ",
            ]
        var whole = LinkKeys(capacity: 0)
        var first = LinkKeys(capacity: 0)
        var second = LinkKeys(capacity: 0)
        for (index, link) in links.enumerated() {
            whole.append(link, canonical: canonical)
            if index < 100 { first.append(link, canonical: canonical) } else { second.append(link, canonical: canonical) }
        }
        first.append(contentsOf: second)
        #expect(first.count == links.count)
        var forms: Set<LinkKeys.Form> = []
        for index in links.indices {
            let (form, key, hash) = Self.entry(whole, index)
            #expect(Self.entry(first, index) == (form, key, hash))
            #expect(first.unicodeKey(index) == whole.unicodeKey(index))
            forms.insert(form)
            let expected = links[index].flatMap(canonical.key(for:))
            switch form {
            case .none:
                #expect(expected == nil, "\(links[index] ?? "nil")")
            case .bytes:
                // Equal as strings: an IDN host's key is the same whether the link spells it in Unicode or in punycode.
                #expect(key == expected, "\(links[index] ?? "nil")")
                #expect(hash == Array(key.utf8).withUnsafeBufferPointer(ByteKeyIndex.hash))
            case .unicode:
                #expect(key.isEmpty)
                #expect(whole.unicodeKey(index) == expected)
            }
        }
        #expect(forms == [.none, .bytes, .unicode])
    }

    // MARK: Ranking

    /// ``Ranker/engagement(_:)`` as it was written, with dictionaries of dictionaries.
    static func engagementByDictionaries(_ items: [Item]) -> [Double] {
        var largest: [String: [String: Double]] = [:]
        for item in items where !item.metrics.isEmpty {
            for (metric, value) in item.metrics where value > 0 {
                let logged = log1p(Double(value))
                if logged > largest[item.source, default: [:]][metric, default: 0] { largest[item.source, default: [:]][metric] = logged }
            }
        }
        return items.map { item in
            guard !item.metrics.isEmpty, let tops = largest[item.source] else { return 0 }
            let parts = item.metrics.compactMap { metric, value -> Double? in
                guard let top = tops[metric], top > 0 else { return nil }
                return log1p(Double(max(0, value))) / top
            }
            return parts.isEmpty ? 0 : parts.reduce(0, +) / Double(parts.count)
        }
    }

    @Test(
        "engagement by source numbers is engagement by source names, to the bit",
        arguments: [["comments", "likes", "votes", "shares"], (1...12).map { "metric \($0), with a long name" }])
    func engagement(_ metricNames: [String]) {
        var generator = Generator(state: 11)
        let items = (0..<5_000).map { index in
            var metrics: [String: Int] = [:]
            for name in metricNames where generator.below(3) > 0 {
                metrics[name] = generator.below(4) == 0 ? 0 : generator.below(1_000_000) - 10
            }
            return Item(id: "\(index)", source: "source\(generator.below(40))", metrics: metrics)
        }
        let fast = Ranker.engagement(items)
        let reference = Self.engagementByDictionaries(items)
        #expect(fast.map(\.bitPattern) == reference.map(\.bitPattern))
    }

    @Test("source numbers follow the order of the names")
    func sourceNumbers() {
        let items = ["b", "a", "c", "a", "B", "é", "e\u{301}"].enumerated().map { Item(id: "\($0.offset)", source: $0.element) }
        let (numbers, names) = Ranker.sourceNumbers(items)
        #expect(names == ["B", "a", "b", "c", "é"])
        #expect(numbers == [2, 1, 3, 1, 0, 4, 4])
    }
}

extension RuleSet.Verdict {
    /// Whether the item passes.
    var isPass: Bool {
        if case .pass = self { return true }
        return false
    }
}
