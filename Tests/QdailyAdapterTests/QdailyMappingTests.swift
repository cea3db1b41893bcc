import Foundation
import QdailyAdapter
import TestSupport
import Testing
import TributaryCore
import TributaryModel

/// The real July 2017 responses, served over loopback, mapped to items.
@Suite("Qdaily mapping")
struct QdailyMappingTests {
    private static let articleImage =
        "?imageMogr2/auto-orient/thumbnail/!640x380r/gravity/Center/crop/640x380/quality/85/format/jpg/ignore-error/1"

    /// Items of `homes0.json`, read from the fixture by hand.
    static let homeItems: [(index: Int, item: Item)] = [
        (
            0,
            Item(
                id: "article:43134", source: "qdaily", url: "http://app3.qdaily.com/app3/articles/43134.html",
                title: "Swatch 跟银联合作的支付腕表竟然出了第二代，还是很笨拙", summary: "27 日开始在国内销售，售价 580 元。",
                image: "http://img.qdaily.com/article/article_show/201707181501272TrYVN0ji83c9ERq.jpg" + articleImage,
                published: Date(timeIntervalSince1970: 1_500_360_691), tags: ["智能"], metrics: ["comments": 3, "likes": 3],
                extras: ["card_type": .int(1)])
        ),
        (
            3,
            Item(
                id: "paper:1792", source: "qdaily", url: nil,
                title: "【好奇心xY-Milk未来牛奶】你曾有哪些很有脑洞的想法，结果被人捷足先登了？",
                summary: "就是那种，好气，这个想法我也想到过的熟悉的陌生感！（题图来自林小妖）",
                image: "http://img.qdaily.com/paper/paper_show/201707101219516xlzSRQjXKJg48wY.jpg"
                    + "?imageMogr2/auto-orient/thumbnail/!1030x430r/gravity/Center/crop/1030x430/quality/85/format/jpg/ignore-error/1",
                authors: [
                    Author(
                        name: "好奇心研究所", url: "http://m.qdaily.com/mobile/special_columns/2.html",
                        avatar: "http://img.qdaily.com/special_column/icon/20160703130142yvY2Z1xFor43fEns.png"
                            + "?imageMogr2/auto-orient/thumbnail/!128x128r/gravity/Center/crop/128x128/quality/85/format/jpg/ignore-error/1"
                    )
                ],
                published: Date(timeIntervalSince1970: 1_500_346_803), tags: ["焦点小组"],
                metrics: ["comments": 0, "likes": 0, "participants": 378], extras: ["card_type": .int(0)])
        ),
        (
            4,
            Item(
                id: "article:43071", source: "qdaily", url: "http://app3.qdaily.com/app3/articles/43071.html",
                title: "在英国作家、导演和建筑设计师的眼里，伦敦正在发生什么样的变化？",
                summary: "如今，超过一半的伦敦人都不出生在伦敦，甚至英国。这个城市还保持着它鲜明的身份吗？",
                image: "http://img.qdaily.com/article/banner/201707180746304emzNo6dG9brT0xi.jpg" + articleImage,
                published: Date(timeIntervalSince1970: 1_500_335_194), tags: ["城市"], metrics: ["comments": 2, "likes": 58],
                extras: ["card_type": .int(2)])
        ),
        (
            14,
            Item(
                id: "article:43115", source: "qdaily", url: "http://app3.qdaily.com/app3/articles/43115.html",
                title: "大公司头条：万达境外投资项目遭银监会审查，旗下美国第二大院线 AMC 股价大跌 8%；《权力的游戏》第七季开播创下 HBO 收视纪录，1610 万人观看；"
                    + "阿里巴巴旗下的“盒马鲜生”又开三实体店，称三公里内 30 分钟送达",
                summary: "我们每天早上为你摘取最重要的商业新闻，一切可能改变我们生活的公司都在其列。",
                image: "http://img.qdaily.com/article/article_show/20170718073339li3FmwUyt8VvJY6A.jpg" + articleImage,
                authors: [
                    Author(
                        name: "大公司头条", url: "http://m.qdaily.com/mobile/special_columns/1.html",
                        avatar: "http://img.qdaily.com/special_column/icon/20160702183950XcMO3IY78TJE6lSn.png"
                            + "?imageMogr2/auto-orient/thumbnail/!128x128r/gravity/Center/crop/128x128/quality/85/format/jpg/ignore-error/1"
                    )
                ],
                published: Date(timeIntervalSince1970: 1_500_337_871), tags: ["智能"], metrics: ["comments": 30, "likes": 42],
                extras: ["card_type": .int(1)])
        ),
        (
            18,
            Item(
                id: "article:43110", source: "qdaily", url: "http://app3.qdaily.com/app3/articles/43110.html",
                title: "三联做的《新知》杂志休刊了，一个生不逢时的内容产品现在如何活下去？", summary: "纸杂志，就意味着生计窘迫么？",
                image: "http://img.qdaily.com/article/banner/20170718073022C3Rd9u5NcfaOXnvP.jpg" + articleImage,
                published: Date(timeIntervalSince1970: 1_500_330_632), tags: ["城市", "长文章"], metrics: ["comments": 60, "likes": 276],
                extras: ["card_type": .int(2)])
        ),
    ]

    @Test func theHomePageMapsToItems() async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", try QdailyTestSupport.route("homes0.json"))
        let result = try await QdailyTestSupport.adapter(server).fetch(in: QdailyTestSupport.context())

        #expect(QdailyTestSupport.paths(server) == ["/app3/homes/index/0.json"])
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.feed?.title == "好奇心日报")
        #expect(result.feed?.language == "zh-CN")
        #expect(
            result.items.map(\.id) == [
                "article:43134", "article:43124", "article:43131", "paper:1792", "article:43071", "article:43125", "article:43128",
                "article:43123", "article:43130", "article:43120", "paper:1795", "article:43114", "article:43121", "article:43119",
                "article:43115", "article:43092", "article:43084", "article:43113", "article:43110", "article:43097", "article:43106",
                "article:43109", "article:43096", "article:43104", "article:43112", "article:43094", "article:43091", "article:43101",
            ])
        for (index, expected) in Self.homeItems {
            #expect(result.items[index] == expected, "feeds[\(index)]")
        }
        // Every article links to its appview page; papers have none and are kept without a link.
        for item in result.items {
            if item.id.hasPrefix("article:") {
                #expect(item.url == "http://app3.qdaily.com/app3/articles/\(item.id.dropFirst(8)).html")
            } else {
                #expect(item.url == nil)
                #expect(item.metrics["participants"] != nil)
            }
            #expect(item.published != nil && item.title != nil && item.image?.contains("?imageMogr2/") == true)
        }
        // Seconds, not milliseconds: the newest item is from 18 July 2017.
        #expect(result.items.compactMap(\.published).max() == Date(timeIntervalSince1970: 1_500_360_691))
        #expect(!result.items.contains { $0.extras["banner"] != nil }, "banners are left out by default")
    }

    @Test func bannersAreAddedOnRequestWithoutRepeatingFeeds() async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", try QdailyTestSupport.route("homes0.json"))
        let result = try await QdailyTestSupport.adapter(server, ["include_banners": .boolean(true)])
            .fetch(in: QdailyTestSupport.context())
        // Three banners; 43110 is also in the feed, so two are new, appended after the feed.
        #expect(result.items.count == 30)
        #expect(result.items.suffix(2).map(\.id) == ["article:43132", "article:43060"])
        #expect(result.items.suffix(2).allSatisfy { $0.extras["banner"] == .bool(true) && $0.extras["card_type"] == .int(2) })
        let banner = try #require(result.items.first { $0.id == "article:43132" })
        #expect(banner.title == "少了创业公司，西安创客嘉年华的展品不再实用，但更有想象力了")
        #expect(banner.tags == ["智能", "长文章"])
        #expect(banner.metrics == ["comments": 0, "likes": 24])
        #expect(result.items.first { $0.id == "article:43110" }?.extras["banner"] == nil)
    }

    @Test func papersHaveNoLinkAndCountParticipants() async throws {
        let server = try LoopbackServer()
        server.route("/app3/papers/index/0.json", try QdailyTestSupport.route("papers0.json"))
        let result = try await QdailyTestSupport.adapter(server, ["feed": .string("papers")]).fetch(in: QdailyTestSupport.context())

        #expect(QdailyTestSupport.paths(server) == ["/app3/papers/index/0.json"])
        #expect(result.problems.isEmpty)
        #expect(result.feed?.title == "好奇心日报 LABS")
        #expect(
            result.items.map(\.id) == [
                "paper:1792", "paper:1795", "paper:1802", "paper:1789", "paper:1776", "paper:1798", "paper:1793", "paper:1786",
                "paper:1800", "paper:1764", "paper:1797", "paper:1794",
            ])
        #expect(result.items.allSatisfy { $0.url == nil && $0.authors.map(\.name) == ["好奇心研究所"] })
        #expect(result.items.allSatisfy { $0.extras["card_type"] == .int(0) })
        let vote = try #require(result.items.first { $0.id == "paper:1795" })
        #expect(vote.tags == ["投票"])
        #expect(vote.metrics == ["comments": 15, "likes": 0, "participants": 7985])
        #expect(vote.published == Date(timeIntervalSince1970: 1_500_310_848))
        #expect(vote.summary == "好好说话，别搞名词教学。（题图来自：林小妖）")
    }

    @Test func aCategoryTagsItsLongReadsOnce() async throws {
        let server = try LoopbackServer()
        server.route("/app3/categories/index/1/0.json", try QdailyTestSupport.route("category1.json"))
        let result = try await QdailyTestSupport.adapter(server, ["feed": .string("category"), "category_id": .integer(1)])
            .fetch(in: QdailyTestSupport.context())

        #expect(QdailyTestSupport.paths(server) == ["/app3/categories/index/1/0.json"])
        #expect(result.items.count == 12)
        #expect(result.items.allSatisfy { $0.tags.last == "长文章" && $0.extras["card_type"] == .int(2) })
        let withColumn = try #require(result.items.first { $0.id == "article:43016" })
        #expect(withColumn.authors.map(\.name) == ["100 个有想法的人"])
        #expect(withColumn.tags == ["城市", "长文章"])
        #expect(result.items.first { $0.id == "article:43132" }?.authors == [])
    }

    @Test func aColumnIsReadFromItsPath() async throws {
        let server = try LoopbackServer()
        server.route("/app3/columns/index/29/0.json", try QdailyTestSupport.route("category1.json"))
        let result = try await QdailyTestSupport.adapter(server, ["feed": .string("column"), "column_id": .integer(29)])
            .fetch(in: QdailyTestSupport.context())
        #expect(QdailyTestSupport.paths(server) == ["/app3/columns/index/29/0.json"])
        #expect(result.items.count == 12)
        #expect(result.feed?.title == "好奇心日报 column 29")
    }

    @Test func toleratesStringsForNumbersAndSkipsOnlyUnusableEntries() async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", try QdailyTestSupport.route("homes_bad_items.json"))
        let result = try await QdailyTestSupport.adapter(server).fetch(in: QdailyTestSupport.context())
        let page = server.url("/app3/homes/index/0.json")

        #expect(
            result.items == [
                Item(
                    id: "article:500", source: "qdaily", url: "http://app3.qdaily.com/app3/articles/500.html", title: "数字都写成了字符串",
                    summary: "publish_time, counts and the id are strings here.",
                    image: "http://img.qdaily.com/article/article_show/tolerant.jpg?imageMogr2/auto-orient/thumbnail/!640x380r",
                    published: Date(timeIntervalSince1970: 1_500_360_691), tags: ["智能"], metrics: ["comments": 12, "likes": 7],
                    extras: ["card_type": .int(1)]),
                Item(
                    id: "article:501", source: "qdaily", url: "http://m.qdaily.com/mobile/articles/501.html",
                    title: "A null description, odd counts and no appview", tags: ["长文章"], extras: ["card_type": .int(1)]),
                Item(
                    id: "paper:7", source: "qdaily", title: "A paper without datatype",
                    published: Date(timeIntervalSince1970: 1_500_346_803), tags: ["投票"], metrics: ["participants": 15],
                    extras: ["card_type": .int(0)]),
            ])
        #expect(
            result.problems.map(\.description) == [
                "error: \(page): response.feeds[1] is a string \"not an entry\", expected an object; skipped",
                "error: \(page): response.feeds[2].post is missing, expected an object; skipped",
                "error: \(page): response.feeds[3].post.id is a string \"abc\", expected a whole number; skipped",
                "error: \(page): response.feeds[4].post.id is missing, expected a whole number; skipped",
                "warning: \(page): response.feeds[5].post.publish_time is a string \"soon\", expected Unix seconds; no date",
                "warning: \(page): response.feeds[5].post.comment_count is a string \"many\", expected a count; left out",
            ])
    }
}
