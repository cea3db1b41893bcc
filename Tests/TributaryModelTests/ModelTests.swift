import Foundation
import Testing
import TributaryModel

@Suite("Item model")
struct ModelTests {
    /// The digests are part of item identity: changing them re-emits every derived id as new.
    @Test(arguments: [
        ([""], "af63d24c8601db8e"),  // computed independently (Python, FNV-1a 64)
        (["https://example.org/a", "Title"], "3033215ca91114d6"),
        (["标题", "https://例子.example/a"], "a7f11bf233f97b73"),  // UTF-8 bytes, part by part
    ])
    func stableIDIsPinned(_ parts: [String], _ expected: String) {
        #expect(StableID.digest(parts) == expected)
        #expect(StableID.digest(parts).count == 16)
    }

    @Test func stableIDSeparatesParts() {
        #expect(StableID.digest("ab", "c") != StableID.digest("a", "bc"))
        #expect(StableID.digest("a") != StableID.digest("a", ""))
        #expect(StableID.digest("标题", "链接") == StableID.digest(["标题", "链接"]))
        #expect(StableID.schemeVersion == 2)
    }

    @Test func dateFallsBackToUpdated() {
        let published = Date(timeIntervalSince1970: 1_000)
        let updated = Date(timeIntervalSince1970: 2_000)
        #expect(Item(id: "a", source: "s", published: published, updated: updated).date == published)
        #expect(Item(id: "a", source: "s", updated: updated).date == updated)
        #expect(Item(id: "a", source: "s").date == nil)
    }

    @Test func authorEmptiness() {
        #expect(Author().isEmpty)
        #expect(Author(name: "", url: "").isEmpty)
        #expect(!Author(avatar: "https://example.org/a.png").isEmpty)
    }

    @Test(arguments: [
        (Problem(.warning, "undeclared entity 'nbsp'", line: 3, column: 14), "3:14: warning: undeclared entity 'nbsp'"),
        (Problem(.error, "item 2 skipped", line: 7), "7: error: item 2 skipped"),
        (Problem(.warning, "no version"), "warning: no version"),
    ])
    func problemDescription(_ problem: Problem, _ expected: String) {
        #expect(problem.description == expected)
    }

    @Test(arguments: [
        (ExtraValue.string("three_images"), "three_images"), (.int(42), "42"), (.bool(true), "true"), (.double(0.5), "0.5"),
    ])
    func extraValueText(_ value: ExtraValue, _ expected: String) {
        #expect(value.description == expected)
    }
}
