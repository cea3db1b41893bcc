import Foundation
import TestSupport
import TributaryCore
import TributaryModel

/// Draws for the generated items, from TestSupport's seeded SplitMix64, so that every run of the
/// benchmark sees the same items.
extension SeededGenerator {
    /// A uniform index below `bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < probability }

    /// One element of `list`.
    mutating func pick<T>(_ list: [T]) -> T { list[below(list.count)] }
}

/// Generated batches for the pipeline benchmark: many sources of very different sizes, Chinese and English
/// headlines with summaries, links with tracking parameters, engagement metrics, and a share of the same stories
/// reported again by other sources (near-duplicate headlines and, less often, the same link).
///
/// The stories are built from templates whose slots take words from fixed lists and from a long tail of made-up
/// names (companies, people, products, places), so that, as in real feeds, common words recur across thousands of
/// headlines while each story has something of its own.
struct ItemGenerator {
    /// How many items in all, duplicates included.
    var count: Int
    /// The share of items that are another source's story again, with an edited headline.
    var nearDuplicateShare = 0.10
    /// The share of items that are another source's story again under the same link (tracking parameters aside).
    var sameURLShare = 0.02
    /// The share of items that the benchmark's rules block (ads, sponsored posts).
    var blockedShare = 0.01
    /// The moment the run starts.
    var now: Date
    /// How many sources.
    var sourceCount: Int

    init(count: Int, now: Date, seed: UInt64 = 2026) {
        self.count = count
        self.now = now
        self.seed = seed
        sourceCount = min(400, max(20, count / 250))
    }

    private let seed: UInt64

    /// One generated story, as its first source tells it.
    private struct Story {
        var title: String
        var summary: String
        var url: String
        var chinese: Bool
        var published: Date
    }

    /// The batches, one a source, plus the source configurations they belong to.
    func batches(rules: (Int) -> RuleSet) -> [Pipeline.Batch] {
        var random = SeededGenerator(seed: seed)
        let sources = (0..<sourceCount).map { index in makeSource(index, rules: rules(index), random: &random) }
        // Source sizes follow a Zipf-like law: a few large sources, a long tail of small ones.
        let shares = (0..<sourceCount).map { 1 / pow(Double($0 + 1), 0.9) }
        var cumulative: [Double] = []
        var total = 0.0
        for share in shares {
            total += share
            cumulative.append(total)
        }
        var itemsBySource = [[Item]](repeating: [], count: sourceCount)
        var stories: [Story] = []
        stories.reserveCapacity(count)
        var names = NameMaker()
        for index in 0..<count {
            let point = Double(random.next() >> 11) / Double(1 << 53) * total
            var sourceIndex = min(firstIndex(in: cumulative, reaching: point), sourceCount - 1)
            let source = sources[sourceIndex]
            let roll = Double(random.next() >> 11) / Double(1 << 53)
            var item: Item
            if !stories.isEmpty, roll < nearDuplicateShare + sameURLShare {
                // A story already told, most often a recent one, told again by another source.
                let back = min(stories.count, 1 + random.below(min(stories.count, 5_000)))
                let story = stories[stories.count - back]
                if sources[sourceIndex].name == sourceName(for: story) { sourceIndex = (sourceIndex + 1) % sourceCount }
                let teller = sources[sourceIndex]
                if roll < nearDuplicateShare {
                    item = Item(
                        id: "\(teller.name)-\(index)", source: teller.name,
                        url: makeURL(host: host(of: teller), chinese: story.chinese, index: index, random: &random),
                        title: Headlines.edit(story.title, chinese: story.chinese, random: &random),
                        summary: random.chance(0.5) ? story.summary : nil,
                        published: story.published.addingTimeInterval(Double(random.below(7200))))
                } else {
                    item = Item(
                        id: "\(teller.name)-\(index)", source: teller.name, url: retrack(story.url, random: &random),
                        title: random.chance(0.7) ? story.title : Headlines.edit(story.title, chinese: story.chinese, random: &random),
                        summary: story.summary, published: story.published.addingTimeInterval(Double(random.below(3600))))
                }
            } else {
                let chinese = random.chance(0.55)
                let blocked = random.chance(blockedShare)
                var title = Headlines.make(chinese: chinese, names: &names, random: &random)
                var url = makeURL(host: host(of: source), chinese: chinese, index: index, random: &random)
                if blocked {
                    switch random.below(3) {
                    case 0: title = chinese ? "【推广】" + title : "Sponsored: " + title
                    case 1:
                        url = url.replacingOccurrences(of: "://", with: "://ads.").replacingOccurrences(of: ".html", with: "/ads/1.html")
                    default: title = chinese ? title + "（推广）" : "Sponsored " + title
                    }
                }
                let published = now.addingTimeInterval(-Double(random.below(3 * 86_400)))
                let summary = Headlines.summary(title: title, chinese: chinese, names: &names, random: &random)
                stories.append(Story(title: title, summary: summary, url: url, chinese: chinese, published: published))
                item = Item(
                    id: "\(source.name)-\(index)", source: source.name, url: url, title: title, summary: summary, published: published)
                item.tags = chinese ? [random.pick(Headlines.chineseTags)] : [random.pick(Headlines.englishTags)]
            }
            // Some feeds give no date, a few a date in the future; some items are older than the block rule allows.
            if random.chance(0.02) {
                item.published = nil
            } else if random.chance(0.001) {
                item.published = now.addingTimeInterval(2 * 86_400)
            } else if random.chance(0.01) {
                item.published = now.addingTimeInterval(-20 * 86_400)
            }
            if random.chance(0.3) { item.title = item.title.map { "  " + $0 + " " } }
            if random.chance(0.05) { item.summary = item.summary.map { "<p>" + $0 + " &amp; more</p>" } }
            item.metrics = metrics(sourceIndex: sourceIndex, random: &random)
            itemsBySource[sourceIndex].append(item)
        }
        // A feed lists its items newest first.
        return zip(sources, itemsBySource).map { source, items in
            Pipeline.Batch(source: source, items: items.sorted { ($0.published ?? now) > ($1.published ?? now) })
        }
    }

    /// The first index of the ascending `values` whose value is at least `point` (binary search).
    private func firstIndex(in values: [Double], reaching point: Double) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < point { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func sourceName(for story: Story) -> String {
        // Stories are told first by the source whose host is in their link.
        let host = story.url.split(separator: "/").dropFirst().first ?? ""
        return host.split(separator: ".").dropFirst().first.map(String.init) ?? ""
    }

    private func host(of source: SourceConfig) -> String { "www.\(source.name).example" }

    private func makeSource(_ index: Int, rules: RuleSet, random: inout SeededGenerator) -> SourceConfig {
        let stem = index < Headlines.sourceStems.count ? Headlines.sourceStems[index] : "\(random.pick(Headlines.sourceStems))\(index)"
        let weight = [0.5, 1, 1, 1, 1, 1.5, 2][random.below(7)]
        return SourceConfig(
            name: stem, adapter: StaticAdapter(count: 0, prefix: stem), weight: weight, tags: index % 3 == 0 ? ["news"] : [],
            rules: rules, options: AdapterOptions(file: "bench.yaml", sourceName: stem, values: [:]))
    }

    private func makeURL(host: String, chinese: Bool, index: Int, random: inout SeededGenerator) -> String {
        var url = "https://\(host)/\(chinese ? "news" : "story")/2026/\(10 + random.below(2))/\(index)-\(random.next() % 100_000).html"
        url += trackingQuery(random: &random)
        return url
    }

    private func trackingQuery(random: inout SeededGenerator) -> String {
        var parameters: [String] = []
        if random.chance(0.5) { parameters.append("utm_source=\(random.pick(["rss", "feed", "weibo", "twitter"]))") }
        if random.chance(0.3) { parameters.append("utm_medium=feed&utm_campaign=daily") }
        if random.chance(0.2) { parameters.append("spm=a2c4g.\(random.next() % 100_000)") }
        if random.chance(0.1) { parameters.append("page=\(1 + random.below(3))") }
        if random.chance(0.05) { parameters.append("fbclid=IwAR\(random.next() % 1_000_000_000)") }
        return parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&")
    }

    /// The same link with other tracking parameters, sometimes over http or with upper-case host.
    private func retrack(_ url: String, random: inout SeededGenerator) -> String {
        var base = String(url.split(separator: "?", maxSplits: 1).first ?? "")
        let kept =
            url.contains("page=")
            ? url.split(separator: "?").last.map { $0.split(separator: "&").filter { $0.hasPrefix("page=") } } ?? [] : []
        if random.chance(0.2) { base = base.replacingOccurrences(of: "https://", with: "http://") }
        if random.chance(0.1) { base = base.replacingOccurrences(of: "www.", with: "WWW.") }
        var parameters = kept.map(String.init)
        parameters.append("utm_source=\(random.pick(["aggregator", "newsletter", "telegram"]))")
        if random.chance(0.5) { parameters.append("from=timeline") }
        return base + "?" + parameters.joined(separator: "&")
    }

    /// Comments and likes on a scale of the source's own (some sources count in the millions, some have none).
    private func metrics(sourceIndex: Int, random: inout SeededGenerator) -> [String: Int] {
        guard sourceIndex % 4 != 3 else { return [:] }
        let scale = pow(10, Double(sourceIndex % 5))
        let draw = { (random: inout SeededGenerator) -> Int in
            let u = Double(random.next() >> 11) / Double(1 << 53)
            return Int(scale * pow(u, 3) * 100)
        }
        var metrics = ["comments": draw(&random)]
        if sourceIndex % 2 == 0 { metrics["likes"] = draw(&random) * 4 }
        return metrics
    }
}

/// Made-up names for the long tail of a news vocabulary, built from syllables (English) and characters (Chinese).
struct NameMaker {
    private static let latinSyllables = [
        "ka", "ro", "vel", "tan", "mi", "zor", "bel", "qu", "ix", "den", "sa", "lor", "pen", "tri", "ga", "nov", "ul", "ca",
        "rex", "bo", "lin", "fa", "sen", "to", "ar", "vi", "mon", "da", "kel", "zu",
    ]
    private static let chineseCharacters = Array(
        "安百宝北博昌晨诚达德东方丰福富广国海瀚浩和恒宏华辉汇佳嘉健金锦晶景骏开凯康科蓝朗乐立联林龙隆美明铭南宁诺鹏启庆然瑞润森盛世泰腾天通同旺伟文祥新鑫信星兴旭亚扬阳耀一益银盈永优宇元源远跃云泽展振正志智中众卓")
    private static let latinSuffixes = ["", "", "", " Labs", " Inc", " Group", " AI", " Systems", " Energy", " Bank"]
    private static let chineseSuffixes = ["科技", "集团", "股份", "智能", "汽车", "银行", "医药", "能源", "", ""]

    /// A company-like name.
    mutating func latinCompany(_ random: inout SeededGenerator) -> String {
        var name = ""
        for _ in 0..<(2 + random.below(3)) { name += random.pick(Self.latinSyllables) }
        return name.prefix(1).uppercased() + name.dropFirst() + random.pick(Self.latinSuffixes)
    }

    /// A person-like name.
    mutating func latinPerson(_ random: inout SeededGenerator) -> String {
        let first = random.pick(Self.latinSyllables) + random.pick(Self.latinSyllables)
        let last = random.pick(Self.latinSyllables) + random.pick(Self.latinSyllables) + random.pick(["", "s", "er", "ton"])
        return first.prefix(1).uppercased() + first.dropFirst() + " " + last.prefix(1).uppercased() + last.dropFirst()
    }

    /// A Chinese company-like name.
    mutating func chineseCompany(_ random: inout SeededGenerator) -> String {
        String(random.pick(Self.chineseCharacters)) + String(random.pick(Self.chineseCharacters))
            + (random.chance(0.5) ? String(random.pick(Self.chineseCharacters)) : "") + random.pick(Self.chineseSuffixes)
    }

    /// A Chinese person-like name.
    mutating func chinesePerson(_ random: inout SeededGenerator) -> String {
        random.pick(["王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周"]) + String(random.pick(Self.chineseCharacters))
            + (random.chance(0.6) ? String(random.pick(Self.chineseCharacters)) : "")
    }
}
