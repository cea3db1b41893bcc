import TributaryJSON

/// What a feed cell is: an article or video, an ad, or one of the non-article cards that the
/// adapter leaves out unless asked (`include_ads`, `include_cards`).
enum ToutiaoKind: String, Sendable, Hashable, CaseIterable {
    /// A news article (`cell_type` 0 or missing).
    case article
    /// An article that is a video (`video_detail_info` or `has_video`).
    case video
    /// An ad: `label` 广告, `label_style` 3, an `ad_id`, or `cell_type` 10 (app ads).
    case ad
    /// A live stream (`cell_type` 33 or 35, or `label` 直播).
    case live
    /// A user post, 微头条 (`cell_type` 32).
    case post
    /// A joke, 段子 (`cell_type` 3).
    case joke
    /// A Q&A card, 问答 (`cell_type` 36).
    case question
    /// Any other `cell_type`.
    case card

    /// Whether `include_cards` governs it.
    var isCard: Bool {
        switch self {
        case .article, .video, .ad: false
        case .live, .post, .joke, .question, .card: true
        }
    }

    /// Classifies one `content` object.
    static func of(_ content: JSONValue) -> ToutiaoKind {
        if isAd(content) { return .ad }
        let label = content["label"]?.nonEmptyText ?? ""
        switch content["cell_type"]?.int ?? 0 {
        case 0:
            if label.contains("直播") { return .live }
            let hasVideo = content["video_detail_info"]?.isPresent == true || content["has_video"]?.bool == true
            return hasVideo ? .video : .article
        case 3: return .joke
        case 32: return .post
        case 33, 35: return .live
        case 36: return .question
        default: return .card
        }
    }

    /// Whether the cell is an ad.
    static func isAd(_ content: JSONValue) -> Bool {
        if content["cell_type"]?.int == 10 || content["label_style"]?.int == 3 { return true }
        if content["label"]?.nonEmptyText?.contains("广告") == true { return true }
        if let adID = content["ad_id"]?.nonEmptyText, adID != "0" { return true }
        return false
    }

    /// Whether the cell is pinned to the top of the channel: `is_stick` (a boolean on articles,
    /// an integer on posts) or a 置顶 label.
    static func isPinned(_ content: JSONValue) -> Bool {
        if content["is_stick"]?.bool == true { return true }
        return [content["label"], content["stick_label"]].contains { $0?.nonEmptyText?.contains("置顶") == true }
    }
}
