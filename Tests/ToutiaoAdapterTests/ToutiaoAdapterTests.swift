import Foundation
import TestSupport
import Testing
import ToutiaoAdapter
import TributaryCore
import TributaryModel

/// The adapter end to end over the loopback server: the wire envelope, what is kept, exact ids,
/// requested URLs and every error.
@Suite("Toutiao adapter")
struct ToutiaoAdapterTests {
    static let avatar = "http://p3.pstatp.com/large/3658/7378365093"

    @Test func readsTheWireEnvelopeAndLeavesTheAdOut() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/t" + Toutiao.endpoint, .text(try Toutiao.fixture("reconstructed/api_news_feed_v39_wire.json")))
        let result = try await Toutiao.adapter(server, "/t").fetch(in: Toutiao.context())

        #expect(result.problems.isEmpty)
        #expect(
            result.items.map(\.id) == [
                "6462594562829140237", "6350173447209304321", "6350169876543210987", "6350160001234567890", "6350155554321098765",
            ])
        #expect(
            result.items.map { $0.extras["layout"] }
                == ["no_image", "three_images", "right_image", "large_image", "video"].map { .string($0) })
        #expect(result.feed == FeedInfo(title: "今日头条 · 推荐", homePageURL: "https://www.toutiao.com/"))
        #expect(server.requests("/t" + Toutiao.endpoint).map(\.query) == [Toutiao.firstQuery])

        let pinned = Item(
            id: "6462594562829140237", source: "toutiao", url: "http://news.xinhuanet.com/world/2016-11/11/c_1119896000.htm",
            title: "开启新的合作之门、发展之门", summary: "新华社电 题：……", authors: [Author(name: "新华网", avatar: Self.avatar)],
            published: Date(timeIntervalSince1970: 1_478_815_676),
            metrics: ["comments": 0, "likes": 0, "dislikes": 0, "reads": 1024, "saves": 3],
            extras: [
                "layout": .string("no_image"), "kind": .string("article"), "pinned": .bool(true), "ad": .bool(false),
                "behot_time": .int(1_478_819_276), "cell_type": .int(0), "channel": .string("news_society"), "label": .string("置顶"),
                "channel_id": .int(3_189_398_996), "toutiao_url": .string("http://toutiao.com/group/6462594562829140237/"),
            ])
        #expect(result.items.first == pinned)

        let poster = "http://p3.pstatp.com/video1609/4d5e0006f708090a0001"
        let video = Item(
            id: "6350155554321098765", source: "toutiao", url: "http://toutiao.com/group/6350155554321098765/",
            title: "小伙街头弹唱《成都》，路人纷纷驻足", image: poster, authors: [Author(name: "音乐现场", avatar: Self.avatar)],
            published: Date(timeIntervalSince1970: 1_478_811_400), attachments: [Attachment(url: poster, mimeType: "image/jpeg")],
            metrics: ["comments": 0, "likes": 0, "dislikes": 0, "reads": 1024, "saves": 3],
            extras: [
                "layout": .string("video"), "kind": .string("video"), "pinned": .bool(false), "ad": .bool(false),
                "behot_time": .int(1_478_815_000), "cell_type": .int(0), "channel": .string("video"),
                "video_id": .string("a1b2c3d4e5f60718293a4b5c6d7e8f90"), "video_duration": .int(215), "channel_id": .int(3_189_398_996),
            ])
        #expect(result.items.last == video)
    }

    @Test func keepsAdsAndCardsWhenAsked() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let cards = try ["home_13_live_1.json", "home_16_follow_one_image.json", "home_31_joke.json", "home_33_wenda_large_image.json"]
            .map { try Toutiao.fixture("upstream/\($0)") }
        let bodies = try [Toutiao.fixture("upstream/home_05_one_small_image.json"), Toutiao.fixture("upstream/home_25_ad_3.json")] + cards
        server.route("/t" + Toutiao.endpoint, .text(Toutiao.wire(bodies)))
        let ids = ["6457262317569573390", "60966336402", "6456542800804186894", "1576387356446766", "67676000716", "6385745520836477185"]
        for (ads, cards, expected) in [
            (false, false, [ids[0]]), (true, false, Array(ids[0...1])), (false, true, [ids[0]] + ids[2...]), (true, true, ids),
        ] {
            let adapter = try Toutiao.adapter(server, "/t", ["include_ads": .boolean(ads), "include_cards": .boolean(cards)])
            let result = try await adapter.fetch(in: Toutiao.context())
            #expect(result.items.map(\.id) == expected, "include_ads: \(ads), include_cards: \(cards)")
        }
    }

    /// A video read field by field from `home_04_one_large_image_video.json`.
    @Test func aRecordedVideoItem() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/t" + Toutiao.endpoint, .text(Toutiao.decoded([try Toutiao.fixture("upstream/home_04_one_large_image_video.json")])))
        let item = try #require(try await Toutiao.adapter(server, "/t").fetch(in: Toutiao.context()).items.first)
        let poster = "http://p3.pstatp.com/video1609/35fe0015fb552c9f935f"
        #expect(
            item
                == Item(
                    id: "6454936131342434829", source: "toutiao", url: "http://toutiao.com/group/6454936131342434829/",
                    title: "陈翔六点半：蘑菇头新提玛莎拉蒂2018款", summary: "陈翔六点半：蘑菇头新提玛莎拉蒂2018款", image: poster,
                    authors: [Author(name: "爆笑风云", avatar: "http://p3.pstatp.com/large/13540016473c776259a0")],
                    published: Date(timeIntervalSince1970: 1_502_906_934), tags: ["蘑菇头", "陈翔", "玛莎拉蒂"],
                    attachments: [Attachment(url: poster, mimeType: "image/jpeg")],
                    metrics: ["comments": 22, "likes": 269, "dislikes": 47, "reads": 131_615, "shares": 180, "saves": 511],
                    extras: [
                        "layout": .string("video"), "kind": .string("video"), "pinned": .bool(false), "ad": .bool(false),
                        "behot_time": .int(1_503_291_345), "cell_type": .int(0), "channel": .string("video_car"),
                        "video_id": .string("460cee0eb21340649f0736944fdfb463"), "video_duration": .int(273),
                    ]))
    }

    /// Cards read field by field: a joke's share link loses its tracking, a post gets a title
    /// from its text, a live card's Beijing start time and a Q&A card's answer.
    @Test func recordedCards() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let files = ["home_31_joke.json", "home_16_follow_one_image.json", "home_14_live_2.json", "home_33_wenda_large_image.json"]
        server.route("/t" + Toutiao.endpoint, .text(Toutiao.decoded(try files.map { try Toutiao.fixture("upstream/\($0)") })))
        let items = try await Toutiao.adapter(server, "/t", ["include_cards": .boolean(true)]).fetch(in: Toutiao.context()).items
        try #require(items.count == 4)
        let (joke, post, live, question) = (items[0], items[1], items[2], items[3])

        #expect(joke.url == "http://toutiao.com/group/67676000716/")
        #expect(joke.title == "从前，有一只乌鸦叼着一块鲜美的肉块，流着肉汁，路过的狐狸看到了，便对它说，美丽的…", "the first 40 characters")
        #expect(joke.summary?.hasSuffix("小样，不找个拖，还整不了你！！！") == true)
        #expect(joke.authors == [Author(name: "孤独酒妹小甜甜", avatar: "http://p3.pstatp.com/thumb/2c66001577d853a45dfc")])
        #expect(joke.published == Date(timeIntervalSince1970: 1_504_058_588))
        #expect(joke.metrics == ["comments": 139, "likes": 11_245, "dislikes": 347, "reads": 0, "saves": 203])

        #expect(post.title == "没毛病…")
        #expect(post.url == "https://weitoutiao.zjurl.cn/ugc/share/thread/1576387356446766/")
        #expect(post.authors.first?.name == "Miss韩懿莹")
        #expect(post.extras["pinned"] == .bool(false), "is_stick 0 (an integer) on a post")

        #expect(live.title == "台风“天鸽”登陆广东 央视记者现场报道")
        #expect(live.url == nil, "an empty share_url and an sslocal: link give no link")
        #expect(live.published == Date(timeIntervalSince1970: 1_503_464_367), "2017-08-23 12:59:27 in Beijing")
        #expect(live.authors == [Author(name: "央视新闻", avatar: "http://p2.pstatp.com/large/4306/2602403105")])

        #expect(question.title == "有哪些正能量的头像值得推荐？")
        #expect(question.summary == "看完是不是笑的屁颠屁颠的? 这绝对正能量满满哇。")
        #expect(question.authors.map(\.name) == ["愿一个人飘啊飘啊飘"])
        #expect(question.published == Date(timeIntervalSince1970: 1_486_797_240))
        #expect(question.metrics == ["likes": 429, "dislikes": 7])
    }

    /// Ids above 2^53 come out digit for digit; rounded ones are repaired from the links.
    @Test(
        arguments: [
            ("Int64.max", #"{"group_id":9223372036854775807,"title":"t"}"#, "9223372036854775807"),
            ("above Int64", #"{"group_id":18446744073709551615,"title":"t"}"#, "18446744073709551615"),
            ("as a string", #"{"group_id":"6462594562829140237","title":"t"}"#, "6462594562829140237"),
            (
                "rounded, repaired from share_url",
                #"{"group_id":6462594562829140000,"share_url":"http://toutiao.com/a6462594562829140237/?iid=1"}"#,
                "6462594562829140237"
            ),
            (
                "rounded, repaired from a percent-encoded link",
                #"{"id":6385745520836477000,"title":"q","extra":{"schema":"sslocal://x?j=%7B%22ansid%22%3A%226385745520836477185%22%7D"}}"#,
                "6385745520836477185"
            ),
            ("rounded, nothing to repair it with", #"{"group_id":6462594562829140000,"title":"t"}"#, "6462594562829140000"),
            (
                "exact although it ends in zeros",
                #"{"group_id":6462594562829140200,"display_url":"http://toutiao.com/group/6462594562829140200/"}"#,
                "6462594562829140200"
            ),
            (
                "a different id in a link is not taken",
                #"{"group_id":6462594562829140000,"url":"http://toutiao.com/group/6462594562829150237/"}"#,
                "6462594562829140000"
            ),
            ("group_id 0 falls back to item_id", #"{"group_id":0,"item_id":6350155554321098765,"title":"t"}"#, "6350155554321098765"),
            ("a post's thread_id", #"{"thread_id":1576392046686285,"cell_type":32,"content":"x"}"#, "1576392046686285"),
        ])
    func exactIDs(_ name: String, _ content: String, _ id: String) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/t" + Toutiao.endpoint, .text(Toutiao.wire([content])))
        let adapter = try Toutiao.adapter(server, "/t", ["include_cards": .boolean(true)])
        let first = try await adapter.fetch(in: Toutiao.context())
        let second = try await adapter.fetch(in: Toutiao.context())
        #expect(first.items.map(\.id) == [id], "\(name)")
        #expect(second.items == first.items, "the same item on every run")
    }

    @Test func anItemWithoutAnyIDIsNamedByItsLink() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/t" + Toutiao.endpoint, .text(Toutiao.wire([#"{"title":"t","article_url":"http://example.cn/a"}"#])))
        let items = try await Toutiao.adapter(server, "/t").fetch(in: Toutiao.context()).items
        #expect(items.map(\.id) == [StableID.digest("toutiao", "http://example.cn/a", "t")])
    }

    @Test func anEmptyFeedGivesNoItemsAndAsksNoMore() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/t" + Toutiao.endpoint, .text(try Toutiao.fixture("reconstructed/api_news_feed_v39_empty.json")))
        let result = try await Toutiao.adapter(server, "/t", ["pages": .integer(5)]).fetch(in: Toutiao.context())
        #expect(result.items.isEmpty && result.problems.isEmpty)
        #expect(server.requestCount("/t" + Toutiao.endpoint) == 1)
    }

    // MARK: Pagination

    static func article(_ n: Int, behot: Int, pinned: Bool = false) -> String {
        let id = "64625945628291400\(n)0"
        return
            #"{"group_id":\#(id),"title":"t\#(n)","behot_time":\#(behot),"is_stick":\#(pinned),"display_url":"http://toutiao.com/group/\#(id)/"}"#
    }

    static func id(_ n: Int) -> String { "64625945628291400\(n)0" }

    /// Page 1: a pinned item (its old time is no cursor), then 300, 200, 100.
    static let page1 = Toutiao.wire(
        [article(1, behot: 50, pinned: true), article(2, behot: 300), article(3, behot: 200), article(4, behot: 100)], hasMore: true)
    /// Page 2 overlaps page 1 by one item.
    static let page2 = Toutiao.wire([article(4, behot: 100), article(5, behot: 90), article(6, behot: 80)], hasMore: true)
    /// Page 3 is the last.
    static let page3 = Toutiao.wire([article(7, behot: 70)], hasMore: false)

    /// Serves page 1 for the first request, then by `max_behot_time`.
    static func book(page2: String = page2, page3: String = page3) -> LoopbackRoute {
        .handler { request in
            let query = request.query ?? ""
            if query.contains("min_behot_time=") { return LoopbackResponse(text: page1) }
            if query.contains("max_behot_time=100&") { return LoopbackResponse(text: page2) }
            if query.contains("max_behot_time=80&") { return LoopbackResponse(text: page3) }
            return LoopbackResponse(status: 404, text: "no such page")
        }
    }

    @Test func pagesByTheSmallestBehotTimeAndDropsRepeats() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/t" + Toutiao.endpoint, Self.book())
        let result = try await Toutiao.adapter(server, "/t", ["pages": .integer(10), "category": .string("news_hot")]).fetch(
            in: Toutiao.context())
        #expect(result.items.map(\.id) == (1...7).map(Self.id))
        #expect(result.problems.isEmpty)
        let identity = "strict=0&detail=1&refresh_reason=1&device_id=6096495334&iid=5034850950"
        #expect(
            server.requests("/t" + Toutiao.endpoint).map(\.query) == [
                "category=news_hot&count=20&list_count=0&min_behot_time=1503500000&tt_from=pull&\(identity)",
                "category=news_hot&count=20&list_count=4&max_behot_time=100&tt_from=load_more&\(identity)",
                "category=news_hot&count=20&list_count=7&max_behot_time=80&tt_from=load_more&\(identity)",
            ])
    }

    static let allAds = Toutiao.wire([#"{"ad_id":1,"label":"广告","title":"ad","behot_time":90}"#], hasMore: true)

    @Test(
        arguments: [
            ("stops at the page limit", 2, nil, page2, [1, 2, 3, 4, 5, 6], 2),
            ("stops at has_more false", 10, nil, page2, [1, 2, 3, 4, 5, 6, 7], 3),
            ("stops at an empty batch", 10, nil, Toutiao.wire([], hasMore: true), [1, 2, 3, 4], 2),
            ("stops when a batch has nothing new", 10, nil, Toutiao.wire([article(3, behot: 200)], hasMore: true), [1, 2, 3, 4], 2),
            ("stops when a batch is no older", 10, nil, Toutiao.wire([article(8, behot: 500)], hasMore: true), [1, 2, 3, 4, 8], 2),
            ("stops at max_items", 10, 2, page2, [1, 2], 1),
            ("a batch of nothing but ads counts as empty", 10, nil, allAds, [1, 2, 3, 4], 2),
        ] as [(String, Int, Int?, String, [Int], Int)])
    func stops(_ name: String, _ pages: Int, _ maxItems: Int?, _ page2: String, _ ids: [Int], _ requests: Int) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/t" + Toutiao.endpoint, Self.book(page2: page2))
        let result = try await Toutiao.adapter(server, "/t", ["pages": .integer(pages)]).fetch(in: Toutiao.context(maxItems: maxItems))
        #expect(result.items.map(\.id) == ids.map(Self.id), "\(name)")
        #expect(server.requestCount("/t" + Toutiao.endpoint) == requests, "\(name)")
    }

    @Test func aFailingLaterPageKeepsTheFirst() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/t" + Toutiao.endpoint, .sequence([.text(Self.page1), .status(500)]))
        let result = try await Toutiao.adapter(server, "/t", ["pages": .integer(3)]).fetch(in: Toutiao.context())
        #expect(result.items.map(\.id) == (1...4).map(Self.id))
        let second = server.url("/t" + Toutiao.endpoint) + "?" + (server.requests("/t" + Toutiao.endpoint).last?.query ?? "")
        #expect(result.problems.map(\.message) == ["page 2 failed, keeping the first 1: \(second): HTTP 500 Internal Server Error"])
    }

    // MARK: Errors

    @Test(
        arguments: [
            (#"{"message":"error","data":[]}"#, #"the API did not answer "success" ('message' is "error")"#),
            (#"{"data":[]}"#, #"the API did not answer "success" (no 'message')"#),
            (#"[{"message":"success"}]"#, "expected a JSON object with 'message' and 'data'"),
            (#"{"message":"success","data":{"count":15}}"#, "'data' is not a list of feed entries (is this the feed endpoint?)"),
            (#"{"message":"success"}"#, "'data' is not a list of feed entries (is this the feed endpoint?)"),
            ("<html>busy</html>", "not valid JSON at 1:1: unexpected character '<', expected a value"),
        ])
    func responsesThatFailTheSource(_ body: String, _ reason: String) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/t" + Toutiao.endpoint, .text(body))
        let url = server.url("/t" + Toutiao.endpoint) + "?" + Toutiao.firstQuery
        await #expect(throws: AdapterError("\(url): \(reason)")) {
            _ = try await Toutiao.adapter(server, "/t").fetch(in: Toutiao.context())
        }
    }

    @Test(arguments: [(404, "HTTP 404 Not Found"), (503, "HTTP 503 Service Unavailable"), (403, "HTTP 403 Forbidden")])
    func httpErrorsFailTheSource(_ status: Int, _ reason: String) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/t" + Toutiao.endpoint, .status(status))
        let url = server.url("/t" + Toutiao.endpoint) + "?" + Toutiao.firstQuery
        await #expect(throws: FetchError(url: url, reason: .httpStatus(status))) {
            _ = try await Toutiao.adapter(server, "/t").fetch(in: Toutiao.context())
        }
        #expect(FetchError(url: url, reason: .httpStatus(status)).description == "\(url): \(reason)")
    }

    @Test func badEntriesAreSkippedAndTheRestKept() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let good = Self.article(1, behot: 10)
        let body = #"""
            {"message":"success","has_more":false,"data":[
            {"content":\#(good)},
            {"code":""},
            {"content":null},
            {"content":5},
            {"content":"[1,2]"},
            {"content":"{\"title\":\"cut"},
            {"content":""},
            "content",
            {"content":{"abstract":"no id, link or title"}}
            ]}
            """#
        server.route("/t" + Toutiao.endpoint, .text(body))
        let result = try await Toutiao.adapter(server, "/t").fetch(in: Toutiao.context())
        #expect(result.items.map(\.id) == [Self.id(1)])
        let url = server.url("/t" + Toutiao.endpoint) + "?" + Toutiao.firstQuery
        #expect(
            result.problems == [
                Problem(.error, "\(url): data[1] has no 'content'; the entry was skipped"),
                Problem(.error, "\(url): data[2] has no 'content'; the entry was skipped"),
                Problem(.error, "\(url): data[3].content is neither an object nor JSON text; the entry was skipped"),
                Problem(.error, "\(url): data[4].content is JSON but not an object; the entry was skipped"),
                Problem(
                    .error,
                    "\(url): data[5].content is not valid JSON at 1:14: unexpected end of input, expected '\"' to close the string; the entry was skipped"
                ),
                Problem(.error, "\(url): data[6].content is not valid JSON at 1:1: empty document; the entry was skipped"),
                Problem(.error, "\(url): data[7] is not an object; the entry was skipped"),
                Problem(.error, "\(url): data[8] has no id, link or title; the entry was skipped"),
            ])
    }
}
