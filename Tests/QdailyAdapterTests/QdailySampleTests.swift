import Foundation
import TestSupport
import Testing

/// The repository's `feeds.yaml` runs its Qdaily source offline on `samples/qdaily` through the
/// real `tributary` binary.
@Suite("Qdaily sample", .serialized)
struct QdailySampleTests {
    private static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    private func copyOfTheDefaultConfiguration() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "tributary-qdaily")
        for name in ["feeds.yaml", "samples"] {
            try FileManager.default.copyItem(
                at: Self.repositoryRoot.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        return folder
    }

    @Test func checkAcceptsTheExample() async throws {
        let folder = try copyOfTheDefaultConfiguration()
        #expect(try folder.read("feeds.yaml").contains("adapter: qdaily"))
        let check = try await TributaryBinary.run(["check"], in: folder.url.path)
        #expect(check.status == 0, "\(check.standardError)")
    }

    @Test func theExampleReadsThreeSamplePages() async throws {
        let folder = try copyOfTheDefaultConfiguration()
        let result = try await TributaryBinary.run(["run", "-q", "-s", "qdaily"], in: folder.url.path)
        #expect(result.status == 0, "\(result.standardError)")
        let data = try Data(contentsOf: folder.url.appendingPathComponent("out/river.json"))
        let items = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["items"] as? [[String: Any]])
        // The real first page (28) and the reconstructed second one (4); the empty third ends the paging.
        #expect(items.count == 32)
        let ids = Set(items.compactMap { $0["id"] as? String })
        // The river's ids: the source's before each item's own, its ':' encoded (a river's ids are unique across sources).
        #expect(
            ids.isSuperset(of: [
                "urn:tributary:qdaily:article%3A43071", "urn:tributary:qdaily:paper%3A1792", "urn:tributary:qdaily:article%3A34990",
                "urn:tributary:qdaily:paper%3A1801",
            ]))
        #expect(items.allSatisfy { ($0["_tributary"] as? [String: Any])?["source"] as? String == "qdaily" })
    }
}
