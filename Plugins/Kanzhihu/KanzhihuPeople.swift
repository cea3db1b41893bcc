import TributaryJSON
import TributaryModel

/// Zhihu people as Kanzhihu names them: a display name, a 32-hex-digit hash and an avatar.
enum KanzhihuPeople {
    /// The Zhihu profile page of a user hash.
    static func profileURL(hash: String) -> String {
        "https://www.zhihu.com/people/\(hash)"
    }

    /// An author from the API's fields; nil when all are absent or empty.
    static func author(name: JSONValue?, hash: JSONValue?, avatar: JSONValue?) -> Author? {
        let author = Author(
            name: name?.nonEmptyText, url: hash?.nonEmptyText.map(profileURL(hash:)),
            avatar: avatar?.nonEmptyText)
        return author.isEmpty ? nil : author
    }
}
