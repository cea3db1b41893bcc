import Foundation
import KanzhihuAdapter
import TestSupport
import Testing
import TributaryCore
import TributaryModel

@Suite("Kanzhihu user: userdetail2")
struct KanzhihuUserTests {
    static let hash = "e3a73b22667db7621acfde27a08f0385"
    static let user = Author(
        name: "张三", url: "https://www.zhihu.com/people/e3a73b22667db7621acfde27a08f0385",
        avatar: "https://pic1.zhimg.com/fa6665848_l.jpg")

    @Test func readsTheUsersTopAnswersAndArticles() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/userdetail2/\(Self.hash)", "userdetail2.json")
        let result = try await harness.fetch(["feed": .string("user"), "hash": .string(Self.hash)])
        #expect(
            result.items == [
                Item(
                    id: "40104565/85311234", source: "zhihu", url: "https://www.zhihu.com/question/40104565/answer/85311234",
                    title: "如何评价电影《美人鱼》？", authors: [Self.user], metrics: ["votes": 23510],
                    extras: ["kind": .string("answer")]),
                Item(
                    id: "p/20312345", source: "zhihu", url: "https://zhuanlan.zhihu.com/p/20312345", title: "我在厨房里的十年",
                    authors: [Self.user], metrics: ["votes": 4321], extras: ["kind": .string("article")]),
            ])
        #expect(result.problems.isEmpty)
        #expect(result.feed?.title == "张三 · 看知乎")
        #expect(result.feed?.homePageURL == Self.user.url)
        #expect(result.feed?.description == "喜欢读书和做饭。")
        #expect(harness.requestedPaths == ["/userdetail2/\(Self.hash)"])
    }

    @Test func anUpperCaseHashIsRequestedInLowerCase() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/userdetail2/\(Self.hash)", "userdetail2.json")
        let result = try await harness.fetch(["feed": .string("user"), "hash": .string(Self.hash.uppercased())])
        #expect(result.items.count == 2)
    }

    @Test func anUnknownUserFailsTheSource() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/userdetail2/\(Self.hash)", "userdetail2_no_result.json")
        #expect(
            await harness.failure(["feed": .string("user"), "hash": .string(Self.hash)])
                == "\(harness.base)/userdetail2/\(Self.hash): the API answered with error 'no result'")
    }

    @Test(arguments: [
        (
            link: "/question/40104565/answer/85311234", post: "0", id: "40104565/85311234",
            url: "https://www.zhihu.com/question/40104565/answer/85311234"
        ),
        (
            link: "https://www.zhihu.com/question/40104565/answer/85311234?utm=x", post: "0", id: "40104565/85311234",
            url: "https://www.zhihu.com/question/40104565/answer/85311234?utm=x"
        ),
        (link: "/p/20312345", post: "1", id: "p/20312345", url: "https://zhuanlan.zhihu.com/p/20312345"),
        (link: "question/1/answer/2", post: "0", id: "1/2", url: "https://www.zhihu.com/question/1/answer/2"),
    ])
    func topAnswerLinks(link: String, post: String, id: String, url: String) async throws {
        let harness = try KanzhihuHarness()
        harness.server.route(
            "/userdetail2/\(Self.hash)",
            .text(#"{"error":"","name":"张三","topanswers":[{"title":"t","agree":"1","link":"\#(link)","ispost":"\#(post)"}]}"#))
        let item = try #require(try await harness.fetch(["feed": .string("user"), "hash": .string(Self.hash)]).items.first)
        #expect(item.id == id)
        #expect(item.url == url)
    }

    @Test func aTopAnswerWithoutALinkIsAProblem() async throws {
        let harness = try KanzhihuHarness()
        harness.server.route(
            "/userdetail2/\(Self.hash)",
            .text(#"{"error":"","name":"张三","topanswers":[{"title":"t","agree":"1"},{"title":"u","link":"/p/1","ispost":1}]}"#))
        let result = try await harness.fetch(["feed": .string("user"), "hash": .string(Self.hash)])
        #expect(result.items.map(\.id) == ["p/1"])
        #expect(result.items.first?.url == "https://zhuanlan.zhihu.com/p/1", "ispost as a number works too")
        #expect(
            result.problems == [Problem(.error, "\(harness.base)/userdetail2/\(Self.hash): top answer 1 skipped: no 'link'")])
    }
}
