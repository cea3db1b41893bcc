public import Foundation

/// What a source says about itself: the feed-level metadata of RSS, Atom and JSON Feed.
public struct FeedInfo: Sendable, Hashable {
    /// The feed's title.
    public var title: String?
    /// The site the feed belongs to (RSS `link`, Atom `link rel=alternate`, JSON Feed `home_page_url`).
    public var homePageURL: String?
    /// Where the feed itself lives (Atom `link rel=self`, JSON Feed `feed_url`).
    public var feedURL: String?
    /// A plain-text description or subtitle.
    public var description: String?
    /// The feed's authors.
    public var authors: [Author]
    /// A large square image for the feed (JSON Feed `icon`, Atom `logo`, RSS `image`).
    public var icon: String?
    /// A small image for the feed (JSON Feed `favicon`, Atom `icon`).
    public var favicon: String?
    /// The primary language, as a BCP 47 tag such as `zh-CN`.
    public var language: String?
    /// When the feed last changed.
    public var updated: Date?
    /// The feed's own permanent identifier (Atom `id`), which an Atom `<source>` names it by.
    public var id: String?

    /// Creates feed metadata; every field is optional.
    public init(
        title: String? = nil, homePageURL: String? = nil, feedURL: String? = nil, description: String? = nil,
        authors: [Author] = [], icon: String? = nil, favicon: String? = nil, language: String? = nil,
        updated: Date? = nil, id: String? = nil
    ) {
        self.title = title
        self.homePageURL = homePageURL
        self.feedURL = feedURL
        self.description = description
        self.authors = authors
        self.icon = icon
        self.favicon = favicon
        self.language = language
        self.updated = updated
        self.id = id
    }
}
