import Foundation
import TestSupport
import Testing
import ToutiaoAdapter
import TributaryCore
import TributaryModel

/// Every recorded Toutiao body (all 42 files of `Fixtures/upstream`), served through the
/// loopback server and read by the adapter over libcurl.
@Suite("Toutiao fixtures, one by one")
struct ToutiaoFixtureTableTests {
    /// What one fixture file must give.
    enum Expectation: Sendable {
        /// An item body, served as `data[0].content` both as a JSON string (the wire form) and as
        /// an object (as recorded): its exact id, kind, picture layout and pictures.
        case item(id: String, kind: String, layout: String, images: [String])
        /// A broken item body (`.txt`): served as `data[1].content` after a good item, it is
        /// skipped with a problem at this position and the good item is kept.
        case brokenItem(position: String, reason: String)
        /// A whole feed response: these item ids and this many skipped entries.
        case feed(ids: [String], skipped: Int)
        /// A body of another endpoint, served as the feed response: the source fails so.
        case notTheFeed(reason: String)
        /// A broken response (`.txt`), served as the feed response: the source fails so.
        case brokenResponse(position: String, reason: String)
    }

    /// One row of the table.
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var expected: Expectation
        var testDescription: String { file }
    }

    static let notAList = "'data' is not a list of feed entries (is this the feed endpoint?)"

    static let table: [Case] = [
        Case(file: "home_00_search_suggest.json", expected: .notTheFeed(reason: notAList)),
        Case(
            file: "home_01_category_subscribed.txt",
            expected: .brokenResponse(position: "28:13", reason: "expected ',' or ']' after an array element")),
        Case(file: "home_02_no_image.json", expected: .item(id: "6462594562829140237", kind: "article", layout: "no_image", images: [])),
        Case(
            file: "home_03_one_large_image.json",
            expected: .item(
                id: "6448485086420697357", kind: "article", layout: "three_images",
                images: [
                    "http://p3.pstatp.com/list/640x360/31d2000192851c1c56b2", "http://p3.pstatp.com/list/31c80003bb3a767b44f6",
                    "http://p9.pstatp.com/list/31d400039527b0fcf128",
                ])),
        Case(
            file: "home_04_one_large_image_video.json",
            expected: .item(
                id: "6454936131342434829", kind: "video", layout: "video", images: ["http://p3.pstatp.com/video1609/35fe0015fb552c9f935f"])),
        Case(
            file: "home_05_one_small_image.json",
            expected: .item(
                id: "6457262317569573390", kind: "article", layout: "right_image",
                images: ["http://p9.pstatp.com/list/300x196/3643000c735249235dc4.webp"])),
        Case(
            file: "home_06_one_small_image_video_1.json",
            expected: .item(
                id: "6456552624748495374", kind: "video", layout: "right_image",
                images: ["http://p9.pstatp.com/list/300x196/3221000230e1e7f2c93d.webp"])),
        Case(
            file: "home_07_one_small_image_video_2.json",
            expected: .item(
                id: "6456910736093348366", kind: "video", layout: "video", images: ["http://p3.pstatp.com/video1609/37c6000291b729c2e0d8"])),
        Case(
            file: "home_08_one_small_image_video_3.json",
            expected: .item(
                id: "6457391210276323853", kind: "video", layout: "video", images: ["http://p3.pstatp.com/video1609/373d000136f4cf8c4128"])),
        Case(
            file: "home_09_three_small_images_1.json",
            expected: .item(
                id: "6463636029491413262", kind: "article", layout: "three_images",
                images: [
                    "http://p1.pstatp.com/list/300x196/3155000bd00a601ef0d9.webp",
                    "http://p1.pstatp.com/list/300x196/3154000be52383b12241.webp",
                    "http://p1.pstatp.com/list/300x196/3155000bd00c21eb6f0b.webp",
                ])),
        Case(
            file: "home_10_three_small_images_2.json",
            expected: .item(
                id: "6431492433566400770", kind: "article", layout: "three_images",
                images: [
                    "http://p1.pstatp.com/list/300x196/26ef00034640a956ee2e.webp",
                    "http://p3.pstatp.com/list/300x196/26ef0003463e4707ceab.webp",
                    "http://p1.pstatp.com/list/300x196/28890000f43154efeef6.webp",
                ])),
        Case(
            file: "home_11_four_small_images.json",
            expected: .item(
                id: "6456243661087703565", kind: "article", layout: "three_images",
                images: [
                    "http://p1.pstatp.com/list/300x196/3644000d65214b433d06.webp",
                    "http://p3.pstatp.com/list/300x196/3641000d5ec6d6e232e2.webp",
                    "http://p9.pstatp.com/list/300x196/3642000d64b9633b1ecf.webp",
                ])),
        Case(
            file: "home_12_ten_small_images.json",
            expected: .item(
                id: "6456391156019233294", kind: "article", layout: "three_images",
                images: [
                    "http://p3.pstatp.com/list/300x196/321c00048289521e7bd9.webp",
                    "http://p9.pstatp.com/list/300x196/3221000001078f166cdf.webp",
                    "http://p9.pstatp.com/list/300x196/322100000135694c8f93.webp",
                ])),
        Case(
            file: "home_13_live_1.json",
            expected: .item(
                id: "6456542800804186894", kind: "live", layout: "large_image", images: ["http://p1.pstatp.com/large/36cc00016ccd19b9550c"])
        ),
        // No link of this card holds its id, so the rounded digits are all there is.
        Case(
            file: "home_14_live_2.json",
            expected: .item(
                id: "6457327441563091000", kind: "live", layout: "large_image", images: ["http://p1.pstatp.com/origin/37ca00015faa00a6c400"]
            )),
        Case(file: "home_15_follow_no_image.json", expected: .item(id: "1576392046686285", kind: "post", layout: "no_image", images: [])),
        Case(
            file: "home_16_follow_one_image.json",
            expected: .item(
                id: "1576387356446766", kind: "post", layout: "large_image",
                images: ["http://p7.pstatp.com/large/w960/3633000710b0cf338d0b"])),
        Case(
            file: "home_17_follow_video_small_image.json",
            expected: .item(
                id: "6456309511022969357", kind: "video", layout: "video", images: ["http://p3.pstatp.com/video1609/3700000bd9386de4311f"])),
        Case(
            file: "home_18_follow_three_images.json",
            expected: .item(
                id: "1576337182467117", kind: "post", layout: "three_images",
                images: [
                    "http://p3.pstatp.com/large/w960/32270004b6d68cd7000f", "http://p2.pstatp.com/large/w960/37c300016a30cb498e8e",
                    "http://p2.pstatp.com/large/w960/37c4000169138e92a0c0",
                ])),
        Case(
            file: "home_19_follow_six_images.json",
            expected: .item(
                id: "1576228865105933", kind: "post", layout: "three_images",
                images: [
                    "http://p2.pstatp.com/large/w960/3634000614485233455d", "http://p7.pstatp.com/large/w960/363600060e26da27c30f",
                    "http://p7.pstatp.com/large/w960/363600060e280884683b", "http://p7.pstatp.com/large/w960/36330006176a74d25458",
                    "http://p7.pstatp.com/large/w960/36330006176d654e98e6", "http://p7.pstatp.com/large/w960/36330006176e20e9fc7e",
                    "http://p7.pstatp.com/large/w960/36340006144a35e89318", "http://p7.pstatp.com/large/w960/36330006176f41c08c6d",
                    "http://p7.pstatp.com/large/w960/36340006144b2db8169e",
                ])),
        Case(
            file: "home_20_follow_long_image_one.json",
            expected: .item(
                id: "1576399477536782", kind: "post", layout: "large_image",
                images: ["http://p3.pstatp.com/large/w960/3636000721f8fad62db2"])),
        Case(
            file: "home_21_follow_long_image_three.json",
            expected: .item(
                id: "1576396245317646", kind: "post", layout: "three_images",
                images: [
                    "http://p7.pstatp.com/large/w960/37c80000ccb861a3cbaf", "http://p3.pstatp.com/large/w960/37c30002af5b7f388830",
                    "http://p7.pstatp.com/large/w960/37c30002b1e6e2b3b08e", "http://p3.pstatp.com/large/w960/37c60002b7445d20044a",
                ])),
        Case(
            file: "home_22_follow_gif.txt", expected: .brokenItem(position: "112:72", reason: "expected ',' or '}' after an object member")),
        Case(
            file: "home_23_ad_1.json",
            expected: .item(
                id: "6455531576603181326", kind: "ad", layout: "large_image",
                images: ["http://p9.pstatp.com/large/w640/3546000a7d090e9ebac4.webp"])),
        Case(
            file: "home_24_ad_2.json",
            expected: .item(
                id: "6444516781724795149", kind: "ad", layout: "video", images: ["http://p1.pstatp.com/video1609/2cbe001664d85742c158"])),
        Case(
            file: "home_25_ad_3.json",
            expected: .item(
                id: "60966336402", kind: "ad", layout: "large_image", images: ["http://p3.pstatp.com/origin/2177000814f69e88ac05"])),
        Case(
            file: "home_26_ad_4.json",
            expected: .item(
                id: "61569094472", kind: "ad", layout: "large_image", images: ["http://p3.pstatp.com/origin/26b8000827ff5874463b"])),
        Case(
            file: "home_27_ad_5.json",
            expected: .item(
                id: "66413014237", kind: "ad", layout: "large_image", images: ["http://p1.pstatp.com/origin/353f000add4c3507c58c"])),
        Case(
            file: "home_28_ad_6.json",
            expected: .item(
                id: "61661113088", kind: "ad", layout: "three_images",
                images: [
                    "http://p1.pstatp.com/list/300x196/26c1000623f29e844229.webp",
                    "http://p3.pstatp.com/list/300x196/26be0000909121418f55.webp",
                    "http://p3.pstatp.com/list/300x196/26be0000909a3b162bc8.webp",
                ])),
        Case(
            file: "home_29_ad_7.json",
            expected: .item(
                id: "6441794736914170125", kind: "ad", layout: "three_images",
                images: [
                    "http://p1.pstatp.com/list/300x196/2e6f0016d47e05c76680.webp",
                    "http://p3.pstatp.com/list/300x196/2e6a000c852d6913c91c.webp",
                    "http://p3.pstatp.com/list/300x196/2e76000bede4eeb89f8f.webp",
                ])),
        Case(file: "home_30_entertainment_header.json", expected: .notTheFeed(reason: notAList)),
        Case(file: "home_31_joke.json", expected: .item(id: "67676000716", kind: "joke", layout: "no_image", images: [])),
        Case(
            file: "home_32_wenda_video_large_image.json",
            expected: .item(
                id: "6390978948955635969", kind: "question", layout: "video", images: ["http://p3.pstatp.com/large/1660000ed70fc170a105"])),
        Case(
            file: "home_33_wenda_large_image.json",
            expected: .item(
                id: "6385745520836477185", kind: "question", layout: "large_image",
                images: ["http://p3.pstatp.com/list/640x360/150e001460fab7ffd854"])),
        Case(
            file: "home_34_wenda_small_image.json",
            expected: .item(
                id: "6449565215590711566", kind: "question", layout: "right_image",
                images: ["http://p1.pstatp.com/list/300x196/289c0007c3107de0fb44"])),
        Case(
            file: "home_35_wenda_three_images.json",
            expected: .item(
                id: "6406293519635316994", kind: "question", layout: "three_images",
                images: [
                    "http://p3.pstatp.com/list/300x196/1a6a000cbac37825aadb", "http://p3.pstatp.com/list/300x196/1a6a000fcdee168204d9",
                    "http://p3.pstatp.com/list/300x196/1a6e00069b7c16ed5036",
                ])),
        Case(file: "home_36_refresh_tip.json", expected: .notTheFeed(reason: notAList)),
        // The video channel list has a `data` list, but its entries carry no `content`.
        Case(file: "video_00_video_categories.json", expected: .feed(ids: [], skipped: 2)),
        Case(file: "video_01_video_1.json", expected: .feed(ids: ["6456194233832309262"], skipped: 0)),
        Case(
            file: "video_02_video_2.json",
            expected: .item(
                id: "6425939369212182785", kind: "video", layout: "video", images: ["http://p1.pstatp.com/video1609/22d2000467f35aadaa6b"])),
        Case(
            file: "video_03_video_ad_1.json",
            expected: .item(
                id: "64527492755", kind: "ad", layout: "large_image", images: ["http://p3.pstatp.com/origin/32f1000afea86a12e55c"])),
        Case(file: "video_04_video_ad_2.txt", expected: .brokenItem(position: "2:15", reason: "unexpected content after the JSON value")),
    ]

    @Test func theTableCoversEveryUpstreamFile() throws {
        #expect(Self.table.map(\.file) == (try Toutiao.upstreamNames()))
        #expect(Self.table.count == 42)
    }

    @Test(arguments: table)
    func fixture(_ row: Case) async throws {
        let text = try Toutiao.fixture("upstream/\(row.file)")
        let server = try LoopbackServer()
        defer { server.stop() }
        let everything: [String: OptionValue] = ["include_ads": .boolean(true), "include_cards": .boolean(true)]
        let firstURL = server.url("/wire" + Toutiao.endpoint) + "?" + Toutiao.firstQuery

        switch row.expected {
        case .item(let id, let kind, let layout, let images):
            server.route("/wire" + Toutiao.endpoint, .text(Toutiao.wire([text])))
            server.route("/decoded" + Toutiao.endpoint, .text(Toutiao.decoded([text])))
            let wire = try await Toutiao.adapter(server, "/wire", everything).fetch(in: Toutiao.context())
            let decoded = try await Toutiao.adapter(server, "/decoded", everything).fetch(in: Toutiao.context())
            #expect(wire.problems.isEmpty && decoded.problems.isEmpty)
            let item = try #require(wire.items.first)
            #expect(wire.items.count == 1)
            #expect(decoded.items == wire.items, "the wire form and the decoded form read alike")
            #expect(item.id == id)
            #expect(item.extras["kind"] == .string(kind))
            #expect(item.extras["layout"] == .string(layout))
            #expect(item.image == images.first)
            #expect(item.attachments.map(\.url) == images, "the feed gives no video files, only pictures")
            #expect(item.source == "toutiao")

            let byDefault = try await Toutiao.adapter(server, "/wire").fetch(in: Toutiao.context())
            let kept = kind == "article" || kind == "video"
            #expect(byDefault.items.map(\.id) == (kept ? [id] : []), "ads and cards are left out by default")
            #expect(server.requests("/wire" + Toutiao.endpoint).map { $0.query ?? "" } == [Toutiao.firstQuery, Toutiao.firstQuery])

        case .brokenItem(let position, let reason):
            server.route("/wire" + Toutiao.endpoint, .text(Toutiao.wire([try Toutiao.fixture("upstream/home_02_no_image.json"), text])))
            let result = try await Toutiao.adapter(server, "/wire").fetch(in: Toutiao.context())
            #expect(result.items.map(\.id) == ["6462594562829140237"], "the good item is kept")
            #expect(
                result.problems.map(\.description) == [
                    "error: \(firstURL): data[1].content is not valid JSON at \(position): \(reason); the entry was skipped"
                ])

        case .feed(let ids, let skipped):
            server.route("/wire" + Toutiao.endpoint, .text(text))
            let result = try await Toutiao.adapter(server, "/wire", everything).fetch(in: Toutiao.context())
            #expect(result.items.map(\.id) == ids)
            #expect(result.problems.count == skipped)
            #expect(result.problems.allSatisfy { $0.message.hasSuffix("has no 'content'; the entry was skipped") })

        case .notTheFeed(let reason):
            server.route("/wire" + Toutiao.endpoint, .text(text))
            await #expect(throws: AdapterError("\(firstURL): \(reason)")) {
                _ = try await Toutiao.adapter(server, "/wire").fetch(in: Toutiao.context())
            }

        case .brokenResponse(let position, let reason):
            server.route("/wire" + Toutiao.endpoint, .text(text))
            await #expect(throws: AdapterError("\(firstURL): not valid JSON at \(position): \(reason)")) {
                _ = try await Toutiao.adapter(server, "/wire").fetch(in: Toutiao.context())
            }
        }
    }
}
