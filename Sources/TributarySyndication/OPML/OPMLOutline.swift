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
    /// What Tributary wrote of the source behind a feed outline (attributes in ``tributaryNamespace``); nil when the
    /// outline has none, as in every other reader's lists.
    public var source: SourceAttributes?
    /// The nested outlines, in document order.
    public var children: [OPMLOutline]

    /// The namespace of Tributary's own outline attributes (`tributary:name`, `tributary:adapter`,
    /// `tributary:enabled`), which carry what OPML has no attribute for through an export and an import.
    public static let tributaryNamespace = "urn:tributary:opml"

    /// A source's settings that OPML has no attribute for: its exact name, its adapter, whether it is enabled.
    public struct SourceAttributes: Sendable, Hashable {
        /// The source's name (`tributary:name`), as configured.
        public var name: String?
        /// The source's adapter kind (`tributary:adapter`).
        public var adapter: String?
        /// Whether the source is enabled (`tributary:enabled`); nil when not said.
        public var enabled: Bool?

        /// Creates the attributes.
        public init(name: String? = nil, adapter: String? = nil, enabled: Bool? = nil) {
            self.name = name
            self.adapter = adapter
            self.enabled = enabled
        }
    }

    /// Creates an outline.
    public init(
        text: String? = nil, title: String? = nil, type: String? = nil, xmlURL: String? = nil, htmlURL: String? = nil, line: Int = 0,
        source: SourceAttributes? = nil, children: [OPMLOutline] = []
    ) {
        self.text = text
        self.title = title
        self.type = type
        self.xmlURL = xmlURL
        self.htmlURL = htmlURL
        self.line = line
        self.source = source
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
