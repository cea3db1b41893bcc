import Foundation
import KanzhihuAdapter
import TestSupport
import Testing
import TributaryCore
import TributaryModel

@Suite("Kanzhihu posts: getposts → getpostanswers")
struct KanzhihuPostsTests {
    // The answers of the reconstructed 2016-02-22 posts, read by hand from the fixtures.
    static let archiveAnswer = Item(
        id: "24587133/28412345", source: "zhihu", url: "https://www.zhihu.com/question/24587133/answer/28412345",
        title: "有哪些值得一读的冷门好书？", summary: "《显微镜下的大明》。",
        authors: [
            Author(
                name: "赵六", url: "https://www.zhihu.com/people/1f2e3d4c5b6a79880716253443526170",
                avatar: "https://pic2.zhimg.com/0e9d8c7b6_l.jpg")
        ],
        published: Date(timeIntervalSince1970: 1_411_172_130), tags: ["历史精华"], metrics: ["votes": 5120])
    static let recentAnswer = Item(
        id: "39981275/84810011", source: "zhihu", url: "https://www.zhihu.com/question/39981275/answer/84810011",
        title: "为什么春节越来越没有年味了？", summary: "小时候的年味，是因为一年里只有过年才有新衣服和肉吃。",
        authors: [
            Author(
                name: "王五", url: "https://www.zhihu.com/people/7d0c5b3c2a1e4f6a8b9c0d1e2f3a4b5c",
                avatar: "https://pic4.zhimg.com/5a1b2c3d4_l.jpg")
        ],
        published: Date(timeIntervalSince1970: 1_455_894_602), tags: ["近日热门"], metrics: ["votes": 8821])
    /// In both the `recent` and the `yesterday` post: one item, both tags, the newer post's copy.
    static let sharedAnswer = Item(
        id: "20827005/109904175", source: "zhihu", url: "https://www.zhihu.com/question/20827005/answer/109904175",
        title: "有哪些看似简单却很有用的生活技巧？", summary: "鸡蛋煮之前先用针在大头扎一个小孔，煮出来的蛋壳特别好剥……",
        authors: [
            Author(
                name: "张三", url: "https://www.zhihu.com/people/e3a73b22667db7621acfde27a08f0385",
                avatar: "https://pic1.zhimg.com/fa6665848_l.jpg")
        ],
        published: Date(timeIntervalSince1970: 1_455_974_831), tags: ["近日热门", "昨日最新"], metrics: ["votes": 1466])
    /// An empty summary: an image-only answer.
    static let imageAnswer = Item(
        id: "40104565/85311234", source: "zhihu", url: "https://www.zhihu.com/question/40104565/answer/85311234",
        title: "如何评价电影《美人鱼》？", summary: "[图片]",
        authors: [
            Author(
                name: "李四", url: "https://www.zhihu.com/people/0a1b2c3d4e5f60718293a4b5c6d7e8f9",
                avatar: "https://pic3.zhimg.com/da8e974dc_l.jpg")
        ],
        published: Date(timeIntervalSince1970: 1_456_016_625), tags: ["昨日最新"], metrics: ["votes": 23510])

    /// The three 2016-02-22 posts, each with its answers, and nothing before them.
    private func serveOneDay(_ harness: KanzhihuHarness, archive: String = "getpostanswers_archive.json") throws {
        try harness.serve("/getposts", "getposts.json")
        try harness.serve("/getposts/1456095600", "getposts_no_result.json")
        try harness.serve("/getpostanswers/20160222/archive", archive)
        try harness.serve("/getpostanswers/20160222/recent", "getpostanswers_recent.json")
        try harness.serve("/getpostanswers/20160222/yesterday", "getpostanswers.json")
    }

    @Test func readsEveryAnswerOfTheNewestDaysPosts() async throws {
        let harness = try KanzhihuHarness()
        try serveOneDay(harness)
        let result = try await harness.fetch()
        #expect(result.items == [Self.archiveAnswer, Self.recentAnswer, Self.sharedAnswer, Self.imageAnswer])
        #expect(result.problems.isEmpty)
        #expect(result.feed?.title == "看知乎")
        // The answers' dates are yyyymmdd without dashes; the answers of one page are fetched
        // concurrently (any order), then the page before the last post's publishtime, which
        // answers "no result": the end.
        let paths = harness.requestedPaths
        #expect(paths.first == "/getposts")
        #expect(
            Set(paths.dropFirst().prefix(3)) == [
                "/getpostanswers/20160222/archive", "/getpostanswers/20160222/recent", "/getpostanswers/20160222/yesterday",
            ])
        #expect(paths.dropFirst(4) == ["/getposts/1456095600"])
    }

    @Test func theSameAnswerInSeveralPostsIsOneItem() async throws {
        let harness = try KanzhihuHarness()
        try serveOneDay(harness)
        let items = try await harness.fetch().items
        let shared = items.filter { $0.id == "20827005/109904175" }
        #expect(shared.count == 1)
        #expect(shared.first?.tags == ["近日热门", "昨日最新"])
        #expect(shared.first?.metrics["votes"] == 1466, "the copy in the newer post (recent) wins")
    }

    @Test func anAnswerInPostsOnTwoPagesIsOneItemWithBothTags() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/getposts", "getposts.json")
        try harness.serve("/getposts/1456095600", "getposts_older.json")
        try harness.serve("/getpostanswers/20160222/recent", "getpostanswers_archive.json")
        try harness.serve("/getpostanswers/20160222/yesterday", "getpostanswers.json")
        try harness.serve("/getpostanswers/20160221/recent", "getpostanswers_recent.json")
        try harness.serve("/getpostanswers/20160221/yesterday", "getpostanswers_older.json")
        let result = try await harness.fetch(["posts": .strings(["yesterday", "recent"]), "days": .integer(2)])
        #expect(
            result.items.map(\.id) == [
                "24587133/28412345", "20827005/109904175", "40104565/85311234", "39981275/84810011", "19552101/84700002",
            ])
        // In 2016-02-22's yesterday (first page) and 2016-02-21's recent (second page): the newer
        // post's copy, with its vote count, and both tags.
        let shared = try #require(result.items.first { $0.id == "20827005/109904175" })
        #expect(shared.tags == ["昨日最新", "近日热门"])
        #expect(shared.metrics["votes"] == 1404)
        #expect(harness.requestedPaths.contains("/getpostanswers/20160221/recent"))
        #expect(result.problems.isEmpty)
    }

    @Test func pagesBackWhileTheDaysWindowLasts() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/getposts", "getposts.json")
        try harness.serve("/getposts/1456095600", "getposts_older.json")
        try harness.serve("/getpostanswers/20160222/yesterday", "getpostanswers.json")
        try harness.serve("/getpostanswers/20160221/yesterday", "getpostanswers_older.json")
        let result = try await harness.fetch(["posts": .strings(["yesterday"]), "days": .integer(2)])
        #expect(result.items.map(\.id) == ["20827005/109904175", "40104565/85311234", "19552101/84700002"])
        #expect(result.items.last?.tags == ["昨日最新"])
        #expect(result.items.last?.published == Date(timeIntervalSince1970: 1_455_940_800))
        // 2016-02-20 is outside two days counted from the newest post (2016-02-22), so the older
        // page's last post ends the paging: no /getposts/1455962400.
        #expect(
            harness.requestedPaths == [
                "/getposts", "/getpostanswers/20160222/yesterday", "/getposts/1456095600", "/getpostanswers/20160221/yesterday",
            ])
        #expect(result.problems.isEmpty)
    }

    @Test func aPageReachingPastTheWindowIsTheLastOneRead() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/getposts", "getposts_full.json")
        try harness.serve("/getpostanswers/20160222/archive", "getpostanswers_archive.json")
        try harness.serve("/getpostanswers/20160222/recent", "getpostanswers_recent.json")
        try harness.serve("/getpostanswers/20160222/yesterday", "getpostanswers.json")
        let result = try await harness.fetch()
        #expect(result.items == [Self.archiveAnswer, Self.recentAnswer, Self.sharedAnswer, Self.imageAnswer])
        #expect(harness.requestedPaths.count == 4)
        #expect(!harness.requestedPaths.contains { $0.hasPrefix("/getposts/") })
        #expect(!harness.requestedPaths.contains { $0.contains("20160221") })
    }

    @Test func onlyTheChosenPostsAreExpanded() async throws {
        let harness = try KanzhihuHarness()
        try serveOneDay(harness)
        let result = try await harness.fetch(["posts": .strings(["archive", "yesterday"])])
        #expect(result.items.map(\.id) == ["24587133/28412345", "20827005/109904175", "40104565/85311234"])
        #expect(result.items[1].tags == ["昨日最新"])
        #expect(!harness.requestedPaths.contains("/getpostanswers/20160222/recent"))
    }

    @Test func numbersAreAcceptedAsStringsOrNumbers() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/getposts", "getposts_numbers.json")
        try harness.serve("/getposts/1456095600", "getposts_no_result.json")
        try harness.serve("/getpostanswers/20160222/yesterday", "getpostanswers_numbers.json")
        let result = try await harness.fetch()
        let item = try #require(result.items.first)
        #expect(result.items.count == 1)
        // A 19-digit id keeps every digit: numbers never pass through Double.
        #expect(item.id == "20827005/1234567890123456789")
        #expect(item.url == "https://www.zhihu.com/question/20827005/answer/1234567890123456789")
        #expect(item.metrics == ["votes": 1404])
        // The numeric publishtime is the next page's cursor.
        #expect(harness.requestedPaths == ["/getposts", "/getpostanswers/20160222/yesterday", "/getposts/1456095600"])
    }

    @Test(
        arguments: [
            (zone: nil, expected: 1_455_974_831),  // not set: the adapter's own zone, Beijing time, 21:27:11 +08:00
            (zone: "Asia/Shanghai", expected: 1_455_974_831),
            (zone: "Europe/Berlin", expected: 1_456_000_031),  // 21:27:11 +01:00
            (zone: "America/New_York", expected: 1_456_021_631),  // 21:27:11 -05:00
            (zone: "Etc/UTC", expected: 1_456_003_631),  // honoured: 21:27:11 +00:00
            (zone: "UTC", expected: 1_456_003_631),
        ] as [(zone: String?, expected: Int)])
    func answerTimesAreReadInTheSourcesZone(zone: String?, expected: Int) async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/getposts", "getposts_numbers.json")
        try harness.serve("/getposts/1456095600", "getposts_no_result.json")
        try harness.serve("/getpostanswers/20160222/yesterday", "getpostanswers_numbers.json")
        // As the configuration loader resolves it: the source's zone, else the adapter's.
        let name = try #require(zone ?? KanzhihuAdapter.defaultTimeZone)
        let timeZone = try #require(TimeZone(identifier: name))
        let result = try await harness.fetch(timeZone: timeZone)
        #expect(result.items.first?.published == Date(timeIntervalSince1970: TimeInterval(expected)))
    }

    @Test func noResultPastTheEndEndsThePaging() async throws {
        let harness = try KanzhihuHarness()
        try serveOneDay(harness)
        let result = try await harness.fetch(["days": .integer(30)])
        #expect(result.items.count == 4)
        #expect(result.problems.isEmpty, "\"no result\" after the first page is the end, not a problem")
        #expect(harness.requestedPaths.last == "/getposts/1456095600")
    }

    @Test func noResultOnTheFirstPageFailsTheSource() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/getposts", "getposts_no_result.json")
        #expect(await harness.failure() == "\(harness.base)/getposts: the API answered with error 'no result'")
    }

    @Test func aPostWithoutAnswersIsAProblemAndTheOthersAreKept() async throws {
        let harness = try KanzhihuHarness()
        try serveOneDay(harness, archive: "getpostanswers_error.json")
        let result = try await harness.fetch()
        #expect(result.items.map(\.id) == ["39981275/84810011", "20827005/109904175", "40104565/85311234"])
        #expect(
            result.problems == [
                Problem(
                    .error,
                    "post 2016-02-22 archive: answers skipped: \(harness.base)/getpostanswers/20160222/archive: the API answered with error 'no result'"
                )
            ])
    }

    @Test func whenNoPostCanBeReadTheSourceFails() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/getposts", "getposts.json")
        for name in ["archive", "recent", "yesterday"] {
            try harness.serve("/getpostanswers/20160222/\(name)", "getpostanswers_error.json")
        }
        #expect(
            await harness.failure() == "\(harness.base)/getpostanswers/20160222/archive: the API answered with error 'no result'")
    }

    @Test func badAnswersAreProblemsAndTheOthersAreKept() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/getposts", "getposts_numbers.json")
        try harness.serve("/getposts/1456095600", "getposts_no_result.json")
        try harness.serve("/getpostanswers/20160222/yesterday", "getpostanswers_bad.json")
        let result = try await harness.fetch()
        let answers = "\(harness.base)/getpostanswers/20160222/yesterday"
        #expect(
            result.items == [
                Item(
                    id: "30000002/40000002", source: "zhihu", url: "https://www.zhihu.com/question/30000002/answer/40000002",
                    title: "时间写坏了的回答", summary: "时间字段无法解析，但回答本身是好的。", tags: ["昨日最新"]),
                Item(
                    id: "40104565/85311234", source: "zhihu", url: "https://www.zhihu.com/question/40104565/answer/85311234",
                    title: "如何评价电影《美人鱼》？", summary: "[图片]",
                    authors: [
                        Author(
                            name: "李四", url: "https://www.zhihu.com/people/0a1b2c3d4e5f60718293a4b5c6d7e8f9",
                            avatar: "https://pic3.zhimg.com/da8e974dc_l.jpg")
                    ],
                    published: Date(timeIntervalSince1970: 1_456_016_625), tags: ["昨日最新"], metrics: ["votes": 23510]),
            ])
        #expect(
            result.problems == [
                Problem(.error, "\(answers): answer 1 skipped: no 'answerid'"),
                Problem(.error, "\(answers): answer 2 skipped: expected an object, found a string \"not an answer\""),
                Problem(.warning, "answer 30000002/40000002: unreadable 'time' 'sometime soon'; kept without a date"),
            ])
    }

    @Test func maxItemsStopsEarly() async throws {
        let harness = try KanzhihuHarness()
        try serveOneDay(harness)
        let result = try await harness.fetch(maxItems: 2)
        #expect(result.items == [Self.archiveAnswer, Self.recentAnswer])
        #expect(!harness.requestedPaths.contains("/getposts/1456095600"))
    }

    @Test(arguments: [
        (body: "<html><body>502 Bad Gateway</body></html>", message: "/getposts: not valid JSON at 1:1: "),
        (body: #"{"error": "", "count": 0}"#, message: "/getposts: no 'posts' list in the response"),
        (body: #"{"error": "", "posts": {}}"#, message: "/getposts: 'posts' must be a list, found an object"),
        (body: #"["not", "an", "envelope"]"#, message: "/getposts: expected a JSON object, found a list"),
    ])
    func unreadableResponsesFailTheSourceNamingTheURL(body: String, message: String) async throws {
        let harness = try KanzhihuHarness()
        harness.server.route("/getposts", .text(body))
        let failure = try #require(await harness.failure())
        #expect(failure.hasPrefix(harness.base + message), "\(failure)")
    }

    @Test func anHTTPErrorFailsTheSourceNamingTheURL() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/getposts", "getposts.json")
        // No answers are served: the loopback server answers 404.
        #expect(
            await harness.failure(["posts": .strings(["yesterday"])])
                == "\(harness.base)/getpostanswers/20160222/yesterday: HTTP 404 Not Found")
    }

    @Test func aPostWithoutADateIsAProblem() async throws {
        let harness = try KanzhihuHarness()
        harness.server.route(
            "/getposts",
            .text(
                #"{"error":"","count":2,"posts":[{"id":"1","name":"recent","publishtime":"1456113600"},"#
                    + #"{"id":"2","date":"2016-02-22","name":"yesterday","publishtime":"1456095600"}]}"#))
        try harness.serve("/getposts/1456095600", "getposts_no_result.json")
        try harness.serve("/getpostanswers/20160222/yesterday", "getpostanswers.json")
        let result = try await harness.fetch()
        #expect(result.items.count == 2)
        #expect(result.problems == [Problem(.error, "\(harness.base)/getposts: post 1 skipped: no 'date'")])
    }

    @Test func answersOfSeveralPostsAreFetchedConcurrentlyWithinThePerHostLimit() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/getposts", "getposts.json")
        try harness.serve("/getposts/1456095600", "getposts_no_result.json")
        let server = harness.server
        for (name, fixture) in [
            ("archive", "getpostanswers_archive.json"), ("recent", "getpostanswers_recent.json"),
            ("yesterday", "getpostanswers.json"),
        ] {
            let body = try KanzhihuHarness.fixture(fixture)
            // Each answer request waits until two are in flight at once (or all three have
            // arrived): serial fetching would never get there and would show a maximum of 1.
            server.route(
                "/getpostanswers/20160222/\(name)",
                .handler { _ in
                    for _ in 0..<500 {
                        let arrived = server.allRequests.filter { $0.path.hasPrefix("/getpostanswers/") }.count
                        if server.requestsInFlight >= 2 || arrived >= 3 { break }
                        usleep(10_000)
                    }
                    return LoopbackResponse(headers: [("Content-Type", "text/html")], text: body)
                })
        }
        let result = try await harness.fetch(perHost: 2)
        #expect(result.items.count == 4)
        #expect(server.maxConcurrentRequests == 2, "concurrent, and never more than per_host (2) to one host")
    }
}
