import TributaryModel

/// An item's attachments as a document lists them: one per URL, the first mention's fields kept
/// and the later ones filling those it lacks (an `enclosure` and a `media:content` for the same
/// file; a JSON Feed that lists a file twice). A new URL past `FeedParser.maxAttachmentsPerItem`
/// is left out, and `leftOut` says so.
struct AttachmentList {
    /// The attachments kept, in the order their URLs first came.
    private(set) var all: [Attachment] = []
    /// Whether an attachment was left out for `FeedParser.maxAttachmentsPerItem`.
    private(set) var leftOut = false
    /// The index in `all` of each URL, built once there are more than `searchLimit`: up to then
    /// the array is searched, and an item with one enclosure, the common case, allocates no
    /// table; past it a search made an item with n attachments cost n²/2 comparisons (62,500
    /// enclosures took 8 s).
    private var index: [String: Int] = [:]
    /// Up to how many attachments the array is searched instead of a table.
    static let searchLimit = 16

    /// Adds an attachment, or merges it into the one with its URL; one without a URL is ignored.
    mutating func add(_ attachment: Attachment) {
        guard !attachment.url.isEmpty else { return }
        let known = all.count <= Self.searchLimit ? all.firstIndex { $0.url == attachment.url } : index[attachment.url]
        if let known {
            if all[known].mimeType.isEmpty { all[known].mimeType = attachment.mimeType }
            if all[known].sizeInBytes == nil { all[known].sizeInBytes = attachment.sizeInBytes }
            if all[known].durationInSeconds == nil { all[known].durationInSeconds = attachment.durationInSeconds }
            if all[known].title == nil { all[known].title = attachment.title }
        } else if all.count >= FeedParser.maxAttachmentsPerItem {
            leftOut = true
        } else {
            all.append(attachment)
            if all.count > Self.searchLimit {
                if index.isEmpty {
                    for (position, kept) in all.enumerated() { index[kept.url] = position }
                } else {
                    index[attachment.url] = all.count - 1
                }
            }
        }
    }
}
