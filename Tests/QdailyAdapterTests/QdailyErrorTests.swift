import Foundation
import QdailyAdapter
import TestSupport
import Testing
import TributaryCore
import TributaryModel

/// Answers the adapter cannot use fail the source with one line naming the URL and the field;
/// answers that are merely empty give no items and no failure.
@Suite("Qdaily errors")
struct QdailyErrorTests {
    @Test(arguments: [
        (#"{"meta":{"status":404,"msg":"not found"},"response":{}}"#, "the API answered meta.status 404 (not found)"),
        (#"{"meta":{"status":"500"},"response":{"feeds":[]}}"#, "the API answered meta.status 500"),
        (#"{"meta":{"status":"error"},"response":{"has_more":false,"feeds":[]}}"#, #"meta.status is a string "error", expected 200"#),
        (
            #"{"meta":{"status":"200 OK","msg":"busy"},"response":{"has_more":false,"feeds":[]}}"#,
            #"meta.status is a string "200 OK", expected 200 (busy)"#
        ),
        (#"{"meta":{"status":true},"response":{"has_more":false,"feeds":[]}}"#, "meta.status is the boolean true, expected 200"),
        (#"{"meta":{"status":200.5},"response":{"has_more":false,"feeds":[]}}"#, "meta.status is the number 200.5, expected 200"),
        (#"{"meta":{"status":{"code":200}},"response":{"feeds":[]}}"#, "meta.status is an object, expected 200"),
        (#"{"meta":{"status":200,"msg":"success"}}"#, "the answer has no 'response'"),
        (#"{"meta":{"status":200,"msg":"success"},"response":null}"#, "the answer has no 'response'"),
        (#"{"meta":{"status":200,"msg":"success"},"response":[{"id":1}]}"#, "'response' is a list, expected an object"),
        (#"{"meta":{"status":200,"msg":"success"},"response":"oops"}"#, #"'response' is a string "oops", expected an object"#),
        (#"[]"#, "expected an object with 'meta' and 'response', found a list"),
        (#""maintenance""#, #"expected an object with 'meta' and 'response', found a string "maintenance""#),
        (#"{"meta":{"status":200},"response":{"has_more":true,"last_key":"1_2"}}"#, "the answer has no 'response.feeds'"),
        (#"{"meta":{"status":200},"response":{"feeds":{"0":{}}}}"#, "'response.feeds' is an object, expected a list"),
        (#"{"meta":{"status":200},"response":{"feeds":"none"}}"#, #"'response.feeds' is a string "none", expected a list"#),
        ("<html><body>502 Bad Gateway</body></html>", "not valid JSON at 1:1: "),
        ("", "not valid JSON at 1:1: "),
        (#"{"meta":{"status":200},"response":{"feeds":[{"#, "not valid JSON at 1:"),
    ])
    func anUnusableAnswerFailsTheSource(body: String, reason: String) async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", QdailyTestSupport.json(body))
        let message = try #require(await QdailyTestSupport.failure(QdailyTestSupport.adapter(server)))
        let expected = "\(server.url("/app3/homes/index/0.json")): \(reason)"
        #expect(message.hasPrefix(expected), "\(message)")
        if !reason.hasPrefix("not valid JSON") { #expect(message == expected) }
    }

    @Test(arguments: [
        (LoopbackRoute.status(503), "HTTP 503 Service Unavailable"),
        (LoopbackRoute.status(404), "HTTP 404 Not Found"),
    ])
    func anHTTPErrorFailsTheSource(route: LoopbackRoute, reason: String) async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", route)
        let message = await QdailyTestSupport.failure(try QdailyTestSupport.adapter(server))
        #expect(message == "\(server.url("/app3/homes/index/0.json")): \(reason)")
    }

    @Test(arguments: [
        #"{"meta":{"status":200,"msg":"success"},"response":{"has_more":false,"last_key":"","feeds":[],"banners":[]}}"#,
        #"{"meta":{"status":200,"msg":"success"},"response":{"has_more":false,"feeds":null}}"#,
        #"{"response":{"has_more":false,"last_key":0,"feeds":[]}}"#,
        #"{"meta":null,"response":{"has_more":false,"feeds":[]}}"#,
        #"{"meta":{"status":"200","msg":"success"},"response":{"has_more":false,"feeds":[]}}"#,
        #"{"meta":{"status":null},"response":{"has_more":false,"feeds":[]}}"#,
    ])
    func anEmptyAnswerIsNoItemsAndNoFailure(body: String) async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", QdailyTestSupport.json(body))
        let result = try await QdailyTestSupport.adapter(server, ["pages": .integer(3)]).fetch(in: QdailyTestSupport.context())
        #expect(result.items.isEmpty)
        #expect(result.problems.isEmpty)
        #expect(QdailyTestSupport.paths(server) == ["/app3/homes/index/0.json"])
    }

    @Test func theReconstructedLastPageIsEmpty() async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", try QdailyTestSupport.route("homes_index_last_page.json"))
        let result = try await QdailyTestSupport.adapter(server, ["pages": .integer(3)]).fetch(in: QdailyTestSupport.context())
        #expect(result.items.isEmpty && result.problems.isEmpty)
    }

    @Test func unreadableBannersAreAWarning() async throws {
        let server = try LoopbackServer()
        let body =
            #"{"meta":{"status":200},"response":{"has_more":false,"feeds":[{"type":1,"post":{"id":1,"datatype":"article"}}],"banners":{}}}"#
        server.route("/app3/homes/index/0.json", QdailyTestSupport.json(body))
        let result = try await QdailyTestSupport.adapter(server, ["include_banners": .boolean(true)]).fetch(in: QdailyTestSupport.context())
        #expect(result.items.map(\.id) == ["article:1"])
        #expect(
            result.problems.map(\.description) == [
                "warning: \(server.url("/app3/homes/index/0.json")): response.banners is an object, expected a list; banners skipped"
            ])
    }
}
