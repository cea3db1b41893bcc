import DeclarativeAdapters
import Foundation
import QdailyAdapter
import TestSupport
import Testing
import TributaryCore
import TributaryModel

/// `adapter: json` on fixtures served over loopback: the mapping language, pagination, empty
/// pages and the errors a user meets when a mapping is wrong.
@Suite("json adapter")
struct JSONAdapterTests {
    /// The Qdaily home feed described in YAML alone.
    static func qdailyYAML(base: String, pages: Int) -> String {
        """
        sources:
          - name: qdaily
            adapter: json
            url: \(base)/app3/homes/index/{cursor}.json
            items: response.feeds[*]
            fields:
              id: "{post.datatype}:{post.id}"
              title: post.title
              summary: post.description
              url: post.appview
              image: [post.image, image]
              published: {path: post.publish_time, convert: unix}
              tags: [post.category.title, post.super_tag]
              author: post.column.name
              author_url: post.column.share.url
              author_avatar: post.column.icon
              metrics:
                comments: post.comment_count
                likes: post.praise_count
                participants: post.record_count
              extras:
                card_type: type
            pagination:
              cursor: response.last_key
              has_more: response.has_more
              start: "0"
            pages: \(pages)
        """
    }

    /// The real first page, the reconstructed second and the empty last page.
    static func qdailyServer() throws -> LoopbackServer {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", try DeclarativeTestSupport.route("homes0.json"))
        server.route("/app3/homes/index/1500282425_1500287444.json", try DeclarativeTestSupport.route("homes_index_page2.json"))
        server.route("/app3/homes/index/1478777270_1478790123.json", try DeclarativeTestSupport.route("homes_index_last_page.json"))
        return server
    }

    @Test func reproducesTheQdailyAdaptersItemsFromTheSameResponses() async throws {
        let server = try Self.qdailyServer()
        let declarative = try DeclarativeTestSupport.adapter(Self.qdailyYAML(base: server.baseURL, pages: 5))
        let mapped = try await declarative.fetch(in: DeclarativeTestSupport.context(name: "qdaily"))

        let options = AdapterOptions(
            file: "feeds.yaml", sourceName: "qdaily",
            values: ["base_url": .url(try #require(URL(string: server.baseURL))), "pages": .integer(5), "feed": .string("home")])
        let compiled = try await QdailyAdapter(options: options).fetch(in: DeclarativeTestSupport.context(name: "qdaily"))

        #expect(mapped.problems.isEmpty, "\(mapped.problems)")
        #expect(mapped.items.count == 32)
        #expect(mapped.items.count == compiled.items.count)
        for (ours, theirs) in zip(mapped.items, compiled.items) {
            #expect(ours == theirs)
        }
        // Both walked the three pages and stopped at the empty one.
        #expect(server.requestCount("/app3/homes/index/1478777270_1478790123.json") == 2)
    }

    @Test(
        arguments: [
            ("a.name", "plain"),
            ("$[0].a.name", "plain"),
            (#"a["b.c"]"#, "dots"),
            ("a['b.c']", "dots"),
            ("a.list[0]", "1"),
            ("a.list[-1]", "last"),
            ("a.list[*]", "1"),
            ("a.*", "plain"),
            ("s.@json.x", "inner"),
            ("n", "12.50"),
            ("t", "true"),
            ("$.missing", nil),
            ("a.list[9]", nil),
            ("a.name.deeper", nil),
        ] as [(String, String?)])
    func pathsWalkObjectsListsAndJSONText(path: String, expected: String?) async throws {
        let server = try LoopbackServer()
        let document = #"[{"a":{"name":"plain","b.c":"dots","list":[1,2,"last"]},"s":"{\"x\":\"inner\"}","n":12.50,"t":true}]"#
        server.route("/p", .text(document, contentType: "application/json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: paths
                adapter: json
                url: \(server.baseURL)/p
                items: $[*]
                fields:
                  id: {value: one}
                  title:
                    path: |-
                      \(path)
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.first?.title == expected)
    }

    @Test func paginationStopsAtHasMoreFalse() async throws {
        let server = try LoopbackServer()
        server.route(
            "/list",
            .handler { request in
                let page = request.query?.split(separator: "=").last.map(String.init) ?? "?"
                let more = page == "1" ? "true" : "false"
                return LoopbackResponse(text: #"{"data":{"has_more":\#(more),"items":[{"id":"p\#(page)","title":"Page \#(page)"}]}}"#)
            })
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: paged
                adapter: json
                url: \(server.baseURL)/list
                query: {page: "{page}"}
                items: data.items
                fields: {id: id, title: title}
                pagination: {page: true, has_more: data.has_more}
                pages: 10
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.id) == ["p1", "p2"])
        #expect(server.allRequests.map { $0.query ?? "" } == ["page=1", "page=2"])
    }

    /// An API that answers its last page with the cursor it was asked for: the loop compared whole page states (cursor,
    /// page number, offset), which never repeat, so the page was fetched again, although a repeated cursor is documented
    /// to stop the reading. A request made before in the fetch is no longer made again.
    @Test func aRepeatedCursorIsNotFetchedAgain() async throws {
        let server = try LoopbackServer()
        server.route(
            "/list",
            .handler { request in
                let cursor = request.query?.split(separator: "=", omittingEmptySubsequences: false).last.map(String.init) ?? ""
                let id = cursor.isEmpty ? "first" : "after-\(cursor)"
                return LoopbackResponse(text: #"{"next":"c1","items":[{"id":"\#(id)"}]}"#)
            })
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: paged
                adapter: json
                url: \(server.baseURL)/list?cursor={cursor}
                items: items
                fields: {id: id}
                pagination: {cursor: next}
                pages: 10
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.id) == ["first", "after-c1"])
        #expect(server.allRequests.map { $0.query ?? "" } == ["cursor=", "cursor=c1"])
        #expect(result.problems.isEmpty, "\(result.problems)")
    }

    @Test func aHasMorePathThatFindsNothingStopsWithAWarning() async throws {
        let server = try LoopbackServer()
        server.route("/list", .text(#"{"more":true,"items":[{"id":"a"}]}"#, contentType: "application/json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: paged
                adapter: json
                url: \(server.baseURL)/list?page={page}
                items: items
                fields: {id: id}
                pagination: {page: true, has_more: has_more}
                pages: 3
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.id) == ["a"])
        #expect(
            result.problems.map(\.description) == [
                "warning: \(server.url("/list?page=1")): has_more: 'has_more' found nothing (the response has no key 'has_more' (keys: more, items)); stopping here"
            ])
    }

    @Test(arguments: [
        #"{"data":{"items":[]}}"#,
        #"{"data":{"items":null}}"#,
        #"{"data":{"items":{}}}"#,
    ])
    func anEmptyListIsNoItemsAndNoProblem(body: String) async throws {
        let server = try LoopbackServer()
        server.route("/empty", .text(body, contentType: "application/json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: empty
                adapter: json
                url: \(server.baseURL)/empty
                items: data.items[*]
                fields: {id: id, title: title}
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.isEmpty)
        #expect(result.problems.isEmpty)
    }

    @Test func readsJSONInsideJSONDatesAndCountsAndSendsThePOST() async throws {
        let server = try LoopbackServer()
        server.route("/api/feed", try DeclarativeTestSupport.route("toutiao_like.json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: toutiao
                adapter: json
                url: \(server.baseURL)/api/feed
                method: POST
                headers: {X-Token: "{token}"}
                body: '{"category": "{category}"}'
                variables: {token: abc, category: news_tech}
                items: data[*].content.@json
                fields:
                  id: "toutiao:{item_id}"
                  title: {path: title, convert: html_to_text}
                  link: "https://www.toutiao.com/a{item_id}/"
                  description: abstract
                  pubDate: {path: publish_time_ms, convert: unix_ms}
                  author: source
                  category: [tag, {value: 头条}]
                  metrics: {comments: comment_count}
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context(name: "toutiao"))
        #expect(
            result.items == [
                Item(
                    id: "toutiao:7342001", source: "toutiao", url: "https://www.toutiao.com/a7342001/", title: "第一条 & 更多", summary: "摘要 一",
                    authors: [Author(name: "新华社")], published: Date(timeIntervalSince1970: 1_709_618_580), tags: ["news_tech", "头条"],
                    metrics: ["comments": 12000]),
                Item(
                    id: "toutiao:7342002", source: "toutiao", url: "https://www.toutiao.com/a7342002/", title: "第二条",
                    published: Date(timeIntervalSince1970: 1_709_618_000), tags: ["头条"], metrics: ["comments": 12]),
            ])
        #expect(
            result.problems.map(\.description) == [
                "error: feeds.yaml:11:7: fields.id: no value in \(server.url("/api/feed")) item 3 (data[*].content.@json[2]) "
                    + "('item_id': the item has no key 'item_id' (keys: title)); item skipped"
            ])
        let request = try #require(server.allRequests.first)
        #expect(request.method == "POST")
        #expect(request.header("X-Token") == "abc")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.bodyText == #"{"category": "news_tech"}"#)
    }

    /// An entry whose `@json` text is not valid JSON is skipped with a warning naming it and where its JSON breaks, as the
    /// Toutiao adapter does. It was dropped silently: a feed lost items and the run said nothing.
    @Test func anEntryWhoseJSONTextIsInvalidIsAWarningNamingIt() async throws {
        let server = try LoopbackServer()
        server.route(
            "/feed",
            .text(
                #"{"data":[{"content":"{\"id\":1,\"title\":\"a\"}"},{"content":"{bad json"},{"content":{"id":3,"title":"c"}}]}"#,
                contentType: "application/json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: toutiao
                adapter: json
                url: \(server.baseURL)/feed
                items: data[*].content.@json
                fields: {id: id, title: title}
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context(name: "toutiao"))
        #expect(result.items.map(\.id) == ["1", "3"])
        #expect(
            result.problems.map(\.description) == [
                "warning: feeds.yaml:5:5: items: \(server.url("/feed")): data[1].content is not valid JSON at 1:2: "
                    + "expected a quoted object key or '}'; the entry was skipped"
            ])
    }

    /// The response is read in the charset its `Content-Type` names. The adapter parsed the bytes as UTF-8 whatever the
    /// server said, so a GBK API gave mojibake titles without a warning; a charset that cannot be decoded fails the
    /// source saying so, rather than guessing.
    @Test func readsTheResponseInTheCharsetTheServerNames() async throws {
        let server = try LoopbackServer()
        // {"list":[{"id":1,"title":"天气","author":{"name":"张三"}}]} in GBK.
        let gbk =
            Array(#"{"list":[{"id":1,"title":""#.utf8) + [0xCC, 0xEC, 0xC6, 0xF8] + Array(#"","author":{"name":""#.utf8)
            + [0xD5, 0xC5, 0xC8, 0xFD] + Array(#""}}]}"#.utf8)
        server.route("/gbk", .ok(body: gbk, contentType: "application/json; charset=gbk"))
        server.route("/unknown", .ok(body: gbk, contentType: "application/json; charset=x-klingon"))
        server.route(
            "/ascii", .ok(body: Array(#"{"list":[{"id":2,"title":"t"}]}"#.utf8), contentType: "application/json; charset=x-klingon"))
        func adapter(_ path: String) throws -> any SourceAdapter {
            try DeclarativeTestSupport.adapter(
                """
                sources:
                  - name: gbk
                    adapter: json
                    url: \(server.baseURL)\(path)
                    items: list
                    fields: {id: id, title: title, author: author.name}
                """)
        }
        let result = try await adapter("/gbk").fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.title) == ["天气"])
        #expect(result.items.map(\.authors) == [[Author(name: "张三")]])
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(
            await DeclarativeTestSupport.failure(try adapter("/unknown"))
                == "\(server.url("/unknown")): the HTTP charset 'x-klingon' is not an encoding this system can decode, and the bytes are not UTF-8"
        )
        let ascii = try await adapter("/ascii").fetch(in: DeclarativeTestSupport.context())
        #expect(ascii.items.map(\.title) == ["t"])
    }

    /// Values fill a body encoded for its type: percent-encoded in a form, escaped in a JSON string, as they are in
    /// another type the headers name.
    @Test(arguments: [
        ("kw={kw}&z=1", "", "kw=a%26b%3Dc%20%E4%B8%AD%2B%2F%3D%22%5C&z=1", "application/x-www-form-urlencoded"),
        (#"{"kw": "{kw}", "n": {n}}"#, "", #"{"kw": "a&b=c 中+/=\"\\", "n": 7}"#, "application/json"),
        ("{kw}", "text/plain", #"a&b=c 中+/="\"#, "text/plain"),
        ("q={kw}", "application/x-www-form-urlencoded; charset=utf-8", "q=a%26b%3Dc%20%E4%B8%AD%2B%2F%3D%22%5C", nil),
    ])
    func bodyValuesAreEncodedForTheBodysType(body: String, contentType: String, sent: String, addedType: String?) async throws {
        let server = try LoopbackServer()
        server.route("/api", .text(#"{"items": [{"id": 1, "title": "x"}]}"#, contentType: "application/json"))
        let headers = contentType.isEmpty ? "" : "\n    headers: {Content-Type: '\(contentType)'}"
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: s
                adapter: json
                url: \(server.baseURL)/api
                method: POST\(headers)
                body: '\(body.replacingOccurrences(of: "'", with: "''"))'
                variables: {kw: 'a&b=c 中+/="\\', n: '7'}
                items: items[*]
                fields: {id: id, title: title}
            """)
        _ = try await adapter.fetch(in: DeclarativeTestSupport.context(name: "s"))
        let request = try #require(server.allRequests.first)
        #expect(request.bodyText == sent)
        #expect(request.header("Content-Type") == addedType ?? contentType)
    }

    /// A body is sent as written apart from its `{name}` holes. `}}` was read as an escaped brace, so a JSON body ending
    /// in `}}` lost a brace and the server got invalid JSON; `"{{literal}}"` lost two. The README promises that JSON
    /// braces need no escaping.
    @Test(arguments: [
        (#"{"filter": {"type": "news"}}"#, #"{"filter": {"type": "news"}}"#),
        (#"{"filter": {"type": "{kind}"}}"#, #"{"filter": {"type": "news"}}"#),
        (#"{"q": "{{literal}}", "p": {page}, "a": [{"b": {}}]}"#, #"{"q": "{{literal}}", "p": 1, "a": [{"b": {}}]}"#),
        (#"{"x": "{{kind}}", "y": "{ kind }", "z": "}{"}"#, #"{"x": "{{kind}}", "y": "{ kind }", "z": "}{"}"#),
        ("a={kind}&b={{c}}&d=}}", "a=news&b={{c}}&d=}}"),
    ])
    func aBodyIsSentAsWrittenApartFromItsHoles(body: String, sent: String) async throws {
        let server = try LoopbackServer()
        server.route("/echo", .text(#"{"list": [{"id": 1, "title": "x"}]}"#, contentType: "application/json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: post-json
                adapter: json
                url: \(server.baseURL)/echo
                method: POST
                body: '\(body)'
                variables: {kind: news}
                items: list
                fields: {id: id, title: title}
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context(name: "post-json"))
        #expect(result.items.map(\.id) == ["1"])
        #expect(server.allRequests.first?.bodyText == sent)
    }

    @Test func readsDatesWithAPatternInTheSourcesTimeZone() async throws {
        let server = try LoopbackServer()
        server.route("/d", .text(#"[{"u":"/a/1","t":"2024-03-05 14:03","n":"x"}]"#, contentType: "application/json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: dated
                adapter: json
                url: \(server.baseURL)/d
                items: $[*]
                fields:
                  url: u
                  title: n
                  published: {path: t, format: "yyyy-MM-dd HH:mm", timezone: Asia/Shanghai}
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        let item = try #require(result.items.first)
        #expect(item.id == server.url("/a/1"))
        #expect(item.url == server.url("/a/1"))
        #expect(item.published == Date(timeIntervalSince1970: 1_709_618_580))
    }

    /// Each alternative of a fallback list is converted as it says. One alternative's `convert:` was applied to all of
    /// them, so an item whose date was RFC 3339 text was read as Unix seconds and lost its date with a false warning.
    @Test(arguments: [
        "[time, {path: ts, convert: unix}]",
        "[{path: ts, convert: unix}, time]",
        "[{path: ms, convert: unix_ms}, {path: ts, convert: unix}, {path: local, format: 'yyyy-MM-dd HH:mm', timezone: Asia/Shanghai}, time]",
    ])
    func eachAlternativeOfAListHasItsOwnConversion(published: String) async throws {
        let server = try LoopbackServer()
        server.route(
            "/d",
            .text(
                #"[{"id":1,"time":"2024-03-05T10:00:00+08:00"},{"id":2,"ts":1709640000},{"id":3,"ms":1709640000000},"#
                    + #"{"id":4,"local":"2024-03-05 20:00"}]"#, contentType: "application/json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: dated
                adapter: json
                url: \(server.baseURL)/d
                items: $[*]
                fields:
                  id: id
                  title: id
                  published: \(published)
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        let dates = Dictionary(uniqueKeysWithValues: result.items.map { ($0.id, $0.published?.timeIntervalSince1970) })
        #expect(dates["1"] == 1_709_604_000)
        #expect(dates["2"] == 1_709_640_000)
        if published.contains("ms") {
            #expect(dates["3"] == 1_709_640_000)
            #expect(dates["4"] == 1_709_640_000)
        }
        #expect(result.problems.filter { $0.message.contains("as a date") }.isEmpty, "\(result.problems)")
    }

    /// A conversion that is no date's is refused in any alternative of a date field, not only in the last one.
    @Test func aDateFieldsAlternativeWithANonDateConversionIsAnError() {
        let yaml = """
            sources:
              - name: s
                adapter: json
                url: http://127.0.0.1:9/x
                items: list[*]
                fields: {id: id, published: [{path: n, convert: number}, {path: ts, convert: unix}]}
            """
        #expect(
            DeclarativeTestSupport.errors(yaml) == [
                "feeds.yaml:6:22: error: source 's': 'fields.published' is a date: convert it with date, unix, unix_ms or rfc3339, or give a format"
            ])
    }

    @Test func aWrongItemsPathFailsNamingTheLineAndWhatWasThere() async throws {
        let server = try LoopbackServer()
        server.route("/app3/homes/index/0.json", try DeclarativeTestSupport.route("homes0.json"))
        let yaml = Self.qdailyYAML(base: server.baseURL, pages: 1).replacingOccurrences(
            of: "items: response.feeds[*]", with: "items: response.feed[*]")
        let message = await DeclarativeTestSupport.failure(try DeclarativeTestSupport.adapter(yaml))
        #expect(
            message
                == "feeds.yaml:5:5: items: 'response.feed[*]' found nothing in \(server.url("/app3/homes/index/0.json")): "
                + "'response' has no key 'feed' (keys: has_more, last_key, feeds, banners, headline, featured_article, columns, "
                + "my_subscription_location, banners_ad, feeds_ad, columns_ad)")
    }

    @Test func aFieldPathThatNeverMatchesIsAWarningAtItsLine() async throws {
        let server = try LoopbackServer()
        server.route("/x", .text(#"{"list":[{"id":1,"title":"a"},{"id":2,"title":"b"}]}"#, contentType: "application/json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: typo
                adapter: json
                url: \(server.baseURL)/x
                items: list[*]
                fields:
                  id: id
                  title: titel
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.id) == ["1", "2"])
        #expect(
            result.problems.map(\.description) == [
                "warning: feeds.yaml:8:7: fields.title: 'titel' matched nothing in any of the 2 items read"
            ])
    }

    /// A path that reaches a list or an object. `tags` (every value of every path) took nothing from a list of tags, with
    /// no warning; a single-valued field that reached an object was reported as having "matched nothing", which sent
    /// the user looking for a typo where the path was right but one step short.
    @Test func aPathThatReachesAListOrAnObject() async throws {
        let server = try LoopbackServer()
        server.route(
            "/x",
            .text(
                #"{"list":[{"id":1,"title":"t1","tags":["天气","北京",7,{"x":1}],"author":{"name":"张三"},"see":["a","b"]},"#
                    + #"{"id":2,"title":"t2","tags":"rust","author":{"name":"Bob"},"see":["c"]}]}"#, contentType: "application/json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: shapes
                adapter: json
                url: \(server.baseURL)/x
                items: list
                fields:
                  id: id
                  title: title
                  tags: tags
                  author: author
                  summary: see
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.map(\.tags) == [["天气", "北京", "7"], ["rust"]])
        #expect(result.items.allSatisfy { $0.authors.isEmpty && $0.summary == nil })
        #expect(
            result.problems.map(\.description) == [
                "warning: feeds.yaml:10:7: fields.author: 'author' is an object, not text (did you mean author.name?)",
                "warning: feeds.yaml:11:7: fields.summary: 'see' is a list, not text (did you mean see[0]?)",
            ])
    }

    @Test func aTemplateNamesOnlyTheHolesThatNeverMatched() async throws {
        let server = try LoopbackServer()
        server.route("/x", .text(#"{"list":[{"id":1,"title":"a"}]}"#, contentType: "application/json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: holes
                adapter: json
                url: \(server.baseURL)/x
                items: list[*]
                fields:
                  id: id
                  title: "{title} {$.x} {kw}"
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(
            result.problems.map(\.description) == [
                "warning: feeds.yaml:8:7: fields.title: '$.x', 'kw' matched nothing in any of the 1 items read"
            ])
    }

    @Test(arguments: [
        (
            "fields: {id: id, titel: t}",
            "feeds.yaml:6:22: error: source 's': unknown key 'titel' in 'fields'; did you mean 'title'?"
        ),
        (
            "fields: {id: 'a..b'}",
            "feeds.yaml:6:18: error: source 's': 'fields.id': 'a..b': an empty step (two dots, or a dot at the start)"
        ),
        (
            "fields: {id: 'a[x]'}",
            "feeds.yaml:6:18: error: source 's': 'fields.id': 'a[x]': '[x]' is not an index, [*] or a quoted key"
        ),
        (
            "fields: {id: {path: id, convert: unixx}}",
            "feeds.yaml:6:38: error: source 's': 'fields.id.convert' must be one of text, html_to_text, number, date, unix, unix_ms, rfc3339, found 'unixx'; did you mean 'unix'?"
        ),
        (
            "fields: {summary: s}",
            "feeds.yaml:6:13: error: source 's': 'fields' needs at least one of id, url (link) or title to identify items"
        ),
        (
            "fields: {id: id}\n    pagination: {cursor: next}",
            "feeds.yaml:7:17: error: source 's': 'pagination.cursor' is read but {cursor} appears nowhere in url, query, headers or body"
        ),
        (
            "fields: {id: id}\n    pages: 3",
            "feeds.yaml:7:5: error: source 's': 'pages: 3' needs 'pagination' to say how the next page is found"
        ),
        (
            // The request went out with an empty cursor (`page-.json`), and failed at every run.
            "fields: {id: id}\n    query: {after: '{cursor}'}",
            "feeds.yaml:7:5: error: source 's': {cursor} is filled only by 'pagination: {cursor: <path of the next cursor>}', which this source lacks"
        ),
        (
            "fields: {id: id}\n    query: {p: '{pge}'}",
            "feeds.yaml:7:16: error: source 's': 'query.p': unknown variable {pge}; did you mean {page}? (variables: cursor, page, offset)"
        ),
        (
            "fields: {id: id, published: {path: d, timezone: IST}}",
            "feeds.yaml:6:53: error: source 's': 'fields.published.timezone': 'IST' is an abbreviation, not an IANA time zone name; write Asia/Kolkata (India), Europe/Dublin (Ireland) or Asia/Jerusalem (Israel)"
        ),
        (
            // The template won and the path was ignored without a word.
            "fields: {id: {template: 'T{id}', path: title}}",
            "feeds.yaml:6:38: error: source 's': 'fields.id' takes one of 'path', 'template', 'value', not both 'template' and 'path'"
        ),
        (
            "fields: {id: id, published: {path: d, convert: unix, format: 'yyyy-MM-dd'}}",
            "feeds.yaml:6:58: error: source 's': 'fields.published' takes one of 'convert', 'format', not both 'convert' and 'format'"
        ),
        (
            // Ignored without a word: a text field is not converted as a date or a count.
            "fields: {id: id, title: {path: t, convert: number}}",
            "feeds.yaml:6:22: error: source 's': 'fields.title' is text: convert it with text or html_to_text (dates go in published or updated, counts in metrics)"
        ),
        (
            "fields: {id: id, summary: {path: s, format: yyyy}}",
            "feeds.yaml:6:22: error: source 's': 'fields.summary' is text: convert it with text or html_to_text (dates go in published or updated, counts in metrics)"
        ),
        (
            "fields: {id: 'x{id'}",
            "feeds.yaml:6:18: error: source 's': 'fields.id': template 'x{id': '{' without a closing '}' (write {{ for a literal brace)"
        ),
    ])
    func aBadMappingIsAConfigurationErrorAtItsLine(fragment: String, expected: String) {
        let yaml = """
            sources:
              - name: s
                adapter: json
                url: http://127.0.0.1:9/x
                items: list[*]
                \(fragment)
            """
        #expect(DeclarativeTestSupport.errors(yaml) == [expected])
    }

    @Test("check lists every problem of a source's options at once: a refused value, fields, items and pagination")
    func everyProblemAtOnce() {
        let yaml = """
            sources:
              - name: a
                adapter: json
                url: http://127.0.0.1:9/x
                items: data.posts[*
                fields:
                  titel: title
                  url: {path: link, convert: wat}
                  summary: {path: excerpt, timezone: UTC}
                pages: 0
                pagination: {cursor: next}
            """
        #expect(
            DeclarativeTestSupport.errors(yaml) == [
                "feeds.yaml:5:5: error: source 'a': 'items': 'data.posts[*': '[' without a closing ']'",
                "feeds.yaml:7:7: error: source 'a': unknown key 'titel' in 'fields'; did you mean 'title'?",
                "feeds.yaml:8:34: error: source 'a': 'fields.url.convert' must be one of text, html_to_text, number, date, unix, unix_ms, rfc3339, found 'wat'",
                "feeds.yaml:9:7: error: source 'a': 'fields.summary': 'timezone' only applies to dates",
                "feeds.yaml:10:12: error: 'pages' must be between 1 and 50, found 0",
                "feeds.yaml:11:17: error: source 'a': 'pagination.cursor' is read but {cursor} appears nowhere in url, query, headers or body",
            ])
    }

    @Test("check lists every problem of a source's request at once: url, headers, query, variables and body")
    func everyRequestProblemAtOnce() {
        let yaml = """
            sources:
              - name: a
                adapter: json
                url: "http://127.0.0.1:9/{kind}"
                headers: {X-Token: [a, b]}
                query: {q: "{qq}"}
                variables: {page: 2}
                body: "x={kind}"
                items: list[*]
                fields: {id: id}
            """
        let errors = DeclarativeTestSupport.errors(yaml)
        #expect(errors.count == 6, "\(errors)")
        #expect(errors.contains { $0.contains("'body': unknown variable {kind}") })
        #expect(errors.contains { $0.contains("'url': unknown variable {kind}") })
        #expect(errors.contains { $0.contains("'headers.X-Token' must be a single value") })
        #expect(errors.contains { $0.contains("'query.q': unknown variable {qq}") })
        #expect(errors.contains { $0.contains("'page' is set by pagination") })
        #expect(errors.contains { $0.contains("a 'body' needs method: POST") })
    }
}

/// Counts as Chinese and English sites write them. `999+`, `10w+` (万 in pinyin) and `1.5千` were "not a count", so
/// the metric was lost with a warning.
@Suite("counts")
struct CountTests {
    /// The `views` metric an item gets from `text`, read by a json source.
    static func views(_ text: String) async throws -> Int? {
        let server = try LoopbackServer()
        server.route("/api", .text(#"{"list": [{"id": 1, "n": "\#(text)"}]}"#, contentType: "application/json"))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - {name: c, adapter: json, url: "\(server.url("/api"))", items: list, fields: {id: id, metrics: {views: n}}}
            """)
        return try await adapter.fetch(in: DeclarativeTestSupport.context(name: "c")).items.first?.metrics["views"]
    }

    @Test(arguments: [
        ("12", 12), ("1,204", 1204), ("3.1k", 3100), ("1.2万", 12_000), ("1.2 万", 12_000), ("10w+", 100_000), ("10W+", 100_000),
        ("999+", 999), ("1.5千", 1500), ("2亿", 200_000_000), ("1.2M", 1_200_000), ("3B", 3_000_000_000), ("1，024", 1024),
    ])
    func aCountIsRead(text: String, count: Int) async throws {
        #expect(try await Self.views(text) == count, "\(text)")
    }

    @Test(arguments: ["+", "many", "1.2.3万", "w"])
    func aTextThatIsNoCountIsNone(text: String) async throws {
        #expect(try await Self.views(text) == nil, "\(text)")
    }
}
