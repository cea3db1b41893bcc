public import TributaryModel

/// The pagination loop every paged API adapter needs, written once: follow a cursor page by
/// page, stop at the first of `pages` pages, no next cursor, an empty page, a cursor seen before
/// (a server that loops), no new items, or enough items; drop items already seen in this run
/// (batches overlap), or merge them into the copy kept.
public enum Pagination {
    /// One page as an adapter read it.
    public struct Page<Cursor: Hashable & Sendable>: Sendable {
        /// The page's items, in order.
        public var items: [Item]
        /// The cursor of the next page; nil when the API says there is none.
        public var next: Cursor?
        /// Problems met on this page (skipped items and the like).
        public var problems: [Problem]

        /// Creates a page.
        public init(items: [Item], next: Cursor?, problems: [Problem] = []) {
            self.items = items
            self.next = next
            self.problems = problems
        }
    }

    /// Why the loop stopped, for logs and tests.
    public enum Stop: Sendable, Hashable {
        /// `pages` pages were read.
        case pageLimit
        /// The API gave no next cursor (`has_more: false` and the like).
        case noMore
        /// A page had no items.
        case emptyPage
        /// The next cursor had been used already.
        case repeatedCursor
        /// A page had only items seen on earlier pages.
        case nothingNew
        /// `maxItems` items were collected.
        case itemLimit
    }

    /// What the loop collected.
    public struct Result: Sendable {
        /// The items, first page first, without repeats.
        public var items: [Item]
        /// Every page's problems.
        public var problems: [Problem]
        /// How many pages were fetched.
        public var pagesRead: Int
        /// Why it stopped.
        public var stop: Stop
    }

    /// Reads pages from `first` on; `fetch` throws to fail the source (a first page that fails),
    /// and a later page that fails ends the loop with what was read, reported as a problem.
    ///
    /// An item whose id was read before, on this page or an earlier one, is dropped; with `merge`,
    /// it is first merged into the copy kept (the one read first): `merge(&kept, repeated)`.
    ///
    /// A cursor is not fetched when its `identity` was fetched before: by default the cursor itself; an adapter whose
    /// cursors carry more than the request (a page number beside the link) gives the request it makes.
    public static func collect<Cursor: Hashable & Sendable>(
        first: Cursor, pages: Int, maxItems: Int? = nil, merge: ((inout Item, Item) -> Void)? = nil,
        identity: ((Cursor) -> AnyHashable)? = nil, fetch: (Cursor) async throws -> Page<Cursor>
    ) async throws -> Result {
        let identity = identity ?? { AnyHashable($0) }
        var items: [Item] = []
        var positions: [String: Int] = [:]
        var seenCursors: Set<AnyHashable> = [identity(first)]
        var problems: [Problem] = []
        var cursor = first
        var pagesRead = 0
        while true {
            let page: Page<Cursor>
            do {
                page = try await fetch(cursor)
            } catch {
                guard pagesRead > 0 else { throw error }
                problems.append(Problem(.error, "page \(pagesRead + 1) failed, keeping the first \(pagesRead): \(error)"))
                return Result(items: items, problems: problems, pagesRead: pagesRead, stop: .noMore)
            }
            pagesRead += 1
            problems += page.problems
            var fresh = 0
            for item in page.items {
                if let position = positions[item.id] {
                    merge?(&items[position], item)
                } else {
                    positions[item.id] = items.count
                    items.append(item)
                    fresh += 1
                }
            }
            if let maxItems, items.count >= maxItems {
                return Result(items: Array(items.prefix(maxItems)), problems: problems, pagesRead: pagesRead, stop: .itemLimit)
            }
            let stop: Stop? =
                if page.items.isEmpty { .emptyPage } else if fresh == 0 { .nothingNew } else if pagesRead >= pages {
                    .pageLimit
                } else if page.next == nil { .noMore } else if let next = page.next, seenCursors.contains(identity(next)) {
                    .repeatedCursor
                } else {
                    nil
                }
            if let stop { return Result(items: items, problems: problems, pagesRead: pagesRead, stop: stop) }
            guard let next = page.next else { return Result(items: items, problems: problems, pagesRead: pagesRead, stop: .noMore) }
            seenCursors.insert(identity(next))
            cursor = next
        }
    }
}
