import Foundation
import QdailyAdapter
import TestSupport
import Testing
import TributaryCore
import TributaryModel

/// `last_key` paging: the first key is `0`, the next one is the previous response's `last_key`
/// (a string on the home feed, a number elsewhere, always kept as text).
@Suite("Qdaily pagination")
struct QdailyPaginationTests {
    /// The real first page, the reconstructed second and the reconstructed empty last page.
    private func homeChain() throws -> LoopbackServer {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", try QdailyTestSupport.route("homes0.json"))
        server.route("/app3/homes/index/1500282425_1500287444.json", try QdailyTestSupport.route("homes_index_page2.json"))
        server.route("/app3/homes/index/1478777270_1478790123.json", try QdailyTestSupport.route("homes_index_last_page.json"))
        return server
    }

    @Test(arguments: [
        (1, 1, 28),
        (2, 2, 32),
        (3, 3, 32),
        (20, 3, 32),  // the empty third page ends it before the limit
    ])
    func followsTheHomeFeedsStringKeys(pages: Int, requests: Int, items: Int) async throws {
        let server = try homeChain()
        let result = try await QdailyTestSupport.adapter(server, ["pages": .integer(pages)]).fetch(in: QdailyTestSupport.context())
        let expected = [
            "/app3/homes/index/0.json", "/app3/homes/index/1500282425_1500287444.json",
            "/app3/homes/index/1478777270_1478790123.json",
        ]
        #expect(QdailyTestSupport.paths(server) == Array(expected.prefix(requests)))
        #expect(result.items.count == items)
        #expect(result.problems.isEmpty)
    }

    @Test func threePagesInOrderWithThePaperOfPageTwo() async throws {
        let server = try homeChain()
        let result = try await QdailyTestSupport.adapter(server, ["pages": .integer(3)]).fetch(in: QdailyTestSupport.context())
        #expect(result.items.prefix(28).map(\.id).first == "article:43134")
        #expect(result.items.suffix(4).map(\.id) == ["article:35012", "article:34998", "paper:1801", "article:34990"])
        let paper = try #require(result.items.first { $0.id == "paper:1801" })
        #expect(paper.url == nil)
        #expect(paper.tags == ["投票"])
        #expect(paper.metrics == ["comments": 37, "likes": 0, "participants": 2315])
        #expect(paper.published == Date(timeIntervalSince1970: 1_478_790_123))
        let long = try #require(result.items.first { $0.id == "article:34998" })
        #expect(long.summary == nil, "an empty description is no summary")
        #expect(long.tags == ["长文章"])
    }

    @Test func categoryAndPapersKeysAreNumbersKeptAsText() async throws {
        let server = try LoopbackServer()
        server.route("/app3/categories/index/1/0.json", try QdailyTestSupport.route("category1.json"))
        server.route("/app3/categories/index/1/1499810980.json", try QdailyTestSupport.route("categories_index_last_page.json"))
        server.route("/app3/papers/index/0.json", try QdailyTestSupport.route("papers0.json"))
        server.route(
            "/app3/papers/index/1499792446.json",
            QdailyTestSupport.json(#"{"meta":{"status":200,"msg":"success"},"response":{"has_more":false,"last_key":0,"feeds":[]}}"#))

        let category = try await QdailyTestSupport.adapter(
            server, ["feed": .string("category"), "category_id": .integer(1), "pages": .integer(5)]
        ).fetch(in: QdailyTestSupport.context())
        let papers = try await QdailyTestSupport.adapter(server, ["feed": .string("papers"), "pages": .integer(5)])
            .fetch(in: QdailyTestSupport.context())

        #expect(
            QdailyTestSupport.paths(server) == [
                "/app3/categories/index/1/0.json", "/app3/categories/index/1/1499810980.json",
                "/app3/papers/index/0.json", "/app3/papers/index/1499792446.json",
            ])
        #expect(category.items.count == 12 && papers.items.count == 12)
        #expect(category.problems.isEmpty && papers.problems.isEmpty)
    }

    @Test func aKeyWiderThanAnyIntegerIsKeptDigitForDigit() async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", try QdailyTestSupport.route("homes_bad_items.json"))
        server.route("/app3/homes/index/12345678901234567890.json", try QdailyTestSupport.route("homes_index_last_page.json"))
        _ = try await QdailyTestSupport.adapter(server, ["pages": .integer(2)]).fetch(in: QdailyTestSupport.context())
        #expect(QdailyTestSupport.paths(server) == ["/app3/homes/index/0.json", "/app3/homes/index/12345678901234567890.json"])
    }

    @Test(
        arguments: [
            (
                "has_more false", 5, nil,
                [homePage([1, 2], hasMore: "false", lastKey: #""k1""#), homePage([3], hasMore: "true", lastKey: #""k2""#)], 1, 2
            ),
            (
                "has_more \"0\"", 5, nil,
                [homePage([1, 2], hasMore: #""0""#, lastKey: #""k1""#), homePage([3], hasMore: "true", lastKey: #""k2""#)], 1, 2
            ),
            (
                "has_more \"1\"", 2, nil,
                [homePage([1, 2], hasMore: #""1""#, lastKey: #""k1""#), homePage([3], hasMore: "true", lastKey: #""k2""#)], 2, 3
            ),
            (
                "the pages limit", 2, nil,
                [homePage([1], hasMore: "true", lastKey: #""k1""#), homePage([2], hasMore: "true", lastKey: #""k2""#)], 2, 2
            ),
            (
                "an empty page", 5, nil,
                [homePage([1], hasMore: "true", lastKey: #""k1""#), homePage([], hasMore: "true", lastKey: #""k2""#)], 2, 1
            ),
            (
                "a repeated key", 5, nil,
                [homePage([1], hasMore: "true", lastKey: #""k1""#), homePage([2], hasMore: "true", lastKey: #""k1""#)], 2, 2
            ),
            (
                "a key back to 0", 5, nil,
                [homePage([1], hasMore: "true", lastKey: #""k1""#), homePage([2], hasMore: "true", lastKey: "0")], 2, 2
            ),
            (
                "nothing new", 5, nil,
                [homePage([1], hasMore: "true", lastKey: #""k1""#), homePage([1], hasMore: "true", lastKey: #""k2""#)], 2, 1
            ),
            (
                "max_items", 5, 3,
                [homePage([1, 2], hasMore: "true", lastKey: #""k1""#), homePage([3, 4], hasMore: "true", lastKey: #""k2""#)], 2, 3
            ),
        ] as [(String, Int, Int?, [String], Int, Int)])
    func stops(_ name: String, pages: Int, maxItems: Int?, bodies: [String], requests: Int, items: Int) async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", QdailyTestSupport.json(bodies[0]))
        server.route("/app3/homes/index/k1.json", QdailyTestSupport.json(bodies[1]))
        server.route("/app3/homes/index/k2.json", QdailyTestSupport.json(homePage([99], hasMore: "false", lastKey: nil)))
        let result = try await QdailyTestSupport.adapter(server, ["pages": .integer(pages)])
            .fetch(in: QdailyTestSupport.context(maxItems: maxItems))
        let expected = ["/app3/homes/index/0.json", "/app3/homes/index/k1.json"]
        #expect(QdailyTestSupport.paths(server) == Array(expected.prefix(requests)), "\(name)")
        #expect(result.items.count == items, "\(name)")
        #expect(result.problems.isEmpty, "\(name): \(result.problems)")
    }

    @Test(
        arguments: [
            ("true", nil, "warning: {page}: response.has_more is true but response.last_key is missing; stopping here"),
            ("true", #""""#, #"warning: {page}: response.has_more is true but response.last_key is a string ""; stopping here"#),
            ("true", "null", "warning: {page}: response.has_more is true but response.last_key is null; stopping here"),
            ("true", "[1]", "warning: {page}: response.has_more is true but response.last_key is a list; stopping here"),
            (#""maybe""#, #""k1""#, #"warning: {page}: response.has_more is a string "maybe", expected a boolean; not following last_key"#),
            ("null", #""k1""#, "warning: {page}: response.has_more is null, expected a boolean; not following last_key"),
            (nil, #""k1""#, "warning: {page}: response.has_more is missing, expected a boolean; not following last_key"),
        ] as [(String?, String?, String)])
    func anUnusableCursorStopsWithAWarning(hasMore: String?, lastKey: String?, warning: String) async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", QdailyTestSupport.json(homePage([1], hasMore: hasMore, lastKey: lastKey)))
        let result = try await QdailyTestSupport.adapter(server, ["pages": .integer(5)]).fetch(in: QdailyTestSupport.context())
        #expect(QdailyTestSupport.paths(server) == ["/app3/homes/index/0.json"])
        #expect(result.items.map(\.id) == ["article:1"])
        let expected = warning.replacingOccurrences(of: "{page}", with: server.url("/app3/homes/index/0.json"))
        #expect(result.problems.map(\.description) == [expected])
    }

    @Test(arguments: [
        (LoopbackRoute.status(500), "HTTP 500 Internal Server Error"),
        (QdailyTestSupport.json("<html>busy</html>"), "not valid JSON at 1:1"),
        (QdailyTestSupport.json(#"{"meta":{"status":500,"msg":"error"},"response":null}"#), "the API answered meta.status 500 (error)"),
    ])
    func aFailingLaterPageKeepsTheEarlierOnes(route: LoopbackRoute, reason: String) async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", try QdailyTestSupport.route("homes0.json"))
        server.route("/app3/homes/index/1500282425_1500287444.json", route)
        let result = try await QdailyTestSupport.adapter(server, ["pages": .integer(3)]).fetch(in: QdailyTestSupport.context())
        #expect(result.items.count == 28)
        #expect(result.problems.count == 1)
        let message = try #require(result.problems.first?.description)
        #expect(
            message.hasPrefix(
                "error: page 2 failed, keeping the first 1: \(server.url("/app3/homes/index/1500282425_1500287444.json")): \(reason)"))
    }
}

/// A small home page: the given post ids, and `has_more` and `last_key` as JSON text (left out when nil).
private func homePage(_ ids: [Int], hasMore: String?, lastKey: String?) -> String {
    let feeds = ids.map { #"{"type":1,"post":{"id":\#($0),"datatype":"article","title":"post \#($0)","publish_time":1500000000}}"# }
    var members = [#""feeds":[\#(feeds.joined(separator: ","))]"#]
    if let hasMore { members.append(#""has_more":\#(hasMore)"#) }
    if let lastKey { members.append(#""last_key":\#(lastKey)"#) }
    return #"{"meta":{"status":200,"msg":"success"},"response":{\#(members.joined(separator: ","))}}"#
}
