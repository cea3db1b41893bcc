import Foundation
import KanzhihuAdapter
import Testing
import TributaryCore

@Suite("Kanzhihu options")
struct KanzhihuOptionsTests {
    @Test func theDefaultsReadTheNewestDayOfEveryPostFromTheRealAPI() throws {
        let adapter = try KanzhihuAdapter(options: KanzhihuHarness.options([:]))
        #expect(adapter.feed == .posts(names: ["yesterday", "recent", "archive"], days: 1))
        #expect(adapter.baseURL.absoluteString == "http://api.kanzhihu.com")
        #expect(KanzhihuAdapter.kind == "kanzhihu")
    }

    @Test(
        arguments: [
            (
                ["posts": .strings(["recent", "recent", "archive"]), "days": .integer(3)],
                KanzhihuFeed.posts(names: ["recent", "archive"], days: 3)
            ),
            (
                ["feed": .string("user"), "hash": .string("E3A73B22667DB7621ACFDE27A08F0385")],
                .user(hash: "e3a73b22667db7621acfde27a08f0385")
            ),
            (["feed": .string("top_users")], .topUsers(metric: "agree", pages: 1)),
            (["feed": .string("top_users"), "metric": .string("follower"), "pages": .integer(4)], .topUsers(metric: "follower", pages: 4)),
        ] as [([String: OptionValue], KanzhihuFeed)])
    func validOptions(written: [String: OptionValue], feed: KanzhihuFeed) throws {
        #expect(try KanzhihuAdapter(options: KanzhihuHarness.options(written)).feed == feed)
    }

    /// Each error names the option's line (5 for the first written key, sorted) or, for a
    /// missing option, the source's.
    @Test(
        arguments: [
            (
                ["feed": .string("user")],
                "feeds.yaml:4:5: error: source 'zhihu': feed: user needs 'hash', the user's 32-hex-digit Kanzhihu hash"
            ),
            (
                ["feed": .string("user"), "hash": .string("zhang-jia-wei")],
                "feeds.yaml:6:5: error: source 'zhihu': 'hash' must be the user's 32 hex digits, found 'zhang-jia-wei'"
            ),
            (
                ["feed": .string("top_users"), "metric": .string("agre")],
                "feeds.yaml:6:5: error: source 'zhihu': unknown 'metric' 'agre'; did you mean 'agree'?"
            ),
            (
                ["posts": .strings(["yesterdy"])],
                "feeds.yaml:5:5: error: source 'zhihu': unknown post 'yesterdy' in 'posts'; did you mean 'yesterday'? (one of: yesterday, recent, archive)"
            ),
            (
                ["posts": .strings([])],
                "feeds.yaml:5:5: error: source 'zhihu': 'posts' must name at least one of: yesterday, recent, archive"
            ),
            (
                ["hash": .string("e3a73b22667db7621acfde27a08f0385")],
                "feeds.yaml:5:5: error: source 'zhihu': 'hash' applies only to feed: user (this source reads feed: posts)"
            ),
            (
                ["feed": .string("user"), "days": .integer(2), "hash": .string("e3a73b22667db7621acfde27a08f0385")],
                "feeds.yaml:5:5: error: source 'zhihu': 'days' applies only to feed: posts (this source reads feed: user)"
            ),
            (
                ["pages": .integer(2)],
                "feeds.yaml:5:5: error: source 'zhihu': 'pages' applies only to feed: top_users (this source reads feed: posts)"
            ),
            (
                ["feed": .string("top_users"), "posts": .strings(["recent"])],
                "feeds.yaml:6:5: error: source 'zhihu': 'posts' applies only to feed: posts (this source reads feed: top_users)"
            ),
        ] as [([String: OptionValue], String)])
    func invalidOptionsAreLocatedErrors(written: [String: OptionValue], message: String) {
        do {
            _ = try KanzhihuAdapter(options: KanzhihuHarness.options(written))
            Issue.record("expected: \(message)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aBaseURLWithATrailingSlashGivesTheSameURLs() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/topuser/agree/1/50", "topuser_agree.json")
        let result = try await harness.fetch([
            "feed": .string("top_users"), "base_url": .url(try #require(URL(string: harness.base + "/"))),
        ])
        #expect(result.items.count == 2)
        #expect(harness.requestedPaths == ["/topuser/agree/1/50"])
    }
}
