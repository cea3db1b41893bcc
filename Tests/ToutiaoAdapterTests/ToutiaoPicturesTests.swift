import Testing
import TributaryJSON

@testable import ToutiaoAdapter

/// The layout decision over every combination of the four layout fields, and the choice of one
/// URL per image object.
@Suite("Toutiao picture layouts")
struct ToutiaoPicturesTests {
    /// The ways a layout field occurs in real payloads.
    enum State: String, Sendable, CaseIterable {
        case missing, null, empty, present
    }

    static func image(_ name: String, webp: Bool = false) -> JSONValue {
        let url: JSONValue = .string("http://p3.pstatp.com/list/\(name)\(webp ? ".webp" : "")")
        return ["url": url, "width": 640, "height": 360, "uri": "list/\(name)", "url_list": [["url": url]]]
    }

    /// `content` with each field in the given state; "present" values are real-shaped.
    static func content(imageList: State, middle: State, large: State, video: State) -> JSONValue {
        var object: JSONObject = ["title": "t", "group_id": 6_462_594_562_829_140_237]
        func set(_ key: String, _ state: State, empty: JSONValue, present: JSONValue) {
            switch state {
            case .missing: break
            case .null: object[key] = .null
            case .empty: object[key] = empty
            case .present: object[key] = present
            }
        }
        set("image_list", imageList, empty: [], present: [image("a"), image("b"), image("c")])
        set("middle_image", middle, empty: [:], present: image("m", webp: true))
        set("large_image_list", large, empty: [], present: [image("l")])
        set(
            "video_detail_info", video, empty: [:],
            present: ["video_id": "460cee0eb21340649f0736944fdfb463", "detail_video_large_image": image("v"), "video_url": []])
        return .object(object)
    }

    static let combinations: [(State, State, State, State)] = State.allCases.flatMap { a in
        State.allCases.flatMap { b in State.allCases.flatMap { c in State.allCases.map { d in (a, b, c, d) } } }
    }

    /// The documented priority, restated: three images, then video, then large, then right, then none.
    @Test(arguments: combinations)
    func everyCombinationFollowsThePriority(_ fields: (State, State, State, State)) {
        let (imageList, middle, large, video) = fields
        let pictures = ToutiaoPictures.of(Self.content(imageList: imageList, middle: middle, large: large, video: video))
        let base = "http://p3.pstatp.com/list/"
        let expected: ToutiaoPictures =
            if imageList == .present {
                ToutiaoPictures(layout: .threeImages, images: [base + "a", base + "b", base + "c"])
            } else if video == .present {
                ToutiaoPictures(layout: .video, images: [base + "v"])
            } else if large == .present {
                ToutiaoPictures(layout: .largeImage, images: [base + "l"])
            } else if middle == .present {
                ToutiaoPictures(layout: .rightImage, images: [base + "m.webp"])
            } else {
                ToutiaoPictures(layout: .noImage, images: [])
            }
        #expect(pictures == expected, "image_list \(imageList), middle_image \(middle), large_image_list \(large), video \(video)")
    }

    @Test(
        arguments: [
            ("a video without a poster shows the large image", ["video_id": "x"], [image("l")], image("m", webp: true), "l"),
            ("then the right image", ["video_id": "x"], [], image("m", webp: true), "m.webp"),
            ("a poster without a video id is still a video", ["detail_video_large_image": image("v")], [], .null, "v"),
        ] as [(String, JSONValue, JSONValue, JSONValue, String)])
    func videoPosters(_ name: String, _ video: JSONValue, _ large: JSONValue, _ middle: JSONValue, _ poster: String) {
        let content: JSONValue = ["video_detail_info": video, "large_image_list": large, "middle_image": middle]
        #expect(ToutiaoPictures.of(content) == ToutiaoPictures(layout: .video, images: ["http://p3.pstatp.com/list/\(poster)"]), "\(name)")
    }

    @Test func aVideoWithNothingToShowIsAVideoWithoutPictures() {
        #expect(ToutiaoPictures.of(["video_detail_info": ["video_id": "x"]]) == ToutiaoPictures(layout: .video, images: []))
        #expect(ToutiaoPictures.of(["video_detail_info": ["video_type": 0]]).layout == .noImage, "no id and no poster: not a video")
    }

    @Test(
        arguments: [
            ("the url when it is not WebP", ["url": "http://p1/a.jpg", "url_list": [["url": "http://p2/a.webp"]]], "http://p1/a.jpg"),
            (
                "a non-WebP url_list entry over a WebP url",
                ["url": "http://p1/a.webp", "url_list": [["url": "http://p2/a.webp"], ["url": "http://p3/a"]]], "http://p3/a"
            ),
            (
                "the WebP url when nothing else exists", ["url": "http://p1/a.WEBP?x=1", "url_list": [["url": "http://p2/a.webp"]]],
                "http://p1/a.WEBP?x=1"
            ),
            ("url_list alone", ["url_list": [["url": ""], ["url": "http://p2/b"]]], "http://p2/b"),
            ("url_list entries as bare strings", ["url_list": ["http://p2/c"]], "http://p2/c"),
            ("a protocol-relative URL", ["url": "//p3.pstatp.com/large/d"], "https://p3.pstatp.com/large/d"),
            ("a bare URL string", "http://p3.pstatp.com/origin/e", "http://p3.pstatp.com/origin/e"),
        ] as [(String, JSONValue, String)])
    func oneURLPerImage(_ name: String, _ image: JSONValue, _ url: String) {
        #expect(ToutiaoImage.url(of: image) == url, "\(name)")
    }

    @Test(arguments: [[:], [], .null, "", "sslocal://detail?groupid=1", ["url": "ftp://x/y"], 42] as [JSONValue])
    func noURL(_ image: JSONValue) {
        #expect(ToutiaoImage.url(of: image) == nil)
    }

    @Test func imageListsDropRepeatsAndBlanks() {
        let list: JSONValue = [["url": "http://p/a"], [:], ["url": "http://p/a"], .null, ["url": "http://p/b"]]
        #expect(ToutiaoImage.urls(in: list) == ["http://p/a", "http://p/b"])
        #expect(ToutiaoImage.urls(in: ["url": "http://p/a"]) == [], "an object where a list belongs is no list")
    }

    @Test(
        arguments: [
            ("http://p/a.webp", "image/webp"), ("http://p/a.JPG", "image/jpeg"), ("http://p/a.png?x", "image/png"),
            ("http://p/a.gif", "image/gif"),
            ("http://v/a.mp4", "video/mp4"), ("http://v/a.m3u8", "application/vnd.apple.mpegurl"), ("http://p3.pstatp.com/large/abc", ""),
        ])
    func mimeTypesFromExtensions(_ url: String, _ type: String) {
        #expect(ToutiaoImage.mimeType(of: url) == type)
        #expect(ToutiaoImage.pictureType(of: url) == (type.isEmpty ? "image/jpeg" : type), "a picture always has an image type")
    }
}
