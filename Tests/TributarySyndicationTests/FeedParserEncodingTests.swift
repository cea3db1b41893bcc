import Foundation
import Testing
import TributaryModel
import TributarySyndication

@Suite("FeedParser: character encodings")
struct FeedParserEncodingTests {
    private typealias Fixtures = FeedParserFixtures

    private static let simplifiedTitles = ["开源软件的新版本发布了", "镕镕：一个只有 GBK 有的字"]

    @Test func gb2312DeclaredCorrectly() throws {
        let feed = try Fixtures.parse("chinese-gb2312.xml")
        #expect(feed.info.title == "科技新闻")
        #expect(feed.info.description == "每日科技新闻摘要")
        #expect(feed.items.map(\.title) == FeedParserEncodingTests.simplifiedTitles)
        #expect(feed.items.first?.summary == "今天，开源社区发布了新版本。")
        #expect(feed.items.first?.authors == [Author(name: "编辑部")])
        #expect(feed.items.first?.tags == ["开源"])
        #expect(feed.problems.isEmpty, "\(feed.problems)")
    }

    @Test(
        arguments: [
            ("chinese-gbk-no-declaration.xml", nil, "read as GB18030"),
            ("chinese-gbk-declared-utf8.xml", nil, "the document declares UTF-8, but the bytes are not valid UTF-8; read as GB18030"),
            ("chinese-utf8-declared-gbk.xml", nil, "the document declares GB18030, but the bytes are valid UTF-8; read as UTF-8"),
            ("chinese-gb2312.xml", "utf-8", "the HTTP charset says UTF-8, but the bytes are not valid UTF-8; read as GB18030"),
        ] as [(String, String?, String)])
    func wrongOrMissingDeclarations(file: String, httpCharset: String?, warning: String) throws {
        let feed = try Fixtures.parse(file, charset: httpCharset)
        #expect(feed.info.title == "科技新闻")
        #expect(feed.items.map(\.title) == FeedParserEncodingTests.simplifiedTitles)
        let problems = Fixtures.problems(feed, containing: warning)
        #expect(problems.count == 1, "\(feed.problems)")
        #expect(problems.allSatisfy { $0.severity == .warning })
    }

    @Test func latinHTTPCharsetDoesNotOverrideAChineseDeclaration() throws {
        let feed = try Fixtures.parse("chinese-gb2312.xml", charset: "ISO-8859-1")
        #expect(feed.items.map(\.title) == FeedParserEncodingTests.simplifiedTitles)
    }

    @Test func big5() throws {
        let feed = try Fixtures.parse("chinese-big5.xml")
        #expect(feed.info.title == "科技新聞")
        #expect(feed.info.language == "zh-TW")
        #expect(feed.items.map(\.title) == ["開源軟體的新版本發佈了", "繁體中文"])
        #expect(feed.problems.isEmpty, "\(feed.problems)")
    }

    @Test(arguments: ["utf16le-bom.xml", "utf16be-bom.xml"])
    func utf16WithByteOrderMark(file: String) throws {
        let feed = try Fixtures.parse(file)
        #expect(feed.format == .atom)
        #expect(feed.info.title == "UTF-16 ünïcödé 日本語")
        #expect(feed.items.first?.title == "Ελληνικά και 中文")
        #expect(feed.items.first?.url == "https://utf16.example.com/1")
        #expect(feed.problems.isEmpty, "\(feed.problems)")
    }

    @Test func windows1252DeclaredAsUTF8() throws {
        let feed = try Fixtures.parse("latin1-declared-utf8.xml")
        #expect(feed.info.title == "Café crème")
        #expect(feed.items.first?.title == "Été – naïve résumé")
        #expect(
            Fixtures.problems(feed, containing: "declares UTF-8, but the bytes are not valid UTF-8; read as WINDOWS-1252").count == 1,
            "\(feed.problems)")
    }

    @Test func httpCharsetIsUsedForUndeclaredDocuments() throws {
        let text = "<rss version=\"2.0\"><channel><title>Привет</title></channel></rss>"
        let bytes = try #require(text.data(using: .windowsCP1251))
        let feed = try Fixtures.parse(bytes: Array(bytes), charset: "windows-1251")
        #expect(feed.info.title == "Привет")
        #expect(feed.problems.isEmpty)
    }

    @Test func unknownLabelsAreReported() throws {
        let feed = try Fixtures.parse(
            bytes: Array("<?xml version=\"1.0\" encoding=\"x-made-up\"?><rss><channel><title>caf\u{E9}</title></channel></rss>".utf8))
        #expect(feed.info.title == "café")
        #expect(feed.problems.count == 1)
        #expect(feed.problems.first?.message.contains("X-MADE-UP") == true)
    }
}

@Suite("FeedParser: declared legacy encodings")
struct FeedParserLegacyEncodingTests {
    @Test(arguments: [
        ("Shift_JIS", [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA] as [UInt8], "日本語"),
        ("EUC-JP", [0xC6, 0xFC, 0xCB, 0xDC, 0xB8, 0xEC], "日本語"),
        ("EUC-KR", [0xC7, 0xD1, 0xB1, 0xB9, 0xBE, 0xEE], "한국어"),
        ("ISO-8859-2", [0xA3, 0xF3, 0x64, 0xBC], "Łódź"),
        ("windows-1250", [0xA3, 0xF3, 0x64, 0x9F], "Łódź"),
        ("ISO-8859-5", [0xBF, 0xE0, 0xD8, 0xD2, 0xD5, 0xE2], "Привет"),
        ("KOI8-R", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет"),
        ("GB18030", [0x81, 0x30, 0x89, 0x38, 0x94, 0x39, 0xFC, 0x36], "ß😀"),
    ])
    func declaredEncoding(label: String, titleBytes: [UInt8], expected: String) throws {
        let bytes =
            Array("<?xml version=\"1.0\" encoding=\"\(label)\"?><rss version=\"2.0\"><channel><title>".utf8) + titleBytes
            + Array("</title></channel></rss>".utf8)
        let feed = try FeedParserFixtures.parse(bytes: bytes)
        #expect(feed.info.title == expected)
        #expect(feed.problems.isEmpty, "\(feed.problems)")
    }
}
