/// A person or organisation credited with an item or a feed.
public struct Author: Sendable, Hashable {
    /// The display name.
    public var name: String?
    /// A page about the author (profile, homepage) or a `mailto:` URL.
    public var url: String?
    /// An avatar image.
    public var avatar: String?

    /// Creates an author; at least one field should be present.
    public init(name: String? = nil, url: String? = nil, avatar: String? = nil) {
        self.name = name
        self.url = url
        self.avatar = avatar
    }

    /// Whether every field is absent or empty.
    public var isEmpty: Bool {
        (name ?? "").isEmpty && (url ?? "").isEmpty && (avatar ?? "").isEmpty
    }
}
