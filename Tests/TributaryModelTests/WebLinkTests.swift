import Testing
import TributaryModel

/// Which links are republished: web links for items and images, and a few more schemes for enclosures and authors.
@Suite("WebLink")
struct WebLinkTests {
    @Test(
        "pages and images: absolute http(s) with a host; a space, quote or angle bracket escaped, controls refused",
        arguments: [
            ("https://a.example/x?y=1#z", "https://a.example/x?y=1#z"), ("HTTP://A.example", "HTTP://A.example"),
            ("  https://a.example/ \n", "https://a.example/"), ("javascript:alert(1)", nil), ("JaVaScRiPt:void(0)", nil),
            ("vbscript:x", nil), ("data:text/html,<script>", nil), ("file:///etc/passwd", nil), ("/relative", nil),
            ("relative.html", nil), ("http://", nil), ("https:///path", nil), ("https://a.example/a b", "https://a.example/a%20b"),
            ("https://a.example/\"onload <x>", "https://a.example/%22onload%20%3Cx%3E"), ("https://a.example/\u{1}x", nil),
            ("https://新闻.example/路径", "https://新闻.example/路径"), ("", nil), ("magnet:?xt=urn:btih:1", nil), ("mailto:a@b.example", nil),
        ] as [(String, String?)])
    func page(text: String, expected: String?) {
        #expect(WebLink.page(text) == expected)
    }

    /// A source's URL may carry a user name and password (or a token as the user name), and relative links resolved
    /// against it inherit them: no published link carries them, nor a host before an `@` it does not lead to.
    @Test(
        "the user name and password before a host are taken out",
        arguments: [
            ("http://user:s3cret@127.0.0.1:8080/feed.xml", "http://127.0.0.1:8080/feed.xml"),
            ("https://ghp_TOKEN@example.org/a?b=1", "https://example.org/a?b=1"),
            ("https://bank.example@evil.example/", "https://evil.example/"),
            ("https://a:b@c@d.example/x", "https://d.example/x"), ("https://user@/path", nil), ("https://user:pw@", nil),
            ("https://user:pw@host.example/a b", "https://host.example/a%20b"),
            ("https://medium.example/@ann/post", "https://medium.example/@ann/post"),
            ("https://a.example/p?mail=x@y.example", "https://a.example/p?mail=x@y.example"),
            ("https://a.example#@b", "https://a.example#@b"),
        ] as [(String, String?)])
    func userInformation(text: String, expected: String?) {
        #expect(WebLink.page(text) == expected)
        #expect(WebLink.isClean(Item(id: "1", source: "s", url: text)) == (expected == text))
    }

    @Test("enclosures and author links lose credentials too; magnet: and mailto: keep their @ and their own URLs")
    func userInformationInOtherLinks() {
        #expect(WebLink.enclosure("ftp://anonymous:me@ftp.example.org/a.iso") == "ftp://ftp.example.org/a.iso")
        #expect(WebLink.enclosure("https://u:p@cdn.example/a.mp3") == "https://cdn.example/a.mp3")
        #expect(
            WebLink.enclosure("magnet:?xt=urn:btih:1&tr=udp://u:p@tracker.example:1337")
                == "magnet:?xt=urn:btih:1&tr=udp://u:p@tracker.example:1337")
        #expect(WebLink.author("mailto:ann@example.org") == "mailto:ann@example.org")
        #expect(WebLink.author("https://ann:pw@ann.example/") == "https://ann.example/")
    }

    @Test("enclosures may also be magnet: and ftp: links; authors mailto:")
    func enclosuresAndAuthors() {
        #expect(WebLink.enclosure("magnet:?xt=urn:btih:c9e15763f722f23e98a29decdfae341b98d53056") != nil)
        #expect(WebLink.enclosure("ftp://ftp.example.org/a.iso") == "ftp://ftp.example.org/a.iso")
        #expect(WebLink.enclosure("javascript:alert(2)") == nil)
        #expect(WebLink.enclosure("data:audio/mpeg;base64,AAAA") == nil)
        #expect(WebLink.author("mailto:ann@example.org") == "mailto:ann@example.org")
        #expect(WebLink.author("https://ann.example/") == "https://ann.example/")
        #expect(WebLink.author("javascript:1") == nil)
    }

    @Test("an item is clean exactly when page() keeps its links as they are (the fast byte check agrees with the long way)")
    func fastCheckAgrees() {
        let pieces = [
            "http://", "https://", "HTTPS://", "a.example", "/", "?q=1", "#f", " ", "\"", "<", ">", "\u{1}", "\u{7F}", "é", "\u{3000}",
            "@", ":", "path", "0123456789", "javascript:", "\t",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<5000 {
            var link = ""
            for _ in 0..<(1 + next(8)) { link += pieces[next(pieces.count)] }
            let item = Item(id: "1", source: "s", url: link)
            #expect(WebLink.isClean(item) == (WebLink.page(link) == link), "\(link.debugDescription)")
        }
    }
}
