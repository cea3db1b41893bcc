import Foundation
import QdailyAdapter
import Testing
import TributaryCore

/// The options: defaults, the feed choices and the combinations the declaration cannot express.
@Suite("Qdaily options")
struct QdailyOptionsTests {
    @Test func theDefaultsReadTheRealHomeFeedOnePageWithoutBanners() throws {
        let adapter = try QdailyAdapter(options: QdailyTestSupport.options())
        #expect(QdailyAdapter.kind == "qdaily")
        #expect(adapter.feed == .home)
        #expect(adapter.baseURL.absoluteString == "http://app3.qdaily.com")
        #expect(adapter.pages == 1)
        #expect(adapter.includeBanners == false)
        #expect(try adapter.pageURL(key: "0").absoluteString == "http://app3.qdaily.com/app3/homes/index/0.json")
        #expect(
            QdailyAdapter.options.map(\.name) == ["feed", "category_id", "column_id", "base_url", "pages", "include_banners"])
        #expect(QdailyAdapter.options.allSatisfy { !$0.isRequired })
    }

    @Test(arguments: [
        (["feed": OptionValue.string("home")], "1500282425_1500287444", "/app3/homes/index/1500282425_1500287444.json"),
        (["feed": .string("papers")], "1499792446", "/app3/papers/index/1499792446.json"),
        (["feed": .string("category"), "category_id": .integer(1)], "1499810980", "/app3/categories/index/1/1499810980.json"),
        (["feed": .string("column"), "column_id": .integer(57)], "0", "/app3/columns/index/57/0.json"),
        (["feed": .string("home")], "a/b c", "/app3/homes/index/a%2Fb%20c.json"),
    ])
    func eachFeedHasItsPath(values: [String: OptionValue], key: String, path: String) throws {
        let base = try #require(URL(string: "http://127.0.0.1:9/"))
        var values = values
        values["base_url"] = .url(base)
        let adapter = try QdailyAdapter(options: QdailyTestSupport.options(values))
        #expect(try adapter.pageURL(key: key).absoluteString == "http://127.0.0.1:9" + path)
    }

    @Test func aFolderOfSavedResponsesIsABaseURL() throws {
        let folder = URL(fileURLWithPath: "/srv/feeds/samples/qdaily", isDirectory: true)
        let adapter = try QdailyAdapter(options: QdailyTestSupport.options(["base_url": .url(folder)]))
        #expect(try adapter.pageURL(key: "0").path == "/srv/feeds/samples/qdaily/app3/homes/index/0.json")
    }

    @Test(
        arguments: [
            (
                ["feed": OptionValue.string("category")], ["feed": (line: 22, column: 5)],
                "feeds.yaml:22:5: error: source 'qdaily': feed 'category' needs 'category_id' (ids come from /homes/left_sidebar.json, e.g. 1 = 长文章)"
            ),
            (
                ["feed": .string("column")], [:],
                "feeds.yaml:20:5: error: source 'qdaily': feed 'column' needs 'column_id'"
            ),
            (
                ["category_id": .integer(1)], ["category_id": (line: 23, column: 5)],
                "feeds.yaml:23:5: error: source 'qdaily': 'category_id' only applies to feed: category (this source reads feed: home)"
            ),
            (
                ["feed": .string("category"), "category_id": .integer(1), "column_id": .integer(2)], ["column_id": (line: 24, column: 5)],
                "feeds.yaml:24:5: error: source 'qdaily': 'column_id' only applies to feed: column (this source reads feed: category)"
            ),
        ] as [([String: OptionValue], [String: (line: Int, column: Int)], String)])
    func badCombinationsAreLocatedErrors(values: [String: OptionValue], positions: [String: (line: Int, column: Int)], message: String)
        throws
    {
        let options = try QdailyTestSupport.options(values, positions: positions)
        let error = #expect(throws: ConfigError.self) { try QdailyAdapter(options: options) }
        #expect(error?.description == message)
    }
}
