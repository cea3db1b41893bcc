import Foundation
import TributaryModel

/// The feed-level metadata while the document is read.
struct FeedDraft {
    var title: String?
    var fallbackTitle: String?
    /// The home page, and (kept in step) its URL as a base for references nothing else resolves.
    var homePage: String? {
        didSet { homePageURL = homePage.flatMap { FeedText.hasScheme($0) ? URL(string: $0) : nil } }
    }
    private(set) var homePageURL: URL?
    var selfLink: String?
    var description: String?
    var fallbackDescription: String?
    /// The feed's authors and its lower-ranked ones (`dc:creator`, `itunes:author`), each once.
    private(set) var authors: [Author] = []
    private(set) var fallbackAuthors: [Author] = []
    /// The members of `authors` and `fallbackAuthors`, looked up in O(1) (a search of the arrays
    /// cost n²/2 comparisons for n authors).
    private var authorSet: Set<Author> = []
    private var fallbackAuthorSet: Set<Author> = []
    /// Whether an author was left out for `FeedParser.maxAuthors`.
    private(set) var authorsLeftOut = false
    var rssImage: String?
    var logo: String?
    var icon: String?
    var itunesImage: String?
    var language: String?
    var xmlLanguage: String?
    var updated: Date?
    /// The Atom feed's `id`.
    var id: String?

    /// Adds an author unless it is empty or an equal one is kept already; a new one past
    /// `FeedParser.maxAuthors` is left out.
    mutating func addAuthor(_ author: Author, fallback: Bool) {
        guard !author.isEmpty, !(fallback ? fallbackAuthorSet : authorSet).contains(author) else { return }
        guard (fallback ? fallbackAuthors : authors).count < FeedParser.maxAuthors else {
            authorsLeftOut = true
            return
        }
        if fallback {
            fallbackAuthorSet.insert(author)
            fallbackAuthors.append(author)
        } else {
            authorSet.insert(author)
            authors.append(author)
        }
    }

    /// The finished metadata.
    func info(documentURL: URL?) -> FeedInfo {
        FeedInfo(
            title: title ?? fallbackTitle,
            homePageURL: homePage,
            // The document's URL stands for a feed that names none, without the credentials it was fetched with.
            feedURL: selfLink ?? documentURL.map { URLSecrets.withoutSecrets($0.absoluteString) },
            description: description ?? fallbackDescription,
            authors: authors.isEmpty ? fallbackAuthors : authors,
            icon: rssImage ?? logo ?? itunesImage,
            favicon: icon,
            language: language ?? xmlLanguage,
            updated: updated, id: id)
    }
}
