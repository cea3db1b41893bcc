/// A file related to an item: a podcast episode, a video, an image (JSON Feed `attachments`).
public struct Attachment: Sendable, Hashable {
    /// Where the file is.
    public var url: String
    /// Its MIME type, e.g. `audio/mpeg`; empty when unknown.
    public var mimeType: String
    /// A name for it, when the source gives one.
    public var title: String?
    /// Its size in bytes, when known.
    public var sizeInBytes: Int?
    /// Its playing time in seconds, when known.
    public var durationInSeconds: Int?

    /// Creates an attachment.
    public init(
        url: String, mimeType: String = "", title: String? = nil, sizeInBytes: Int? = nil,
        durationInSeconds: Int? = nil
    ) {
        self.url = url
        self.mimeType = mimeType
        self.title = title
        self.sizeInBytes = sizeInBytes
        self.durationInSeconds = durationInSeconds
    }
}
