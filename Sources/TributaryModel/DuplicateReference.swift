/// Another item judged to tell the same story, kept on the survivor when duplicates are merged.
public struct DuplicateReference: Sendable, Hashable {
    /// The configured name of the duplicate's source.
    public var source: String
    /// The duplicate's link, when it had one.
    public var url: String?
    /// The duplicate's headline, when it had one.
    public var title: String?

    /// Creates a reference to a merged duplicate.
    public init(source: String, url: String? = nil, title: String? = nil) {
        self.source = source
        self.url = url
        self.title = title
    }
}
