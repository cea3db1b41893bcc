import Foundation
import TestSupport
import Testing
import TributaryCore
import TributaryHTTP

@Suite("File fetcher")
struct FileFetcherTests {
    @Test func readsAFile() async throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("{\"version\":1}", to: "feed.json")
        let response = try await FileFetcher().fetch(FetchRequest(url: URL(fileURLWithPath: path)))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"version\":1}")
        #expect(response.url.path == path)
    }

    @Test func aFileAtTheLimitIsRead() async throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write(String(repeating: "x", count: 100), to: "exact.txt")
        let response = try await FileFetcher().fetch(FetchRequest(url: URL(fileURLWithPath: path), maxBytes: 100))
        #expect(response.body.count == 100)
    }

    @Test("a file is read whole up to its limit, and refused one byte over it")
    func bytesUpToTheLimit() throws {
        let folder = try TemporaryDirectory()
        for count in [0, 1, 100, 70_000] {
            let path = try folder.write(String(repeating: "x\u{4E2D}", count: count), to: "file\(count).txt")
            let contents = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(contents.count == 4 * count)
            for limit in [nil, 100, 4 * count, 4 * count - 1] where limit ?? 0 >= 0 {
                let request = FetchRequest(url: URL(fileURLWithPath: path), maxBytes: limit)
                if contents.count <= limit ?? Int.max {
                    #expect(try FileFetcher().bytes(request) == Array(contents), "\(count) \(String(describing: limit))")
                } else {
                    #expect(throws: FetchError(url: path, reason: .tooLarge(limit: limit ?? 0))) { try FileFetcher().bytes(request) }
                }
            }
        }
    }

    @Test("a file that reports no size (in /proc) is read to its end")
    func fileWithoutASize() throws {
        let bytes = try FileFetcher().bytes(FetchRequest(url: URL(fileURLWithPath: "/proc/self/status")))
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("Name:"))
        #expect(bytes.last == 0x0A)
    }

    @Test(arguments: [
        ("missing", "cannot read file: no such file"),
        ("folder", "cannot read file: it is a folder"),
        ("large", "response larger than the limit of 1 KB"),
    ])
    func failures(_ kind: String, _ message: String) async throws {
        let folder = try TemporaryDirectory()
        try folder.write(String(repeating: "x", count: 1025), to: "large")
        try FileManager.default.createDirectory(atPath: folder.path("folder"), withIntermediateDirectories: true)
        let path = folder.path(kind)
        await #expect(throws: FetchError.self) {
            _ = try await FileFetcher().fetch(FetchRequest(url: URL(fileURLWithPath: path), maxBytes: 1024))
        }
        do {
            _ = try await FileFetcher().fetch(FetchRequest(url: URL(fileURLWithPath: path), maxBytes: 1024))
        } catch {
            #expect(error.description == "\(path): \(message)")
        }
    }

    @Test func httpIsNotAFile() async throws {
        let request = FetchRequest(url: try #require(URL(string: "http://127.0.0.1:1/feed")))
        do {
            _ = try await FileFetcher().fetch(request)
            Issue.record("an http URL must not be read as a file")
        } catch {
            #expect(error.reason == .unsupportedScheme("http"))
        }
    }
}
