import Foundation
import TestSupport
import Testing
import TributaryJSON

/// The repository's `feeds.yaml` example runs the Toutiao adapter offline on `samples/toutiao`
/// through the real `tributary` binary.
@Suite("Toutiao in feeds.yaml")
struct ToutiaoEndToEndTests {
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test func theExampleChecksAndRunsOnTheSamples() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-toutiao")
        for name in ["feeds.yaml", "samples"] {
            try FileManager.default.copyItem(
                at: Self.repositoryRoot.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        let check = try await TributaryBinary.run(["check"], in: folder.url.path)
        #expect(check.status == 0, "\(check.standardError)")

        let run = try await TributaryBinary.run(["run", "-s", "toutiao", "--format", "json", "-n"], in: folder.url.path)
        #expect(run.status == 0, "\(run.standardError)")
        let feed = try JSON.parse(run.standardOutput)
        let items = feed["items"]?.array ?? []
        // The river's ids: the source's before each item's own (a river's ids are unique across sources).
        #expect(
            Set(items.compactMap { $0["id"]?.string }) == [
                "urn:tributary:toutiao:6462594562829140237", "urn:tributary:toutiao:6350173447209304321",
                "urn:tributary:toutiao:6350169876543210987", "urn:tributary:toutiao:6350160001234567890",
                "urn:tributary:toutiao:6350155554321098765",
            ])
        #expect(items.allSatisfy { $0["_tributary"]?["source"]?.string == "toutiao" })
    }
}
