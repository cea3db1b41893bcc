import Foundation
import KanzhihuAdapter
import Testing
import TributaryCore
import TributaryModel

@Suite("Kanzhihu top users: topuser")
struct KanzhihuTopUsersTests {
    @Test func oneItemPerUserWithTheMetricAsAMetric() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/topuser/agree/1/50", "topuser_agree.json")
        let result = try await harness.fetch(["feed": .string("top_users")])
        let first = Author(
            name: "张佳玮", url: "https://www.zhihu.com/people/5b7a2f7b4b5f2c54b3c8d2e1f0a9b8c7",
            avatar: "https://pic1.zhimg.com/3b5a7c9e1_l.jpg")
        let second = Author(
            name: "某知名答主", url: "https://www.zhihu.com/people/c2d4e6f8a0b1c3d5e7f9a1b3c5d7e9f1",
            avatar: "https://pic2.zhimg.com/8d6e4f2a0_l.jpg")
        #expect(
            result.items == [
                Item(
                    id: "5b7a2f7b4b5f2c54b3c8d2e1f0a9b8c7", source: "zhihu", url: first.url, title: "张佳玮", summary: "写东西的",
                    image: first.avatar, authors: [first], metrics: ["agree": 1_905_432], extras: ["rank": .int(1)]),
                Item(
                    id: "c2d4e6f8a0b1c3d5e7f9a1b3c5d7e9f1", source: "zhihu", url: second.url, title: "某知名答主",
                    image: second.avatar, authors: [second], metrics: ["agree": 1_023_456], extras: ["rank": .int(2)]),
            ])
        #expect(result.problems.isEmpty)
        // A short page is the last: no page 2 even though `pages` would allow it.
        #expect(harness.requestedPaths == ["/topuser/agree/1/50"])
    }

    @Test func pagesOnUntilTheRankingEnds() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/topuser/follower/1/50", "topuser_follower_full.json")
        try harness.serve("/topuser/follower/2/50", "topuser_out_of_range.json")
        let result = try await harness.fetch(["feed": .string("top_users"), "metric": .string("follower"), "pages": .integer(3)])
        #expect(result.items.count == 50)
        #expect(result.items.last?.extras["rank"] == .int(50))
        #expect(result.items.last?.metrics == ["follower": 520_000])
        #expect(result.items.first?.summary == "签名 1")
        #expect(result.items[1].summary == nil, "an empty signature is no summary")
        #expect(result.problems.isEmpty, "an error past the end is the end of the ranking")
        #expect(harness.requestedPaths == ["/topuser/follower/1/50", "/topuser/follower/2/50"])
    }

    @Test func pagesStopsThePaging() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/topuser/follower/1/50", "topuser_follower_full.json")
        let result = try await harness.fetch(["feed": .string("top_users"), "metric": .string("follower")])
        #expect(result.items.count == 50)
        #expect(harness.requestedPaths == ["/topuser/follower/1/50"])
    }

    @Test func maxItemsCutsTheRanking() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/topuser/follower/1/50", "topuser_follower_full.json")
        let result = try await harness.fetch(
            ["feed": .string("top_users"), "metric": .string("follower"), "pages": .integer(10)], maxItems: 10)
        #expect(result.items.map { $0.extras["rank"] } == (1...10).map { .int($0) })
        #expect(harness.requestedPaths == ["/topuser/follower/1/50"])
    }

    @Test func anErrorOnTheFirstPageFailsTheSource() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/topuser/agree/1/50", "topuser_out_of_range.json")
        #expect(
            await harness.failure(["feed": .string("top_users")])
                == "\(harness.base)/topuser/agree/1/50: the API answered with error 'out of range'")
    }

    @Test func aValueThatIsNoWholeNumberIsKeptAsAnExtra() async throws {
        let harness = try KanzhihuHarness()
        try harness.serve("/topuser/agreeiratio/1/50", "topuser_agreeiratio.json")
        let result = try await harness.fetch(["feed": .string("top_users"), "metric": .string("agreeiratio")])
        #expect(result.items.map(\.metrics) == [[:], [:]])
        #expect(result.items.map { $0.extras["agreeiratio"] } == [.double(0.0312), .string("0.03%")])
    }
}
