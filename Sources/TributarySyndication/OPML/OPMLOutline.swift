import Foundation

/// One `<outline>` of an OPML subscription list: a feed (it has an `xmlUrl`), a folder (it has
/// children), or both.
public struct OPMLOutline: Sendable, Hashable {
    /// The `text` attribute: what readers show.
    public var text: String?
    /// The `title` attribute, which some exporters use instead of `text`.
    public var title: String?
    /// The `type` attribute (`rss`, `atom`, `link`, …), as written.
    public var type: String?
    /// The feed's address (`xmlUrl`, in any letter case).
    public var xmlURL: String?
    /// The site's address (`htmlUrl`).
    public var htmlURL: String?
    /// Where the outline starts in the document, from 1; 0 for outlines built in code.
    public var line: Int
    /// The nested outlines, in document order.
    public var children: [OPMLOutline]

    /// Creates an outline.
    public init(
        text: String? = nil, title: String? = nil, type: String? = nil, xmlURL: String? = nil, htmlURL: String? = nil, line: Int = 0,
        children: [OPMLOutline] = []
    ) {
        self.text = text
        self.title = title
        self.type = type
        self.xmlURL = xmlURL
        self.htmlURL = htmlURL
        self.line = line
        self.children = children
    }

    /// The name to show: `text`, else `title`, else nil (both empty or absent).
    public var name: String? {
        for candidate in [text, title] {
            if let value = candidate?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty { return value }
        }
        return nil
    }

    /// Whether the outline subscribes to a feed.
    public var isFeed: Bool { !(xmlURL ?? "").isEmpty }
}

/// An OPML document: its title and its top-level outlines.
public struct OPMLDocument: Sendable, Hashable {
    /// The `<head><title>`.
    public var title: String?
    /// The outlines of `<body>`.
    public var outlines: [OPMLOutline]

    /// Creates a document.
    public init(title: String? = nil, outlines: [OPMLOutline] = []) {
        self.title = title
        self.outlines = outlines
    }

    /// Every feed in document order with the names of the folders it sits in, outermost first.
    public var feeds: [(outline: OPMLOutline, folders: [String])] {
        var result: [(OPMLOutline, [String])] = []
        func walk(_ outlines: [OPMLOutline], _ folders: [String]) {
            for outline in outlines {
                if outline.isFeed { result.append((outline, folders)) }
                if !outline.children.isEmpty {
                    // A feed outline with children (rare) is not a folder name for them.
                    walk(outline.children, outline.isFeed ? folders : folders + [outline.name].compactMap { $0 })
                }
            }
        }
        walk(outlines, [])
        return result
    }
}
