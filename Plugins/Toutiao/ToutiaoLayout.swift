/// The five picture layouts of Toutiao's feed (source-apis.md §2.6), as the `layout` extra.
enum ToutiaoLayout: String, Sendable, Hashable, CaseIterable {
    /// A row of small pictures (`image_list`), or a post's picture grid.
    case threeImages = "three_images"
    /// A video with its poster (`video_detail_info`).
    case video
    /// One big picture (`large_image_list`).
    case largeImage = "large_image"
    /// One thumbnail beside the title (`middle_image`).
    case rightImage = "right_image"
    /// Text only, e.g. pinned items.
    case noImage = "no_image"
}
