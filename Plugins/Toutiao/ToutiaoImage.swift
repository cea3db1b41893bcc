import Foundation
import TributaryJSON

/// Reads Toutiao's image objects, `{url, width, height, uri, url_list: [{url}, …]}`, down to one
/// URL, preferring a non-WebP entry where one exists (list thumbnails are `.webp`).
enum ToutiaoImage {
    /// The URL to use for one image object (or a bare URL string); nil when it holds none.
    static func url(of value: JSONValue?) -> String? {
        guard let value else { return nil }
        if case .string(let text) = value { return httpURL(text) }
        var candidates: [String] = []
        if let primary = value["url"]?.string.flatMap(httpURL) { candidates.append(primary) }
        for entry in value["url_list"]?.array ?? [] {
            if let listed = (entry["url"]?.string ?? entry.string).flatMap(httpURL) { candidates.append(listed) }
        }
        return candidates.first { !isWebP($0) } ?? candidates.first
    }

    /// The URLs of a list of image objects, in order, without repeats.
    static func urls(in value: JSONValue?) -> [String] {
        var seen = Set<String>()
        return (value?.array ?? []).compactMap(url(of:)).filter { seen.insert($0).inserted }
    }

    /// An absolute `http(s)` URL, with `//host/…` read as `https://host/…`; nil for anything else
    /// (`sslocal://` app links, empty strings).
    static func httpURL(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("//") { return "https:" + trimmed }
        let lowered = trimmed.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), trimmed.count > 8 else { return nil }
        return trimmed
    }

    /// Whether the URL's path ends in `.webp`.
    static func isWebP(_ url: String) -> Bool {
        path(of: url).lowercased().hasSuffix(".webp")
    }

    /// The MIME type the URL's extension names, or `""` when it names none (Toutiao's image
    /// URLs usually have no extension).
    static func mimeType(of url: String) -> String {
        let path = path(of: url).lowercased()
        let types: [(suffix: String, type: String)] = [
            (".webp", "image/webp"), (".jpg", "image/jpeg"), (".jpeg", "image/jpeg"), (".png", "image/png"), (".gif", "image/gif"),
            (".mp4", "video/mp4"), (".m3u8", "application/vnd.apple.mpegurl"),
        ]
        return types.first { path.hasSuffix($0.suffix) }?.type ?? ""
    }

    /// The MIME type of a picture: the one its extension names, else `image/jpeg`. Readers show an attachment as a
    /// picture by its `image/` type, and without one the outputs would say `application/octet-stream`. Toutiao's
    /// image servers answer an extensionless URL with JPEG or, to clients that ask for it, WebP (the 2016 app,
    /// without a WebP decoder, loaded them: quirk 4 of source-apis.md §2.8).
    static func pictureType(of url: String) -> String {
        let type = mimeType(of: url)
        return type.isEmpty ? "image/jpeg" : type
    }

    private static func path(of url: String) -> Substring {
        url.prefix { $0 != "?" && $0 != "#" }
    }
}
