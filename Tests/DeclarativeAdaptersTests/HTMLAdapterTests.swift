import DeclarativeAdapters
import Foundation
import TestSupport
import Testing
import TributaryCore
import TributaryModel

/// `adapter: html` on a listing page served over loopback.
@Suite("html adapter")
struct HTMLAdapterTests {
    static func yaml(base: String, items: String = "//ul[@class='news']/li") -> String {
        """
        sources:
          - name: listing
            adapter: html
            url: \(base)/list/index.html
            items: "\(items)"
            fields:
              title: .//h2
              link: .//h2/a/@href
              published: {xpath: ./time, format: "yyyy年M月d日 HH:mm", timezone: Asia/Shanghai}
              summary: ./p[@class='summary']
              content: ./div[@class='body']
              image: .//img/@src
              categories: ./span[@class='tag']
              metrics: {comments: "substring-before(./span[@class='comments'], ' ')"}
        """
    }

    @Test func scrapesTheListingIntoItems() async throws {
        let server = try LoopbackServer()
        server.route("/list/index.html", try DeclarativeTestSupport.route("listing.html", contentType: "text/html; charset=utf-8"))
        let adapter = try DeclarativeTestSupport.adapter(Self.yaml(base: server.baseURL))
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context(name: "listing"))
        let first = Item(
            id: server.url("/news/101.html"), source: "listing", url: server.url("/news/101.html"), title: "第一条 新闻", summary: "摘要 一 & 更多",
            image: server.url("/list/img/101.jpg"), published: Date(timeIntervalSince1970: 1_709_618_580), tags: ["科技", "手机"],
            metrics: ["comments": 1234])
        let second = Item(
            id: "https://other.example/202", source: "listing", url: "https://other.example/202", title: "Second",
            contentHTML: "<div><p>Full <em>text</em></p></div>")
        #expect(result.items.count == 3)
        #expect(result.items.first == first)
        #expect(result.items.dropFirst().first == second)
        let third = try #require(result.items.last)
        #expect(third.title == "No link here" && third.url == nil && third.id.count == 16)
        #expect(
            result.problems.map(\.description) == [
                "warning: feeds.yaml:9:7: fields.published: cannot read 'not a date' as a date in \(server.url("/list/index.html")) item 2; no date"
            ])
    }

    /// Listing pages open their stories with `onclick` on `href="javascript:void(0)"`: such a link is no link, so
    /// each item keeps an id of its own (from its title) instead of three sharing `javascript:void(0)` as one.
    @Test func aJavaScriptLinkIsNoLinkAndNoId() async throws {
        let server = try LoopbackServer()
        let page = """
            <html><body><ul class="news">
            <li><h2><a href="javascript:void(0)" onclick="open(1)">第一条新闻标题关于经济</a></h2><img src="data:image/gif;base64,R0lG"/></li>
            <li><h2><a href="javascript:void(0)" onclick="open(2)">Second unrelated headline about sports</a></h2></li>
            <li><h2><a href="JaVaScRiPt:;" onclick="open(3)">Third story on weather tomorrow</a></h2></li>
            <li><h2><a href="vbscript:x">Fourth</a></h2></li>
            <li><h2><a href="/news/5.html">Fifth</a></h2></li>
            </ul></body></html>
            """
        server.route("/list/index.html", .text(page, contentType: "text/html; charset=utf-8"))
        let adapter = try DeclarativeTestSupport.adapter(Self.yaml(base: server.baseURL))
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context(name: "listing"))
        #expect(result.items.count == 5)
        #expect(result.items.map(\.url) == [nil, nil, nil, nil, server.url("/news/5.html")])
        #expect(Set(result.items.map(\.id)).count == 5)
        #expect(result.items.allSatisfy { $0.image == nil })
    }

    /// A link list (Hacker News, a linkblog): each row's discussion is the item's own page, its story elsewhere
    /// the `external_url`, resolved like any link, and a script link is none.
    @Test func aLinkListMapsTheStoryToTheExternalURL() async throws {
        let server = try LoopbackServer()
        let page = """
            <html><body><table>
            <tr class="row"><td><a class="story" href="https://news.example/a">A story</a></td><td><a href="item?id=1">12 comments</a></td></tr>
            <tr class="row"><td><a class="story" href="/local/b">Ask: a question</a></td><td><a href="item?id=2">3 comments</a></td></tr>
            <tr class="row"><td><a class="story" href="javascript:void(0)">Scripted</a></td><td><a href="item?id=3">0 comments</a></td></tr>
            </table></body></html>
            """
        server.route("/news/index.html", .text(page, contentType: "text/html; charset=utf-8"))
        let yaml = """
            sources:
              - name: links
                adapter: html
                url: \(server.baseURL)/news/index.html
                items: //tr[@class='row']
                fields:
                  title: .//a[@class='story']
                  url: ./td[2]/a/@href
                  external_url: .//a[@class='story']/@href
            """
        let result = try await DeclarativeTestSupport.adapter(yaml).fetch(in: DeclarativeTestSupport.context(name: "links"))
        #expect(result.items.map(\.url) == (1...3).map { server.url("/news/item?id=\($0)") })
        #expect(result.items.map(\.externalURL) == ["https://news.example/a", server.url("/local/b"), nil])
        #expect(result.problems.isEmpty, "\(result.problems)")
    }

    /// Items without a link are named by a hash of their title and date. A date that counts back from now
    /// (`5分钟前`) moved with the clock, so such an item got a new id at every run and came out again as new: it is
    /// now named by its title alone. An absolute date still tells two notices of one title apart.
    @Test func anItemWithoutALinkKeepsItsIdWhenItsDateCountsBackFromNow() async throws {
        let server = try LoopbackServer()
        let page = """
            <html><body><ul>
            <li><b>Notice: new office hours</b><span>5分钟前</span></li>
            <li><b>Weekly notice</b><span>2024-03-01 10:00</span></li>
            <li><b>Weekly notice</b><span>2024-02-23 10:00</span></li>
            <li><b>Yesterday's notice</b><span>昨天 08:00</span></li>
            </ul></body></html>
            """
        server.route("/notices.html", .text(page, contentType: "text/html; charset=utf-8"))
        let yaml = """
            sources:
              - {name: notices, adapter: html, url: "\(server.baseURL)/notices.html", items: //li, fields: {title: ./b, published: ./span}}
            """
        let adapter = try DeclarativeTestSupport.adapter(yaml)
        let now = Date(timeIntervalSince1970: 1_709_700_000)
        let first = try await adapter.fetch(in: DeclarativeTestSupport.context(name: "notices", now: now))
        let later = try await adapter.fetch(in: DeclarativeTestSupport.context(name: "notices", now: now.addingTimeInterval(3_700)))
        #expect(first.items.count == 4)
        #expect(first.items.map(\.id) == later.items.map(\.id))
        #expect(Set(first.items.map(\.id)).count == 4, "the two weekly notices stay two")
        #expect(first.items[0].published == now.addingTimeInterval(-300), "the date is still read")
    }

    /// An element's text was libxml2's whole text content, so the code of a `<script>` or the rules of a `<style>`
    /// inside a title (`HeadlinetrackClick()`) or author (`Ann.x{}`) ended up in the item. A field's text is now what a
    /// browser shows: script, style, template and noscript contents and comments left out (a field that selects such an
    /// element itself, say JSON-LD in a script, still reads its text).
    @Test func aFieldsTextLeavesOutScriptsStylesAndComments() async throws {
        let server = try LoopbackServer()
        let page = """
            <html><head><style>li { color: red }</style></head><body><ul>
            <li><b>Headline<script>trackClick()</script></b><i>Sum<script>ad()</script>mary</i><u>Ann<style>.x{}</style></u></li>
            <li><b><a href="/t/1">Row <!-- c --> one<script>var x = "injected";</script></a></b><i>S<template>hidden</template>\
            <noscript>Enable JavaScript</noscript>econd</i><u>Bo<!-- x -->b</u>\
            <script type="application/ld+json">{"id": 2}</script></li>
            </ul></body></html>
            """
        server.route("/list", .text(page, contentType: "text/html; charset=utf-8"))
        let yaml = """
            sources:
              - name: page
                adapter: html
                url: \(server.baseURL)/list
                items: //li
                fields:
                  title: ./b
                  summary: ./i
                  author: ./u
                  tags: .//a
                  extras: {data: "./script[@type='application/ld+json']"}
            """
        let result = try await DeclarativeTestSupport.adapter(yaml).fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.title) == ["Headline", "Row one"])
        #expect(result.items.map(\.summary) == ["Summary", "Second"])
        #expect(result.items.map { $0.authors.map(\.name) } == [["Ann"], ["Bob"]])
        #expect(result.items.last?.tags.first == "Row one")
        #expect(result.items.last?.extras["data"] == .string(#"{"id": 2}"#), "a script selected itself keeps its text")
    }

    /// A listing whose items never close their `<div>` nests one level deeper per item: libxml2 stopped at depth 256
    /// ("Excessive depth in document"), so a page of 400 items gave 254 and no word of the rest, where a browser shows
    /// all 400. Pages are now read to depth 1024; one nested deeper keeps what came before and says it was cut.
    @Test(arguments: [(400, false), (1100, true)])
    func itemsNestedDeepGiveEveryItemOrAWarning(count: Int, cut: Bool) async throws {
        let server = try LoopbackServer()
        let rows = (1...count).map { "<div class=\"it\"><a href=\"/n/\($0)\">新闻 \($0)</a>" }.joined(separator: "\n")
        server.route("/list", .text("<html><body>\(rows)</body></html>", contentType: "text/html; charset=utf-8"))
        let yaml = """
            sources:
              - name: deep
                adapter: html
                url: \(server.baseURL)/list
                items: "//div[@class='it']"
                fields: {title: ./a, url: ./a/@href}
            """
        let result = try await DeclarativeTestSupport.adapter(yaml).fetch(in: DeclarativeTestSupport.context())
        // <html> and <body> are open too; the item at depth 1024 loses its link, which is one level deeper.
        let read = cut ? 1024 - 3 : count
        #expect(result.items.map(\.title) == (1...read).map { "新闻 \($0)" })
        #expect(result.items.last?.url == server.url("/n/\(read)"))
        let warning = "warning: \(server.url("/list")): the page nests elements deeper than 1024; the rest of it was not read"
        #expect(result.problems.first?.description == (cut ? warning : nil), "\(result.problems)")
    }

    @Test func aPageWithNoItemsGivesAWarningAndNoItems() async throws {
        let server = try LoopbackServer()
        server.route("/list/index.html", .text("<html><body><p>Nothing today</p></body></html>", contentType: "text/html"))
        let adapter = try DeclarativeTestSupport.adapter(Self.yaml(base: server.baseURL))
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.isEmpty)
        #expect(
            result.problems.map(\.description) == [
                "warning: feeds.yaml:5:5: items: '//ul[@class='news']/li' selected nothing in \(server.url("/list/index.html"))"
            ])
    }

    @Test func anHTTPErrorFailsTheSource() async throws {
        let server = try LoopbackServer()
        server.route("/list/index.html", .status(503))
        let message = await DeclarativeTestSupport.failure(try DeclarativeTestSupport.adapter(Self.yaml(base: server.baseURL)))
        #expect(message == "\(server.url("/list/index.html")): HTTP 503 Service Unavailable")
    }

    @Test func followsTheNextLinkUntilThereIsNone() async throws {
        let server = try LoopbackServer()
        func page(_ number: Int, next: String?) -> LoopbackRoute {
            let link = next.map { "<a rel=\"next\" href=\"\($0)\">下一页</a>" } ?? ""
            return .text(
                "<html><body><ul><li><a href=\"/p/\(number)\">Post \(number)</a></li></ul>\(link)</body></html>",
                contentType: "text/html; charset=utf-8")
        }
        server.route("/list", page(1, next: "/list/2?x=1"))
        server.route("/list/2", page(2, next: "3"))
        server.route("/list/3", page(3, next: nil))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: paged
                adapter: html
                url: \(server.baseURL)/list
                items: //li
                fields: {title: ./a, url: ./a/@href}
                pagination: {next: "//a[@rel='next']/@href"}
                pages: 10
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.title) == ["Post 1", "Post 2", "Post 3"])
        #expect(server.allRequests.map { $0.path + ($0.query.map { "?" + $0 } ?? "") } == ["/list", "/list/2?x=1", "/list/3"])
        #expect(result.problems.isEmpty)
    }

    /// A last page whose next link points back to the first: the loop compared whole page states (link, page number,
    /// offset), which never repeat, so page 1 was fetched again and its warnings reported twice. A page whose request
    /// (URL after resolving, headers, body) was made before in the fetch is no longer fetched.
    @Test func aNextLinkBackToAPageAlreadyReadStops() async throws {
        let server = try LoopbackServer()
        server.route(
            "/list",
            .text(
                "<html><body><ul><li><a href=\"/p/1\">Post 1</a><time>not a date</time></li></ul><a rel=\"next\" href=\"list/2#top\">2</a></body></html>",
                contentType: "text/html; charset=utf-8"))
        server.route(
            "/list/2",
            .text(
                "<html><body><ul><li><a href=\"/p/2\">Post 2</a></li></ul><a rel=\"next\" href=\"../list\">1</a></body></html>",
                contentType: "text/html; charset=utf-8"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: paged
                adapter: html
                url: \(server.baseURL)/list
                items: //li
                fields: {title: ./a, url: ./a/@href, published: ./time}
                pagination: {next: "//a[@rel='next']/@href"}
                pages: 10
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.title) == ["Post 1", "Post 2"])
        #expect(server.allRequests.map(\.path) == ["/list", "/list/2"])
        #expect(
            result.problems.map(\.description) == [
                "warning: feeds.yaml:6:42: fields.published: cannot read 'not a date' as a date in \(server.url("/list")) item 1; no date"
            ])
    }

    /// Numbered pages end at a page with no items, the documented way the reading stops; that page was reported as
    /// `items: … selected nothing` on every run. Only a first page that selects nothing warns now.
    @Test func anEmptyPageAfterTheFirstEndsThePagesWithoutAWarning() async throws {
        let server = try LoopbackServer()
        for number in 1...2 {
            server.route(
                "/end\(number).html",
                .text(
                    "<html><body><div class=\"post\"><a href=\"/p/\(number)\">Post \(number)</a></div></body></html>",
                    contentType: "text/html; charset=utf-8"))
        }
        server.route("/end3.html", .text("<html><body><p>没有更多了</p></body></html>", contentType: "text/html; charset=utf-8"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: paged
                adapter: html
                url: \(server.baseURL)/end{page}.html
                items: "//div[@class='post']"
                fields: {title: ./a, url: ./a/@href}
                pagination: {page: true}
                pages: 5
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.title) == ["Post 1", "Post 2"])
        #expect(server.allRequests.map(\.path) == ["/end1.html", "/end2.html", "/end3.html"])
        #expect(result.problems.isEmpty, "\(result.problems)")
    }

    /// Big5, Shift_JIS and EUC-KR titles, declared only in the page (the server sends no charset).
    @Test(arguments: [
        ("<meta charset=\"big5\">", "c163c5e9a4a4a4e5bcd0c344", "繁體中文標題"),
        ("<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=Shift_JIS\">", "93fa967b8cea82cc835e83438367838b", "日本語のタイトル"),
        ("<meta http-equiv='content-type' content='text/html;charset=euc-kr' />", "c7d1b1b9beee20c1a6b8f1", "한국어 제목"),
    ])
    func readsTheCharsetThePageDeclares(_ meta: String, _ hex: String, _ title: String) async throws {
        let server = try LoopbackServer()
        let encoded = stride(from: 0, to: hex.count, by: 2).map { offset in
            UInt8(hex.dropFirst(offset).prefix(2), radix: 16) ?? 0
        }
        let page =
            Array("<html><head>\(meta)<title>x</title></head><body><ul><li><a href=\"/1\">".utf8) + encoded
            + Array("</a></li></ul></body></html>".utf8)
        server.route("/list", .ok(body: page, contentType: "text/html"))
        let adapter = try DeclarativeTestSupport.adapter(
            "sources:\n  - {name: page, adapter: html, url: \(server.baseURL)/list, items: //li, fields: {title: ./a, url: ./a/@href}}")
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.title) == [title])
        #expect(result.problems.isEmpty, "the declared charset decodes it: \(result.problems)")
    }

    @Test func linksResolveAgainstThePagesBaseHref() async throws {
        let server = try LoopbackServer()
        server.route(
            "/list",
            .text(
                """
                <html><head><base href="\(server.url("/base/"))"></head><body>
                <ul><li><a href="post/1">One</a><img src="img/a.png"></li></ul><a rel="next" href="page2">next</a></body></html>
                """, contentType: "text/html; charset=utf-8"))
        server.route(
            "/base/page2", .text("<html><body><ul><li><a href=\"post/2\">Two</a></li></ul></body></html>", contentType: "text/html"))
        let yaml = """
            sources:
              - name: page
                adapter: html
                url: \(server.baseURL)/list
                items: //li
                fields: {title: ./a, url: ./a/@href, image: ./img/@src}
                pagination: {next: "//a[@rel='next']/@href"}
                pages: 2
            """
        let result = try await DeclarativeTestSupport.adapter(yaml).fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.url) == [server.url("/base/post/1"), server.url("/base/post/2")])
        #expect(result.items.first?.image == server.url("/base/img/a.png"))
        #expect(server.allRequests.map(\.path) == ["/list", "/base/page2"], "the next link resolves against the base too")
    }

    /// A `<base href>` that is no web page (a local file, a script, `http:` without a host) is ignored: links resolve
    /// against the page's own URL, as they would without it.
    @Test(arguments: ["file:///etc/", "javascript:alert(1)//", "http:/nohost/", "https://"])
    func aBaseHrefThatIsNoWebPageIsIgnored(_ base: String) async throws {
        let server = try LoopbackServer()
        server.route(
            "/dir/list",
            .text(
                "<html><head><base href=\"\(base)\"></head><body><ul><li><a href=\"post/1\">One</a></li></ul></body></html>",
                contentType: "text/html"))
        let yaml =
            "sources:\n  - {name: page, adapter: html, url: \(server.baseURL)/dir/list, items: //li, fields: {title: ./a, url: ./a/@href}}"
        let result = try await DeclarativeTestSupport.adapter(yaml).fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.url) == [server.url("/dir/post/1")])
    }

    /// A page from the web decides where its next link points: one to a local file (`file:///etc/passwd`, or a
    /// path resolved against a `file:` base) was read and published, and a FIFO hung the run. Only http(s) is followed.
    @Test func aNextLinkToALocalFileIsNotFollowed() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("<html><body><ul><li><a href='/x'>SECRET local line</a></li></ul></body></html>", to: "secret.html")
        let secret = folder.url.appendingPathComponent("secret.html").absoluteString
        for next in [secret, "javascript:void(0)"] {
            let server = try LoopbackServer()
            server.route(
                "/list",
                .text(
                    "<html><body><ul><li><a href=\"/a\">Web item</a></li></ul><a rel=\"next\" href=\"\(next)\">next</a></body></html>",
                    contentType: "text/html"))
            let yaml = """
                sources:
                  - name: page
                    adapter: html
                    url: \(server.baseURL)/list
                    items: //li
                    fields: {title: ./a, url: ./a/@href}
                    pagination: {next: "//a[@rel='next']/@href"}
                    pages: 3
                """
            let result = try await DeclarativeTestSupport.adapter(yaml).fetch(in: DeclarativeTestSupport.context())
            #expect(result.items.map(\.title) == ["Web item"])
            let warnings = result.problems.map(\.message).filter { $0.contains("next page's link") }
            if next == secret {
                #expect(warnings.count == 1 && warnings[0].contains("is not an http(s) URL"), "\(warnings)")
            } else {
                #expect(warnings.isEmpty, "javascript:void(0) is the usual last page: \(warnings)")
            }
        }
    }

    /// `{cursor}` in an html source's request was empty on the first page and a whole URL after it: the adapter follows
    /// next links as they are. It is a configuration error at its line now.
    @Test func aCursorInAnHTMLRequestIsAConfigurationError() {
        let yaml = Self.yaml(base: "http://127.0.0.1:9").replacingOccurrences(of: "/list/index.html", with: "/list/{cursor}.html")
        #expect(
            DeclarativeTestSupport.errors(yaml) == [
                "feeds.yaml:4:5: error: source 'listing': {cursor} is never filled by the html adapter: it follows 'pagination.next' links as they are, or counts {page}"
            ])
    }

    @Test func aBadXPathIsAConfigurationErrorAtItsLine() {
        let yaml = Self.yaml(base: "http://127.0.0.1:9", items: "//li[")
        #expect(
            DeclarativeTestSupport.errors(yaml) == [
                "feeds.yaml:5:5: error: source 'listing': 'items': '//li[' is not a valid XPath 1.0 expression"
            ])
        let field = Self.yaml(base: "http://127.0.0.1:9").replacingOccurrences(of: "title: .//h2", with: "title: .//h2[")
        #expect(
            DeclarativeTestSupport.errors(field) == [
                "feeds.yaml:7:14: error: source 'listing': 'fields.title': './/h2[' is not a valid XPath 1.0 expression"
            ])
    }

    /// libxml2 compiles a call of any name and looks the function up only when the call is
    /// evaluated: without this check a typo in a predicate passed `check`, and failed only on
    /// pages where the predicate was reached.
    @Test func aFunctionXPathDoesNotHaveIsAConfigurationErrorAtItsLine() {
        func errors(items: String) -> [String] {
            DeclarativeTestSupport.errors(Self.yaml(base: "http://127.0.0.1:9", items: items))
        }
        #expect(
            errors(items: "//li[contians(@class, 'news')]") == [
                "feeds.yaml:5:5: error: source 'listing': 'items': '//li[contians(@class, 'news')]' calls contians(), "
                    + "which is not an XPath 1.0 function; did you mean contains()?"
            ])
        #expect(
            errors(items: "//li[ends-with(@id, 'x')]") == [
                "feeds.yaml:5:5: error: source 'listing': 'items': '//li[ends-with(@id, 'x')]' calls ends-with(), a function "
                    + "of XPath 2.0 or later; libxml2 evaluates XPath 1.0 (substring(s, string-length(s) - string-length(t) + 1) = t "
                    + "tests the end of s)"
            ])
        #expect(
            errors(items: "//li[fn:exists(a)]") == [
                "feeds.yaml:5:5: error: source 'listing': 'items': '//li[fn:exists(a)]' calls fn:exists(), a function in a "
                    + "namespace; no namespace prefixes are defined, only XPath 1.0's own functions"
            ])
        let field = Self.yaml(base: "http://127.0.0.1:9").replacingOccurrences(
            of: "substring-before(./span", with: "substring-befor(./span")
        #expect(
            DeclarativeTestSupport.errors(field) == [
                "feeds.yaml:14:27: error: source 'listing': 'fields.metrics.comments': "
                    + "'substring-befor(./span[@class='comments'], ' ')' calls substring-befor(), which is not an XPath 1.0 "
                    + "function; did you mean substring-before()?"
            ])
    }

    /// What is a call and what is not, by XPath 1.0's lexical rules: node-type tests, operator
    /// names after an operand, axis names, names in literals and variables are not calls.
    @Test(arguments: [
        ("//li[count(a) > 1 and not(@hidden)]", ["count", "not"]),
        ("//a[text()]/@href | //b/node() | //comment() | //processing-instruction('x')", []),
        ("count(//a) div 2 mod 3", ["count"]),
        ("//div[@class = 'f(x)' or @id = 'g( )']", []),
        ("child::p[position() = last()]/following-sibling :: span", ["position", "last"]),
        ("//and[or][div and mod]", []),
        ("//li[ string-length ( normalize-space(.) ) > 0 ]", ["string-length", "normalize-space"]),
        ("$page * 2 - sum(//x/@n)", ["sum"]),
        ("//*[local-name() = 'entry']/ns:*", ["local-name"]),
        ("//项目[starts-with(名字, '新')]", ["starts-with"]),
        ("2*count(x)", ["count"]),
    ])
    func functionCallsAreFoundByTheLexicalRules(expression: String, calls: [String]) {
        let yaml = Self.yaml(base: "http://127.0.0.1:9", items: expression)
        #expect(DeclarativeTestSupport.errors(yaml) == [], "\(expression) calls only \(calls), all XPath 1.0")
        if let first = calls.first, let range = expression.range(of: first) {
            let misspelt = expression.replacingCharacters(in: range, with: first + "x")
            let errors = DeclarativeTestSupport.errors(Self.yaml(base: "http://127.0.0.1:9", items: misspelt))
            #expect(errors.count == 1 && errors[0].contains("calls \(calls[0])x()"), "\(misspelt): \(errors)")
        }
    }
}
