import Testing
import TributaryModel

@testable import TributaryCore

/// The prefetch hints ask for the right memory: a hint at a wrong address would cost nothing but help nothing, so
/// only a test notices when the strings' representation moves.
@Suite("Prefetch hints")
struct PrefetchTests {
    @Test("The address read from a string's representation is where its UTF-8 starts; small strings have none")
    func stringBytes() {
        let texts: [String?] = [
            String(repeating: "长标题 long title ", count: 20), "A headline that is longer than fifteen bytes",
            String(decoding: Array(repeating: UInt8(ascii: "x"), count: 100), as: UTF8.self),
        ]
        for text in texts {
            var text = text
            let expected = text!.withUTF8 { UnsafeRawPointer($0.baseAddress) }
            let found = withUnsafePointer(to: &text) { Prefetch.bytes(ofStringAt: UnsafeRawPointer($0)) }
            #expect(found == expected, "\(text!.prefix(20))")
        }
        for small: String? in ["short", "", "短", nil] {
            let found = withUnsafePointer(to: small) { Prefetch.bytes(ofStringAt: UnsafeRawPointer($0)) }
            #expect(found == nil)
        }
    }

    @Test("An item's texts, tags and metrics are found where the item keeps them")
    func itemFields() {
        let items = [
            Item(
                id: "1", source: "s", url: "https://example.com/a-link-long-enough", title: "A title long enough to be large",
                summary: String(repeating: "摘要 ", count: 30), tags: ["科技", "a tag"], metrics: ["comments": 3, "likes": 12]),
            Item(id: "2", source: "s", url: "https://e.com/", title: nil),
        ]
        for var item in items {
            let found = withUnsafePointer(to: item) { Prefetch.textBytes(of: $0) }
            let title = item.title?.withUTF8 { UnsafeRawPointer($0.baseAddress) }
            let summary = item.summary?.withUTF8 { UnsafeRawPointer($0.baseAddress) }
            let url = item.url?.withUTF8 { UnsafeRawPointer($0.baseAddress) }
            #expect(found.title == (item.title.map { $0.utf8.count > 15 } == true ? title : nil))
            #expect(found.summary == (item.summary.map { $0.utf8.count > 15 } == true ? summary : nil))
            #expect(found.url == (item.url.map { $0.utf8.count > 15 } == true ? url : nil))
            let storage = withUnsafePointer(to: item) { Prefetch.metricsStorage(of: $0) }
            #expect(storage == unsafeBitCast(item.metrics, to: UInt.self))
            let tags = withUnsafePointer(to: item) { Prefetch.tagsStorage(of: $0) }
            let firstTag = item.tags.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            if !item.tags.isEmpty { #expect(tags &+ 32 == firstTag, "the elements 32 bytes into the storage") }
        }
    }
}
