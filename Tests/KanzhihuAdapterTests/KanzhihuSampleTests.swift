import Foundation
import TestSupport
import Testing
import TributaryJSON

/// The repository's `feeds.yaml` runs the `kanzhihu` source offline on `samples/kanzhihu/`,
/// through the real `tributary` binary.
@Suite("Kanzhihu sample in feeds.yaml")
struct KanzhihuSampleTests {
    private static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test func theSampleSourceChecksAndRunsOffline() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-kanzhihu")
        let root = Self.repositoryRoot
        try FileManager.default.copyItem(at: root.appendingPathComponent("feeds.yaml"), to: folder.url.appendingPathComponent("feeds.yaml"))
        try FileManager.default.copyItem(at: root.appendingPathComponent("samples"), to: folder.url.appendingPathComponent("samples"))

        let check = try await TributaryBinary.run(["check"], in: folder.url.path)
        #expect(check.status == 0, "\(check.standardError)")

        let run = try await TributaryBinary.run(["run", "-s", "kanzhihu", "--format", "json", "-n"], in: folder.url.path)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.standardError.contains("warning"), "\(run.standardError)")
        let river = try JSON.parse(run.standardOutput)
        let items = try #require(river["items"]?.array)
        let urls = Set(items.compactMap { $0["url"]?.string })
        #expect(
            urls == [
                "https://www.zhihu.com/question/24587133/answer/28412345",
                "https://www.zhihu.com/question/39981275/answer/84810011",
                "https://www.zhihu.com/question/20827005/answer/109904175",
                "https://www.zhihu.com/question/40104565/answer/85311234",
            ])
        let shared = try #require(items.first { $0["url"]?.string == "https://www.zhihu.com/question/20827005/answer/109904175" })
        // Beijing time by default: 21:27:11 +08:00.
        #expect(shared["date_published"]?.string == "2016-02-20T13:27:11Z")
        #expect(shared["tags"]?.array?.compactMap(\.string) == ["近日热门", "昨日最新"])
    }
}
