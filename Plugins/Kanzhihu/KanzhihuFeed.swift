/// What a Kanzhihu source reads, as chosen by its `feed` option.
public enum KanzhihuFeed: Sendable, Hashable {
    /// The answers of the daily posts named (`yesterday`, `recent`, `archive`), `days` days back
    /// from the newest post.
    case posts(names: [String], days: Int)
    /// One user's top answers (`userdetail2/{hash}`).
    case user(hash: String)
    /// The users ranked by `metric`, `pages` pages of 50 (`topuser/{metric}/{page}/50`).
    case topUsers(metric: String, pages: Int)

    /// The words of the `feed` option.
    static let words = ["posts", "user", "top_users"]

    /// What `topuser` ranks by: the keys of `userdetail2`'s `detail` object (API doc 0.1.5).
    static let metrics = [
        "agree", "follower", "answer", "ask", "post", "agreei", "agreeiratio", "agreeiw", "agreeiratiow", "ratio",
        "followee", "followeri", "followiratio", "followeriw", "followiratiow", "thanks", "tratio", "fav", "fratio",
        "logs", "mostvote", "mostvotepercent", "mostvote5", "mostvote5percent", "mostvote10", "mostvote10percent",
        "count10000", "count5000", "count2000", "count1000", "count500", "count200", "count100",
    ]
}
