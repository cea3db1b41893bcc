import TributaryJSON

/// An item's picture layout and its pictures, decided from the layout fields in the documented
/// priority: `image_list`, then `video_detail_info`, then `large_image_list`, then `middle_image`.
///
/// Each field may be missing, `null`, empty (`[]`, `{}`) or present; only a field holding at
/// least one usable URL counts. Cards keep their pictures elsewhere and are read only when none
/// of the four fields has one (§2.6 and the card fixtures).
struct ToutiaoPictures: Sendable, Hashable {
    /// How the app draws the item.
    var layout: ToutiaoLayout
    /// The pictures, main one first, as URLs without repeats.
    var images: [String]

    /// Decides the layout of one `content` object.
    static func of(_ content: JSONValue) -> ToutiaoPictures {
        let row = ToutiaoImage.urls(in: content["image_list"])
        if !row.isEmpty { return ToutiaoPictures(layout: .threeImages, images: row) }
        if let video = content["video_detail_info"], video.isPresent,
            video["video_id"]?.nonEmptyText != nil || video["detail_video_large_image"].flatMap(ToutiaoImage.url(of:)) != nil
        {
            let poster = [video["detail_video_large_image"], content["large_image_list"]?[0], content["middle_image"]]
                .lazy.compactMap(ToutiaoImage.url(of:)).first
            return ToutiaoPictures(layout: .video, images: poster.map { [$0] } ?? [])
        }
        let large = ToutiaoImage.urls(in: content["large_image_list"])
        // A post (微头条) keeps its whole picture grid in large_image_list.
        if large.count > 1 { return ToutiaoPictures(layout: .threeImages, images: large) }
        if !large.isEmpty { return ToutiaoPictures(layout: .largeImage, images: large) }
        if let right = ToutiaoImage.url(of: content["middle_image"]) { return ToutiaoPictures(layout: .rightImage, images: [right]) }
        return cardPictures(content) ?? ToutiaoPictures(layout: .noImage, images: [])
    }

    /// Pictures of cards that use none of the four layout fields: Q&A cards (`extra.wenda_image`,
    /// `extra.wenda_video`), live cards (a cover) and app ads (`image`).
    private static func cardPictures(_ content: JSONValue) -> ToutiaoPictures? {
        if let wenda = content["extra"]?["wenda_image"] {
            let three = ToutiaoImage.urls(in: wenda["three_image_list"])
            if !three.isEmpty { return ToutiaoPictures(layout: .threeImages, images: three) }
            let covers = (content["extra"]?["wenda_video"]?.array ?? []).compactMap { ToutiaoImage.url(of: $0["cover_pic"]) }
            if let cover = covers.first { return ToutiaoPictures(layout: .video, images: [cover]) }
            let large = ToutiaoImage.urls(in: wenda["large_image_list"])
            if !large.isEmpty { return ToutiaoPictures(layout: .largeImage, images: large) }
            let small = ToutiaoImage.urls(in: wenda["medium_image_list"]) + ToutiaoImage.urls(in: wenda["small_image_list"])
            if let first = small.first { return ToutiaoPictures(layout: .rightImage, images: [first]) }
        }
        let cover = [
            content["cover_image_info"], content["background"]?["video"]?["covers"], content["large_image"], content["image"],
        ]
        .lazy.compactMap(ToutiaoImage.url(of:)).first
        if let cover { return ToutiaoPictures(layout: .largeImage, images: [cover]) }
        if let right = ToutiaoImage.url(of: content["middle_image_info"]) { return ToutiaoPictures(layout: .rightImage, images: [right]) }
        return nil
    }
}
