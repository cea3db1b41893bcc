public import Foundation

/// One entry of the river: an article, post, answer or episode, whatever its source speaks.
///
/// Every adapter produces `Item`s and every sink consumes them. Items are plain values: the
/// pipeline copies and changes them, never shares them. URLs are kept as text (absolute URLs as
/// the source gave them after resolution) because real feeds carry URLs that `URL` rejects.
public struct Item: Sendable, Hashable {
    /// A stable identifier, unique within its source and never empty: the same article gives the
    /// same id on every run. Adapters choose it; `StableID` derives one when a source has none.
    public var id: String
    /// The item's own page (JSON Feed `url`, Atom `link rel=alternate`).
    public var url: String?
    /// The headline, plain text.
    public var title: String?
    /// A short plain-text summary (no markup).
    public var summary: String?
    /// The full content as sanitized HTML.
    public var contentHTML: String?
    /// The main image (JSON Feed `image`).
    public var image: String?
    /// The page elsewhere that the item is about, when that is not its own page: a linkblog's link (JSON Feed
    /// `external_url`, written to Atom as `link rel="related"`).
    public var externalURL: String?
    /// Who wrote it, in the order the source lists them.
    public var authors: [Author]
    /// When it was first published, as an instant (shown in UTC).
    public var published: Date?
    /// When it was last changed, as an instant (shown in UTC).
    public var updated: Date?
    /// Tags or categories, in source order, without duplicates.
    public var tags: [String]
    /// Enclosures and media: audio, video, images.
    public var attachments: [Attachment]
    /// The configured name of the source that produced the item.
    public var source: String
    /// Named engagement counts the source offers, e.g. `comments`, `likes`, `votes`, `shares`.
    public var metrics: [String: Int]
    /// Adapter-specific values, e.g. Toutiao's picture layout or a "pinned" flag.
    public var extras: [String: ExtraValue]
    /// Items from other sources (or the same one) judged to be the same story and merged into this one.
    public var duplicates: [DuplicateReference]
    /// The ranking score, when the ranking stage computed one.
    public var score: Double?

    /// Creates an item; only `id` and `source` are required.
    public init(
        id: String,
        source: String,
        url: String? = nil,
        title: String? = nil,
        summary: String? = nil,
        contentHTML: String? = nil,
        image: String? = nil,
        externalURL: String? = nil,
        authors: [Author] = [],
        published: Date? = nil,
        updated: Date? = nil,
        tags: [String] = [],
        attachments: [Attachment] = [],
        metrics: [String: Int] = [:],
        extras: [String: ExtraValue] = [:],
        duplicates: [DuplicateReference] = [],
        score: Double? = nil
    ) {
        self.id = id
        self.source = source
        self.url = url
        self.title = title
        self.summary = summary
        self.contentHTML = contentHTML
        self.image = image
        self.externalURL = externalURL
        self.authors = authors
        self.published = published
        self.updated = updated
        self.tags = tags
        self.attachments = attachments
        self.metrics = metrics
        self.extras = extras
        self.duplicates = duplicates
        self.score = score
    }

    /// The date to sort and display by: `published`, else `updated`.
    public var date: Date? { published ?? updated }
}
