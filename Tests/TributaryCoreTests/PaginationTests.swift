import Testing
import TributaryCore
import TributaryModel

@Suite("Pagination")
struct PaginationTests {
    /// A fake API: page `n` holds the given ids and points at the given next cursor.
    struct Book: Sendable {
        var pages: [Int: (ids: [String], next: Int?)]

        func page(_ cursor: Int) throws -> Pagination.Page<Int> {
            guard let page = pages[cursor] else { throw AdapterError("no page \(cursor)") }
            return Pagination.Page(items: page.ids.map { Item(id: $0, source: "s") }, next: page.next)
        }
    }

    @Test(
        arguments: [
            (
                "follows cursors to the page limit", [0: (["a", "b"], 1), 1: (["c"], 2), 2: (["d"], 3)], 3, nil, ["a", "b", "c", "d"],
                Pagination.Stop.pageLimit, 3
            ),
            ("stops when there is no next cursor", [0: (["a"], 1), 1: (["b"], nil)], 10, nil, ["a", "b"], .noMore, 2),
            ("stops at an empty page", [0: (["a"], 1), 1: ([], 2)], 10, nil, ["a"], .emptyPage, 2),
            ("stops at a repeated cursor", [0: (["a"], 1), 1: (["b"], 0)], 10, nil, ["a", "b"], .repeatedCursor, 2),
            (
                "drops overlapping items and stops when nothing is new", [0: (["a", "b"], 1), 1: (["b", "c"], 2), 2: (["c"], 3)], 10, nil,
                ["a", "b", "c"], .nothingNew, 3
            ),
            ("stops at the item limit", [0: (["a", "b"], 1), 1: (["c", "d"], 2)], 10, 3, ["a", "b", "c"], .itemLimit, 2),
            ("one page by default", [0: (["a"], 1), 1: (["b"], 2)], 1, nil, ["a"], .pageLimit, 1),
        ] as [(String, [Int: ([String], Int?)], Int, Int?, [String], Pagination.Stop, Int)])
    func stops(
        _ name: String, _ pages: [Int: ([String], Int?)], _ limit: Int, _ maxItems: Int?, _ ids: [String], _ stop: Pagination.Stop,
        _ read: Int
    ) async throws {
        let book = Book(pages: pages.mapValues { (ids: $0.0, next: $0.1) })
        let result = try await Pagination.collect(first: 0, pages: limit, maxItems: maxItems) { try book.page($0) }
        #expect(result.items.map(\.id) == ids, "\(name)")
        #expect(result.stop == stop, "\(name)")
        #expect(result.pagesRead == read, "\(name)")
    }

    @Test func anItemReadAgainIsMergedIntoTheCopyKeptOnThisPageOrAnEarlierOne() async throws {
        let pages: [Int: Pagination.Page<Int>] = [
            0: Pagination.Page(
                items: [Item(id: "a", source: "s", tags: ["x"]), Item(id: "b", source: "s"), Item(id: "a", source: "s", tags: ["y"])],
                next: 1),
            1: Pagination.Page(items: [Item(id: "c", source: "s"), Item(id: "a", source: "s", title: "old", tags: ["z"])], next: nil),
        ]
        let mergeTags: (inout Item, Item) -> Void = { kept, repeated in kept.tags += repeated.tags }
        let result = try await Pagination.collect(first: 0, pages: 5, merge: mergeTags) { try #require(pages[$0]) }
        #expect(
            result.items == [Item(id: "a", source: "s", tags: ["x", "y", "z"]), Item(id: "b", source: "s"), Item(id: "c", source: "s")])
        #expect(result.stop == .noMore)
        let dropped = try await Pagination.collect(first: 0, pages: 5) { try #require(pages[$0]) }
        #expect(dropped.items == [Item(id: "a", source: "s", tags: ["x"]), Item(id: "b", source: "s"), Item(id: "c", source: "s")])
    }

    @Test func aFailingFirstPageFailsAndALaterOneKeepsWhatWasRead() async throws {
        let book = Book(pages: [0: (["a"], 1)])
        let result = try await Pagination.collect(first: 0, pages: 5) { try book.page($0) }
        #expect(result.items.map(\.id) == ["a"])
        #expect(result.problems.map(\.message) == ["page 2 failed, keeping the first 1: no page 1"])
        await #expect(throws: AdapterError.self) {
            _ = try await Pagination.collect(first: 7, pages: 5) { try book.page($0) }
        }
    }
}
