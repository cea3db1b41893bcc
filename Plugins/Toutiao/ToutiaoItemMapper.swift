import Foundation
import TributaryJSON
import TributaryModel
import TributarySyndication

/// Turns one decoded `content` object of the feed into an `Item` (source-apis.md §2.4).
///
/// The choices: the link is `article_url` (the publisher's own page, so the story merges with
/// the publisher's feed), else `display_url`, `url`, `share_url` (without the `iid`/`app`
/// tracking parameters) or a live card's `share_info.source_url`; Toutiao's own page goes into
/// the `toutiao_url` extra when it differs. `publish_time` is Unix seconds and 0 means unknown.
struct ToutiaoItemMapper: Sendable {
    /// The configured source name the items carry.
    var sourceName: String

    /// The counts Toutiao gives and the metric names they become.
    static let metricFields: [(field: String, metric: String)] = [
        ("comment_count", "comments"), ("digg_count", "likes"), ("bury_count", "dislikes"), ("read_count", "reads"),
        ("share_count", "shares"), ("repin_count", "saves"),
    ]

    /// Live cards give `start_time` as `yyyy-MM-dd HH:mm:ss` in Beijing time.
    private static let beijing = DateParser(timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)

    /// The item, or nil when the cell has no id, link or title to name it by.
    func map(_ content: JSONValue) -> Item? {
        let kind = ToutiaoKind.of(content)
        let pictures = ToutiaoPictures.of(content)
        let url = link(content)
        let title = content.firstText([["title"], ["question", "title"]]) ?? (content["content"]?.string).flatMap(Self.headline)
        guard let id = ToutiaoExactID.of(content) ?? fallbackID(url: url, title: title) else { return nil }

        var item = Item(id: id, source: sourceName, url: url, title: title)
        item.summary = content.firstText([
            ["abstract"], ["content"], ["answer", "abstract"], ["description"], ["share_info", "description"],
        ])
        item.image = pictures.images.first
        item.authors = Self.author(content).map { [$0] } ?? []
        item.published = Self.published(content)
        item.tags = Self.tags(content["keywords"]?.string ?? "")
        item.attachments = Self.videos(content) + pictures.images.map { Attachment(url: $0, mimeType: ToutiaoImage.pictureType(of: $0)) }
        item.metrics = Self.metrics(content)
        item.extras = extras(content, kind: kind, layout: pictures.layout, url: url)
        return item
    }

    /// The link the item points at (see the type's comment for the order).
    func link(_ content: JSONValue) -> String? {
        for field in ["article_url", "display_url", "url"] {
            if let url = content[field]?.string.flatMap(ToutiaoImage.httpURL) { return url }
        }
        if let share = content["share_url"]?.string.flatMap(ToutiaoImage.httpURL) { return Self.withoutTracking(share) }
        return content["share_info"]?["source_url"]?.string.flatMap(ToutiaoImage.httpURL)
    }

    private func fallbackID(url: String?, title: String?) -> String? {
        guard url != nil || title != nil else { return nil }
        return StableID.digest("toutiao", url ?? "", title ?? "")
    }

    private func extras(_ content: JSONValue, kind: ToutiaoKind, layout: ToutiaoLayout, url: String?) -> [String: ExtraValue] {
        var extras: [String: ExtraValue] = [
            "layout": .string(layout.rawValue), "kind": .string(kind.rawValue), "pinned": .bool(ToutiaoKind.isPinned(content)),
            "ad": .bool(kind == .ad),
        ]
        if let behot = content.positiveInt("behot_time") { extras["behot_time"] = .int(behot) }
        if let cellType = content["cell_type"]?.int { extras["cell_type"] = .int(cellType) }
        if let channel = content["tag"]?.nonEmptyText { extras["channel"] = .string(channel) }
        if let label = content["label"]?.nonEmptyText { extras["label"] = .string(label) }
        if let count = content.positiveInt("gallary_image_count") { extras["gallery_images"] = .int(count) }
        if let videoID = content.firstText([["video_id"], ["video_detail_info", "video_id"]]) { extras["video_id"] = .string(videoID) }
        if let duration = content.positiveInt("video_duration") { extras["video_duration"] = .int(duration) }
        if let channelID = content["action_extra"]?.nestedObject?["channel_id"]?.int { extras["channel_id"] = .int(channelID) }
        if let page = content["display_url"]?.string.flatMap(ToutiaoImage.httpURL), page != url { extras["toutiao_url"] = .string(page) }
        return extras
    }

    /// The publisher (`media_info`, else `source`) or the user who posted a card, with an avatar
    /// from the same place when it has one.
    static func author(_ content: JSONValue) -> Author? {
        let candidates: [(name: [String], avatar: [String])] = [
            (["media_info", "name"], ["media_info", "avatar_url"]),
            (["source"], ["source_avatar"]),
            (["user", "screen_name"], ["user", "avatar_url"]),
            (["user", "name"], ["user", "avatar_url"]),
            (["user_info", "screen_name"], ["user_info", "avatar_url"]),
            (["user_info", "name"], ["user_info", "avatar_url"]),
            (["screen_name"], ["avatar_url"]),
            (["answer", "uname"], ["answer", "avatar_url"]),
        ]
        for candidate in candidates {
            guard let name = content.value(at: candidate.name)?.nonEmptyText else { continue }
            let avatar = [candidate.avatar, ["media_info", "avatar_url"], ["source_avatar"]].lazy
                .compactMap { content.value(at: $0)?.string.flatMap(ToutiaoImage.httpURL) }.first
            return Author(name: name, avatar: avatar)
        }
        return nil
    }

    /// `publish_time` (seconds; 0 is unknown), else a card's `create_time` or live `start_time`.
    static func published(_ content: JSONValue) -> Date? {
        let seconds =
            content.positiveInt("publish_time") ?? content.positiveInt("create_time") ?? content["answer"]?.positiveInt("create_time")
        if let seconds { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        return content["start_time"]?.string.flatMap { beijing.parse($0) }
    }

    /// `keywords`, split at ASCII and full-width commas, without empties or repeats.
    static func tags(_ keywords: String) -> [String] {
        var seen = Set<String>()
        return keywords.split(whereSeparator: { $0 == "," || $0 == "，" })
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Every count present as a whole number, zeros included (zero comments is information).
    static func metrics(_ content: JSONValue) -> [String: Int] {
        var metrics: [String: Int] = [:]
        for (field, metric) in metricFields {
            if let count = content[field]?.int ?? content["answer"]?[field]?.int, count >= 0 { metrics[metric] = count }
        }
        return metrics
    }

    /// Video files whose URL the item gives (`video_detail_info.video_url`); the feed usually
    /// gives none, as the apps resolved them through another call.
    static func videos(_ content: JSONValue) -> [Attachment] {
        let entries = content["video_detail_info"]?["video_url"]?.array ?? []
        let urls = entries.compactMap { ($0.string ?? $0["url"]?.string ?? $0["main_url"]?.string).flatMap(ToutiaoImage.httpURL) }
        let hasMP4 = content["has_mp4_video"]?.bool == true
        return urls.map { url in
            let type = ToutiaoImage.mimeType(of: url)
            return Attachment(
                url: url, mimeType: type.isEmpty && hasMP4 ? "video/mp4" : type, durationInSeconds: content.positiveInt("video_duration"))
        }
    }

    /// A share link without the install id and app name the API appends.
    static func withoutTracking(_ url: String) -> String {
        guard var components = URLComponents(string: url), let items = components.queryItems else { return url }
        let kept = items.filter { !["iid", "app"].contains($0.name) }
        components.queryItems = kept.isEmpty ? nil : kept
        return components.string ?? url
    }

    /// A title for cards that have none (posts, jokes): the first line of the text, at most 40
    /// characters.
    static func headline(_ text: String) -> String? {
        let line = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !line.isEmpty else { return nil }
        return line.count <= 40 ? line : line.prefix(40) + "…"
    }
}
