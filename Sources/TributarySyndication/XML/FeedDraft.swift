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
    var authors: [Author] = []
    var fallbackAuthors: [Author] = []
    var rssImage: String?
    var logo: String?
    var icon: String?
    var itunesImage: String?
    var language: String?
    var xmlLanguage: String?
    var updated: Date?

    mutating func addAuthor(_ author: Author, fallback: Bool) {
        guard !author.isEmpty else { return }
        if fallback {
            if !fallbackAuthors.contains(author) { fallbackAuthors.append(author) }
        } else if !authors.contains(author) {
            authors.append(author)
        }
    }

    /// The finished metadata.
    func info(documentURL: URL?) -> FeedInfo {
        FeedInfo(
            title: title ?? fallbackTitle,
            homePageURL: homePage,
            feedURL: selfLink ?? documentURL?.absoluteString,
            description: description ?? fallbackDescription,
            authors: authors.isEmpty ? fallbackAuthors : authors,
            icon: rssImage ?? logo ?? itunesImage,
            favicon: icon,
            language: language ?? xmlLanguage,
            updated: updated)
    }
}
