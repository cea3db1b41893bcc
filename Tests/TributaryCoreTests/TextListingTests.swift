import Foundation
import Testing
import TributaryCore
import TributaryModel

@Suite("Text listing")
struct TextListingTests {
    static let listing = TextListing(now: fixedNow)

    @Test(
        "ages",
        arguments: [
            (nil, "undated"),
            (0, "just now"),
            (-59, "just now"),
            (30, "just now"),  // a little ahead (clock skew) is still now
            (60, "just now"),
            (61, "in the future (2025-06-01)"),
            (3 * 86_400, "in the future (2025-06-04)"),
            (-60, "1 min ago"),
            (-3599, "59 min ago"),
            (-3600, "1 h ago"),
            (-86_399, "23 h ago"),
            (-86_400, "1 day ago"),
            (-172_799, "1 day ago"),
            (-172_800, "2 days ago"),
            (-27 * 86_400, "27 days ago"),
            (-28 * 86_400, "2025-05-04"),
            (-(365 * 86_400 + 30 * 86_400), "2024-05-02"),
        ] as [(TimeInterval?, String)])
    func age(_ offset: TimeInterval?, _ expected: String) {
        #expect(Self.listing.age(of: offset.map(at)) == expected)
    }

    @Test(
        "the title line",
        arguments: [
            ("Hello", nil, "Hello"),
            (nil, "From the summary", "From the summary"),
            ("", "From the summary", "From the summary"),
            (nil, String(repeating: "x", count: 100), String(repeating: "x", count: 80)),
            (nil, nil, "(untitled)"),
            ("", nil, "(untitled)"),
            (nil, "", "(untitled)"),
            ("", "", "(untitled)"),
            ("Line one\nline two\tand three", nil, "Line one line two and three"),
            (nil, "Summary\r\nover lines", "Summary over lines"),
        ] as [(String?, String?, String)])
    func titleLine(_ title: String?, _ summary: String?, _ expected: String) {
        let text = Self.listing.render([Item(id: "1", source: "s", title: title, summary: summary)])
        #expect(text == "1. \(expected)\n   s · undated\n")
    }

    @Test("a small river, whole")
    func smallRiver() {
        let items = [
            Item(id: "1", source: "swift-blog", url: "https://swift.org/blog/6.3", title: "Swift 6.3 released", published: at(-300)),
            Item(
                id: "2", source: "tech-digest", url: "https://example.cn/1", title: "今日要闻", updated: at(-3 * 3600 - 5),
                duplicates: [DuplicateReference(source: "a"), DuplicateReference(source: "b")]),
            Item(id: "3", source: "notes", summary: "A note without a title"),
            Item(id: "4", source: "archive", url: "", title: "Old news", published: at(-60 * 86_400)),
        ]
        #expect(
            Self.listing.render(items) == """
                1. Swift 6.3 released
                   swift-blog · 5 min ago · https://swift.org/blog/6.3
                2. 今日要闻
                   tech-digest · 3 h ago · https://example.cn/1 · +2 similar
                3. A note without a title
                   notes · undated
                4. Old news
                   archive · 2025-04-02

                """)
    }

    @Test("numbers are right-aligned once there are ten items or more")
    func alignment() {
        let items = (1...10).map { Item(id: "\($0)", source: "s", title: "Item \($0)", published: at(Double(-$0 * 60))) }
        let lines = Self.listing.render(items).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 21)
        #expect(Array(lines.prefix(4)) == [" 1. Item 1", "    s · 1 min ago", " 2. Item 2", "    s · 2 min ago"])
        #expect(Array(lines.suffix(3)) == ["10. Item 10", "    s · 10 min ago", ""])
    }

    @Test("an empty river says so")
    func empty() {
        #expect(Self.listing.render([]) == "(no items)\n")
    }
}
