import Foundation
import Testing
import TributaryJSON
import TributaryModel

@testable import ToutiaoAdapter

/// Kinds and flags, from fields whose types vary between cells (booleans and integers).
@Suite("Toutiao kinds and flags")
struct ToutiaoKindTests {
    /// The fields with a title added, so that the mapper has something to name the item by.
    static func titled(_ fields: JSONValue) -> JSONValue {
        var object = fields.object ?? JSONObject()
        object["title"] = "t"
        return .object(object)
    }

    @Test(
        arguments: [
            ("an article", ["cell_type": 0, "title": "t"], ToutiaoKind.article),
            ("no cell_type", ["title": "t"], .article),
            ("a video by video_detail_info", ["video_detail_info": ["video_id": "v"]], .video),
            ("a video by has_video", ["has_video": true], .video),
            ("has_video false", ["has_video": false, "video_detail_info": [:]], .article),
            ("label 广告", ["label": "广告"], .ad),
            ("label_style 3", ["label_style": 3], .ad),
            ("label_style 3 as text", ["label_style": "3"], .ad),
            ("an ad_id", ["ad_id": 62_894_512_345], .ad),
            ("ad_id 0 is none", ["ad_id": 0], .article),
            ("cell_type 10, an app ad", ["cell_type": 10], .ad),
            ("an ad on a card", ["cell_type": 32, "label": "广告"], .ad),
            ("a joke", ["cell_type": 3], .joke),
            ("a post", ["cell_type": 32], .post),
            ("live 33", ["cell_type": 33], .live),
            ("live 35", ["cell_type": 35], .live),
            ("live by label", ["cell_type": 0, "label": "直播", "label_style": 1], .live),
            ("Q&A", ["cell_type": 36], .question),
            ("anything else", ["cell_type": 50], .card),
        ] as [(String, JSONValue, ToutiaoKind)])
    func kinds(_ name: String, _ content: JSONValue, _ kind: ToutiaoKind) {
        #expect(ToutiaoKind.of(content) == kind, "\(name)")
    }

    @Test(
        arguments: [
            (["is_stick": true], true), (["is_stick": 1], true), (["is_stick": 0], false), (["is_stick": false], false),
            (["is_stick": "true"], true), (["label": "置顶", "label_style": 1], true), (["stick_label": "置顶"], true),
            (["label": "直播", "label_style": 1], false), ([:], false),
        ] as [(JSONValue, Bool)])
    func pinned(_ content: JSONValue, _ pinned: Bool) {
        #expect(ToutiaoKind.isPinned(content) == pinned)
        let item = ToutiaoItemMapper(sourceName: "s").map(Self.titled(content))
        #expect(item?.extras["pinned"] == ExtraValue.bool(pinned))
    }

    @Test(
        arguments: [
            ("0 is unknown", ["publish_time": 0], nil),
            ("seconds", ["publish_time": 1_504_690_890], 1_504_690_890),
            ("a post's create_time", ["create_time": 1_503_364_608], 1_503_364_608),
            ("seconds as text", ["publish_time": "1504690890"], 1_504_690_890),
            ("missing", [:], nil),
        ] as [(String, JSONValue, Int?)])
    func publishTimes(_ name: String, _ fields: JSONValue, _ seconds: Int?) throws {
        let item = try #require(ToutiaoItemMapper(sourceName: "s").map(Self.titled(fields)))
        #expect(item.published?.timeIntervalSince1970 == seconds.map(Double.init), "\(name)")
    }

    @Test func keywordsBecomeTags() {
        #expect(ToutiaoItemMapper.tags("金砖国家, 厦门，习近平主席,,厦门 ") == ["金砖国家", "厦门", "习近平主席"])
        #expect(ToutiaoItemMapper.tags("") == [])
    }

    @Test(
        arguments: [
            ("http://toutiao.com/a6462594562829140237/?iid=5034850950&app=news_article", "http://toutiao.com/a6462594562829140237/"),
            ("http://toutiao.com/group/67676000716/?iid=45791941&x=1", "http://toutiao.com/group/67676000716/?x=1"),
            (
                "https://weitoutiao.zjurl.cn/ugc/share/thread/1576392046686285/",
                "https://weitoutiao.zjurl.cn/ugc/share/thread/1576392046686285/"
            ),
        ])
    func shareLinksLoseTheirTracking(_ share: String, _ url: String) {
        #expect(ToutiaoItemMapper.withoutTracking(share) == url)
    }

    /// The link: the publisher's page first, then Toutiao's, then a share link.
    @Test(
        arguments: [
            (
                "article_url", ["article_url": "http://news.xinhuanet.com/a.htm", "display_url": "http://toutiao.com/group/1/"],
                "http://news.xinhuanet.com/a.htm"
            ),
            (
                "display_url when article_url is empty", ["article_url": "", "display_url": "http://toutiao.com/group/1/"],
                "http://toutiao.com/group/1/"
            ),
            ("url", ["url": "http://toutiao.com/group/2/"], "http://toutiao.com/group/2/"),
            (
                "share_url, untracked", ["url": "sslocal://x", "share_url": "http://toutiao.com/a3/?iid=1&app=news_article"],
                "http://toutiao.com/a3/"
            ),
            (
                "a live card's share_info", ["share_info": ["source_url": "https://www.huoshanzhibo.com/share/room/1/"]],
                "https://www.huoshanzhibo.com/share/room/1/"
            ),
            ("none", ["url": "sslocal://livechat?liveid=1", "share_url": ""], nil),
        ] as [(String, JSONValue, String?)])
    func links(_ name: String, _ content: JSONValue, _ url: String?) {
        #expect(ToutiaoItemMapper(sourceName: "s").link(content) == url, "\(name)")
    }

    @Test func videoFilesBecomeAttachmentsWhenTheFeedGivesThem() {
        let content: JSONValue = [
            "has_mp4_video": 1, "video_duration": 215,
            "video_detail_info": [
                "video_id": "v", "video_url": ["http://v.example.cn/a.mp4", ["main_url": "http://v.example.cn/b"], ["url": "sslocal://c"]],
            ],
        ]
        #expect(
            ToutiaoItemMapper.videos(content) == [
                Attachment(url: "http://v.example.cn/a.mp4", mimeType: "video/mp4", durationInSeconds: 215),
                Attachment(url: "http://v.example.cn/b", mimeType: "video/mp4", durationInSeconds: 215),
            ])
        #expect(ToutiaoItemMapper.videos(["video_detail_info": ["video_url": []]]) == [])
    }
}
