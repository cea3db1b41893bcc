/// A person or organisation credited with an item or a feed.
public struct Author: Sendable, Hashable {
    /// The display name.
    public var name: String?
    /// A page about the author (profile, homepage) or a `mailto:` URL.
    public var url: String?
    /// An avatar image.
    public var avatar: String?
    /// The e-mail address of an author whose `url` is a page (Atom's `uri` and `email` both); an
    /// author known only by an address has it as a `mailto:` `url`, as JSON Feed writes it.
    public var email: String?

    /// Creates an author; at least one field should be present.
    public init(name: String? = nil, url: String? = nil, avatar: String? = nil, email: String? = nil) {
        self.name = name
        self.url = url
        self.avatar = avatar
        self.email = email
    }

    /// Whether every field is absent or empty.
    public var isEmpty: Bool {
        (name ?? "").isEmpty && (url ?? "").isEmpty && (avatar ?? "").isEmpty && (email ?? "").isEmpty
    }

    /// The e-mail address: `email`, else that of a `mailto:` `url`.
    public var emailAddress: String? {
        if let email, !email.isEmpty { return email }
        guard let url, url.utf8.count > 7, url.prefix(7).lowercased() == "mailto:" else { return nil }
        return String(url.dropFirst(7))
    }
}
