import Foundation
import TestSupport
import Testing

@Suite("Routes", .serialized)
struct RouteTests {
    @Test("ok serves the body, content type, extra headers and standard headers")
    func ok() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/data", .ok(body: [0, 1, 2, 255], contentType: "application/x-test", headers: [("X-Extra", "yes")]))
        let output = try await curl("-i", server.url("/data"))
        #expect(output.exitCode == 0)
        let response = try #require(DumpedResponse(output.stdout))
        #expect(response.status == 200)
        #expect(response.body == [0, 1, 2, 255])
        #expect(response.header("Content-Type") == "application/x-test")
        #expect(response.header("Content-Length") == "4")
        #expect(response.header("X-Extra") == "yes")
        #expect(response.header("Connection") == "keep-alive")
        #expect(response.header("Date")?.hasSuffix(" GMT") == true)
        #expect(server.requestCount("/data") == 1)
    }

    @Test("text helper, default content type, and the status line's reason phrase")
    func text() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/hello", .text("héllo\n"))
        let output = try await curl("-i", server.url("/hello"))
        #expect(output.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        let response = try #require(DumpedResponse(output.stdout))
        #expect(response.text == "héllo\n")
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.header("Content-Length") == "7")
    }

    @Test("unknown paths get 404 with a small body; routes match the path without the query")
    func notFound() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/known", .text("yes"))
        let missing = try #require(DumpedResponse(try await curl("-i", server.url("/unknown")).stdout))
        #expect(missing.status == 404)
        #expect(missing.text.contains("/unknown"))
        let withQuery = try #require(DumpedResponse(try await curl("-i", server.url("/known?a=1&b=2")).stdout))
        #expect(withQuery.status == 200)
        #expect(server.requests("/known").first?.query == "a=1&b=2")
        #expect(server.requestCount("/unknown") == 1)
    }

    @Test("cached: 200 with validators, 304 for a matching If-None-Match or If-Modified-Since")
    func cached() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let lastModified = LoopbackServer.httpDate(secondsSince1970: 1_700_000_000)
        #expect(lastModified == "Tue, 14 Nov 2023 22:13:20 GMT")
        server.route("/feed", .cached(text: "<rss/>", contentType: "application/rss+xml", etag: "\"v1\"", lastModified: lastModified))

        let first = try #require(DumpedResponse(try await curl("-i", server.url("/feed")).stdout))
        #expect(first.status == 200)
        #expect(first.text == "<rss/>")
        #expect(first.header("ETag") == "\"v1\"")
        #expect(first.header("Last-Modified") == lastModified)

        let byTag = try #require(DumpedResponse(try await curl("-i", "-H", "If-None-Match: \"v1\"", server.url("/feed")).stdout))
        #expect(byTag.status == 304)
        #expect(byTag.body.isEmpty)
        #expect(byTag.header("ETag") == "\"v1\"")
        #expect(byTag.header("Content-Length") == nil)

        let weakInList = try #require(
            DumpedResponse(try await curl("-i", "-H", "If-None-Match: \"v0\", W/\"v1\"", server.url("/feed")).stdout)
        )
        #expect(weakInList.status == 304)

        let byDate = try #require(
            DumpedResponse(try await curl("-i", "-H", "If-Modified-Since: \(lastModified)", server.url("/feed")).stdout))
        #expect(byDate.status == 304)

        let stale = try #require(DumpedResponse(try await curl("-i", "-H", "If-None-Match: \"v0\"", server.url("/feed")).stdout))
        #expect(stale.status == 200)
        #expect(stale.text == "<rss/>")

        // If-None-Match takes precedence over If-Modified-Since (RFC 9110 §13.2.2).
        let staleTagFreshDate = try #require(
            DumpedResponse(
                try await curl("-i", "-H", "If-None-Match: \"v0\"", "-H", "If-Modified-Since: \(lastModified)", server.url("/feed")).stdout
            )
        )
        #expect(staleTagFreshDate.status == 200)

        let requests = server.requests("/feed")
        #expect(requests.count == 6)
        #expect(requests[1].header("if-none-match") == "\"v1\"")
    }

    @Test("gzip: real gzip when accepted (curl --compressed, Python), plain otherwise", arguments: [0, 1, 5_000, 65_535, 65_536, 200_000])
    func gzip(size: Int) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
        server.route("/gz", .gzip(body: body, contentType: "application/octet-stream"))

        let decoded = try await curl("--compressed", server.url("/gz"))
        #expect(decoded.exitCode == 0)
        #expect(decoded.stdout == body)

        let raw = try #require(DumpedResponse(try await curl("-i", "-H", "Accept-Encoding: gzip", server.url("/gz")).stdout))
        #expect(raw.header("Content-Encoding") == "gzip")
        #expect(raw.header("Vary") == "Accept-Encoding")
        #expect(raw.body.starts(with: [0x1F, 0x8B, 0x08]))
        let python = try await Python.run(
            "import gzip,sys; sys.stdout.buffer.write(gzip.decompress(sys.stdin.buffer.read()))",
            stdin: raw.body
        )
        #expect(python.exitCode == 0, "\(python.stderr)")
        #expect(python.stdout == body)

        let plain = try #require(DumpedResponse(try await curl("-i", server.url("/gz")).stdout))
        #expect(plain.header("Content-Encoding") == nil)
        #expect(plain.body == body)

        let refused = try #require(
            DumpedResponse(try await curl("-i", "-H", "Accept-Encoding: gzip;q=0, identity", server.url("/gz")).stdout))
        #expect(refused.header("Content-Encoding") == nil)
    }

    @Test("gzip through Python's urllib")
    func gzipWithURLLib() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/gz", .gzip(text: "Tributary gzip check\n"))
        let script = """
            import gzip, sys, urllib.request
            request = urllib.request.Request(sys.argv[1], headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(request, timeout=10) as response:
                assert response.headers["Content-Encoding"] == "gzip"
                sys.stdout.buffer.write(gzip.decompress(response.read()))
            """
        let output = try await Python.run(script, [server.url("/gz")])
        #expect(output.exitCode == 0, "\(output.stderr)")
        #expect(output.text == "Tributary gzip check\n")
    }

    @Test("deflate: zlib-wrapped when accepted (curl --compressed, Python zlib), plain otherwise", arguments: [0, 70_000])
    func deflate(size: Int) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 % 251) }
        server.route("/z", .deflate(body: body, contentType: "application/octet-stream"))

        let decoded = try await curl("-H", "Accept-Encoding: deflate", "--compressed", server.url("/z"))
        #expect(decoded.exitCode == 0, "\(decoded.stderr)")
        #expect(decoded.stdout == body)

        let raw = try #require(DumpedResponse(try await curl("-i", "-H", "Accept-Encoding: deflate", server.url("/z")).stdout))
        #expect(raw.header("Content-Encoding") == "deflate")
        let python = try await Python.run(
            "import zlib,sys; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))",
            stdin: raw.body
        )
        #expect(python.exitCode == 0, "\(python.stderr)")
        #expect(python.stdout == body)

        let gzipOnly = try #require(DumpedResponse(try await curl("-i", "-H", "Accept-Encoding: gzip", server.url("/z")).stdout))
        #expect(gzipOnly.header("Content-Encoding") == nil)
        #expect(gzipOnly.body == body)
    }

    @Test("redirect: relative and absolute chains are followed; status codes kept")
    func redirectChain() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/a", .redirect(to: "/b"))
        server.route("/b", .redirect(to: server.url("/c"), status: 301))
        server.route("/c", .redirect(to: "d", status: 307))
        server.route("/d", .text("landed"))

        let plain = try #require(DumpedResponse(try await curl("-i", server.url("/a")).stdout))
        #expect(plain.status == 302)
        #expect(plain.header("Location") == "/b")

        let followed = try await curl("-L", "--max-redirs", "5", "-w", "\n%{http_code} %{num_redirects} %{url_effective}", server.url("/a"))
        #expect(followed.exitCode == 0)
        #expect(followed.text == "landed\n200 3 \(server.url("/d"))")
        #expect(server.requestCount("/a") == 2)
        #expect(server.requestCount("/d") == 1)

        let permanent = try #require(DumpedResponse(try await curl("-i", server.url("/b")).stdout))
        #expect(permanent.status == 301)
        #expect(permanent.header("Location") == server.url("/c"))
    }

    @Test("redirect loop: curl -L --max-redirs 5 fails with exit 47")
    func redirectLoop() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/ping", .redirect(to: "/pong"))
        server.route("/pong", .redirect(to: "/ping"))
        let output = try await curl("-L", "--max-redirs", "5", server.url("/ping"))
        #expect(output.exitCode == 47)
        #expect(server.requestCount("/ping") + server.requestCount("/pong") == 6)
    }

    @Test("status: code, reason phrase, body and Retry-After", arguments: [(503, "Service Unavailable"), (429, "Too Many Requests")])
    func status(code: Int, reason: String) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/busy", .status(code, body: "try later", headers: [("Retry-After", "120")]))
        let output = try await curl("-i", server.url("/busy"))
        #expect(output.text.hasPrefix("HTTP/1.1 \(code) \(reason)\r\n"))
        let response = try #require(DumpedResponse(output.stdout))
        #expect(response.header("Retry-After") == "120")
        #expect(response.text == "try later")
        let failing = try await curl("-f", server.url("/busy"))
        #expect(failing.exitCode == 22)
    }

    @Test("status without a body sends Content-Length 0; 204 sends none")
    func emptyStatus() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/err", .status(500))
        server.route("/none", .status(204))
        let error = try #require(DumpedResponse(try await curl("-i", server.url("/err")).stdout))
        #expect(error.status == 500)
        #expect(error.header("Content-Length") == "0")
        let none = try #require(DumpedResponse(try await curl("-i", server.url("/none")).stdout))
        #expect(none.status == 204)
        #expect(none.header("Content-Length") == nil)
    }

    @Test("delay: the response comes after the delay and counts as in flight")
    func delay() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/slow", .delay(milliseconds: 400, then: .text("late")))
        let output = try await curl(server.url("/slow"))
        #expect(output.text == "late")
        #expect(output.elapsed >= .milliseconds(400))
        #expect(server.maxConcurrentRequests == 1)
        // curl can have the whole response before the server's thread counts the request done.
        #expect(await eventually { server.requestsInFlight == 0 })
    }

    @Test("stallMidBody: curl --max-time 1 exits 28 after receiving the first bytes")
    func stallMidBody() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/stall", .stallMidBody(bytesBeforeStall: 1_000, totalLength: 10_000, stallMilliseconds: 5_000))
        let output = try await curl("--max-time", "1", server.url("/stall"))
        #expect(output.exitCode == 28)
        #expect(output.stdout.count == 1_000)
        // The client went away, so the stall ends early and the connection is released.
        #expect(await eventually { server.openConnections == 0 && server.requestsInFlight == 0 })
    }

    @Test("stallMidBody: once the stall ends the connection closes short of Content-Length (curl exit 18)")
    func stallThenClose() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/stall", .stallMidBody(bytesBeforeStall: 10, totalLength: 100, stallMilliseconds: 200))
        let output = try await curl("-i", server.url("/stall"))
        #expect(output.exitCode == 18)
        let response = try #require(DumpedResponse(output.stdout))
        #expect(response.header("Content-Length") == "100")
        #expect(response.body.count == 10)
    }

    @Test("endless: curl --max-time 1 exits 28 with plenty of bytes; the server notices the disconnect")
    func endless() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/stream", .endless(contentType: "text/plain"))
        let output = try await curl("--max-time", "1", "-o", "/dev/null", "-w", "%{size_download}", server.url("/stream"))
        #expect(output.exitCode == 28)
        #expect((Int(output.text) ?? 0) > 100_000)
        #expect(await eventually { server.openConnections == 0 })
    }

    @Test("endless: a raw client reading 100 000 bytes then closing does not disturb the server")
    func endlessEarlyClose() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/stream", .endless(contentType: "application/octet-stream"))
        server.route("/after", .text("still here"))
        let received = await offload {
            guard let client = RawClient(port: server.port) else { return 0 }
            client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            return client.receive(limit: 100_000).count
        }
        #expect(received == 100_000)
        #expect(await eventually { server.openConnections == 0 })
        #expect(try await curl(server.url("/after")).text == "still here")
    }

    @Test("sequence: the n-th request gets the n-th behaviour, then the last repeats")
    func sequence() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/flaky", .sequence([.status(500), .status(503, headers: [("Retry-After", "1")]), .text("ok")]))
        var codes: [String] = []
        for _ in 0..<5 {
            codes.append(try await curl("-o", "/dev/null", "-w", "%{http_code}", server.url("/flaky")).text)
        }
        #expect(codes == ["500", "503", "200", "200", "200"])
        server.route("/flaky", .sequence([.status(404), .text("again")]))
        let restarted = try await curl("-o", "/dev/null", "-w", "%{http_code}", server.url("/flaky"))
        #expect(restarted.text == "404")
    }

    @Test("handler: sees the request and returns a custom response")
    func handler() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route(
            "/echo",
            .handler { request in
                LoopbackResponse(
                    status: 201,
                    headers: [("X-Method", request.method)],
                    text: "\(request.query ?? "-") \(request.header("x-token") ?? "-") \(request.bodyText)"
                )
            }
        )
        let output = try await curl("-i", "-H", "X-Token: abc", "--data-binary", "payload", server.url("/echo?q=1"))
        let response = try #require(DumpedResponse(output.stdout))
        #expect(response.status == 201)
        #expect(response.header("X-Method") == "POST")
        #expect(response.text == "q=1 abc payload")
    }

    @Test("handler: Content-Length mismatch closes the connection after the response (curl exit 18)")
    func handlerShortBody() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/short", .handler { _ in LoopbackResponse(headers: [("Content-Length", "50")], body: Array("only this".utf8)) })
        let output = try await curl(server.url("/short"))
        #expect(output.exitCode == 18)
        #expect(output.text == "only this")
    }

    @Test("hangUp: the connection closes without a response (curl exit 52)")
    func hangUp() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/void", .hangUp)
        let output = try await curl(server.url("/void"))
        #expect(output.exitCode == 52)
        #expect(server.requestCount("/void") == 1)
    }

    @Test("routes can be added and replaced while serving")
    func replaceRoute() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        #expect(try await curl("-o", "/dev/null", "-w", "%{http_code}", server.url("/late")).text == "404")
        server.route("/late", .text("one"))
        #expect(try await curl(server.url("/late")).text == "one")
        server.route("/late", .text("two"))
        #expect(try await curl(server.url("/late")).text == "two")
    }
}
