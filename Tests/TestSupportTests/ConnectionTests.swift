import Foundation
import TestSupport
import Testing

@Suite("Connections, concurrency and lifecycle", .serialized)
struct ConnectionTests {
    @Test("port and baseURL point at 127.0.0.1")
    func addressing() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        #expect(server.port > 0 && server.port < 65_536)
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
        #expect(server.url("/x?y=1") == "http://127.0.0.1:\(server.port)/x?y=1")
    }

    @Test("a server that records no requests still serves and counts connections, and its log stays empty")
    func withoutRecording() async throws {
        let server = try LoopbackServer(recordsRequests: false)
        defer { server.stop() }
        server.route("/a", .text("A"))
        let reply = await rawExchange(port: server.port, "GET /a HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.hasSuffix("\r\n\r\nA"))
        #expect(server.connectionCount == 1)
        #expect(server.requestCount("/a") == 0)
        #expect(server.allRequests.isEmpty)
    }

    @Test("keep-alive: two URLs in one curl invocation share one connection")
    func keepAliveReuse() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/one", .text("1"))
        server.route("/two", .text("2"))
        let output = try await curl(server.url("/one"), server.url("/two"))
        #expect(output.text == "12")
        #expect(server.connectionCount == 1)
        #expect(server.requestCount("/one") == 1 && server.requestCount("/two") == 1)
    }

    @Test("Connection: close and HTTP/1.0 get one connection per request")
    func connectionClose() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/one", .text("1"))
        let closing = try await curl("-i", "-H", "Connection: close", server.url("/one"), server.url("/one"))
        #expect(closing.text.contains("Connection: close\r\n"))
        #expect(server.connectionCount == 2)
        server.resetCounters()
        let old = try await curl("--http1.0", server.url("/one"), server.url("/one"))
        #expect(old.text == "11")
        #expect(server.connectionCount == 2)
        #expect(server.requests("/one").allSatisfy { $0.version == "HTTP/1.0" })
    }

    @Test("keep-alive survives 404s, redirects and statuses on the same connection")
    func keepAliveAcrossStatuses() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/r", .redirect(to: "/t"))
        server.route("/t", .text("t"))
        server.route("/e", .status(500, body: "boom"))
        let output = try await curl(server.url("/missing"), server.url("/r"), server.url("/e"), server.url("/t"))
        #expect(output.exitCode == 0)
        #expect(server.connectionCount == 1)
        #expect(server.allRequests.map(\.path) == ["/missing", "/r", "/e", "/t"])
    }

    @Test("concurrency counters: curl --parallel-max 4 against a delayed route")
    func concurrencyCounters() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/slow", .delay(milliseconds: 600, then: .text("x")))
        let urls = (0..<8).map { server.url("/slow?n=\($0)") }
        let output = try await runProcess(
            "/usr/bin/curl",
            ["-sS", "--parallel", "--parallel-immediate", "--parallel-max", "4"] + urls.flatMap { [$0, "-o", "/dev/null"] }
        )
        #expect(output.exitCode == 0, "\(output.stderr)")
        #expect(server.requestCount("/slow") == 8)
        #expect((3...4).contains(server.maxConcurrentRequests), "max in flight \(server.maxConcurrentRequests)")
        #expect((3...4).contains(server.maxConcurrentConnections), "max connections \(server.maxConcurrentConnections)")
        #expect(server.connectionCount <= 8)
        #expect(Set(server.requests("/slow").compactMap(\.query)).count == 8)

        // curl may exit before the server has finished its side of the last exchange.
        let deadline = ContinuousClock.now + .seconds(10)
        while server.requestsInFlight > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        server.resetCounters()
        #expect(server.maxConcurrentRequests == 0)
        #expect(server.connectionCount == 0)
        #expect(server.requestCount("/slow") == 0)
        #expect(server.allRequests.isEmpty)
    }

    @Test("request recording: method, path, query, headers (case-insensitive) and POST body")
    func recording() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/submit", .text("thanks"))
        _ = try await curl("-H", "X-Custom: Value 1", "-A", "TributaryTest/1.0", "-d", "a=1&b=2", server.url("/submit?page=3&sort=new"))
        _ = try await curl(server.url("/submit"))
        let requests = server.requests("/submit")
        try #require(requests.count == 2)
        let post = requests[0]
        #expect(post.method == "POST")
        #expect(post.path == "/submit")
        #expect(post.query == "page=3&sort=new")
        #expect(post.header("x-custom") == "Value 1")
        #expect(post.header("USER-AGENT") == "TributaryTest/1.0")
        #expect(post.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(post.header("Content-Length") == "7")
        #expect(post.header("Missing") == nil)
        #expect(post.headers.contains { $0.0 == "X-Custom" && $0.1 == "Value 1" })
        #expect(post.bodyText == "a=1&b=2")
        #expect(requests[1].method == "GET")
        #expect(requests[1].query == nil)
        #expect(requests[1].body.isEmpty)
    }

    @Test("large POST bodies: Expect: 100-continue is answered at once; chunked uploads are de-chunked")
    func uploads() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/upload", .handler { LoopbackResponse(text: "\($0.body.count)") })
        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let expecting = try await curl("-v", "-H", "Expect: 100-continue", "--data-binary", "@-", server.url("/upload"), stdin: payload)
        #expect(expecting.text == "300000")
        #expect(expecting.stderr.contains("< HTTP/1.1 100 Continue"), "no interim response: \(expecting.stderr)")
        let chunked = try await curl("-H", "Transfer-Encoding: chunked", "--data-binary", "@-", server.url("/upload"), stdin: payload)
        #expect(chunked.text == "300000")
        let requests = server.requests("/upload")
        try #require(requests.count == 2)
        #expect(requests[0].body == payload)
        #expect(requests[1].body == payload)
        #expect(requests[1].header("Transfer-Encoding") == "chunked")
    }

    @Test("HEAD gets headers with Content-Length but no body")
    func head() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/doc", .text("twelve bytes"))
        let output = try await curl("-I", server.url("/doc"), server.url("/doc"))
        #expect(output.exitCode == 0)
        #expect(output.text.components(separatedBy: "Content-Length: 12\r\n").count == 3)
        #expect(server.connectionCount == 1)
        #expect(server.requests("/doc").map(\.method) == ["HEAD", "HEAD"])
    }

    @Test("many servers run at once, each on its own port")
    func manyServers() async throws {
        let servers = try (0..<8).map { _ in try LoopbackServer() }
        defer {
            for server in servers { server.stop() }
        }
        #expect(Set(servers.map(\.port)).count == servers.count)
        for (index, server) in servers.enumerated() {
            server.route("/id", .text("\(index)"))
        }
        let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, server) in servers.enumerated() {
                group.addTask { (index, try await curl(server.url("/id"), server.url("/id")).text) }
            }
            var results: [Int: String] = [:]
            for try await (index, body) in group { results[index] = body }
            return results
        }
        for index in servers.indices {
            #expect(bodies[index] == "\(index)\(index)")
            #expect(servers[index].requestCount("/id") == 2)
            #expect(servers[index].connectionCount == 1)
        }
    }

    @Test("stop() while requests are in flight: returns promptly, clients see the connection close")
    func stopInFlight() async throws {
        let server = try LoopbackServer()
        server.route("/slow", .delay(milliseconds: 20_000, then: .text("never")))
        server.route("/stream", .endless(contentType: "text/plain"))
        server.route("/stall", .stallMidBody(bytesBeforeStall: 5, totalLength: 50, stallMilliseconds: 20_000))
        async let slow = curl("--max-time", "60", server.url("/slow"))
        async let stream = curl("--max-time", "60", "-o", "/dev/null", server.url("/stream"))
        async let stall = curl("--max-time", "60", server.url("/stall"))
        #expect(await eventually(timeout: .seconds(50)) { server.requestsInFlight == 3 })
        server.stop()
        #expect(server.openConnections == 0)
        #expect(server.requestsInFlight == 0)
        let (slowResult, streamResult, stallResult) = try await (slow, stream, stall)
        #expect(slowResult.exitCode == 52)
        #expect(slowResult.elapsed < .seconds(20), "the 20 s delay ended early because the server stopped")
        #expect(streamResult.exitCode == 0)  // a close-delimited body simply ends
        #expect(streamResult.elapsed < .seconds(60), "the endless stream ended because the server stopped")
        #expect(stallResult.exitCode == 18)
        server.stop()  // idempotent
        let refused = try await curl(server.url("/slow"))
        #expect(refused.exitCode == 7)
    }

    @Test("dropping the last reference stops the server")
    func deinitStops() async throws {
        var server: LoopbackServer? = try LoopbackServer()
        let port = try #require(server?.port)
        server?.route("/x", .endless(contentType: "text/plain"))
        let streaming = await offload { () -> Bool in
            guard let client = RawClient(port: port) else { return false }
            client.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
            return client.receive(limit: 1_000).count == 1_000
        }
        #expect(streaming)
        weak let weakServer = server
        server = nil
        #expect(weakServer == nil)
        // Refused (7) normally; another test's server may have taken the port meanwhile, when
        // curl then gets some other failure or a 404 (22 with --fail): never the old stream.
        let refused = try await curl("--fail", "--max-time", "30", "http://127.0.0.1:\(port)/x")
        #expect(refused.exitCode != 0 && refused.stdout.count < 1_000)
    }

    @Test("a client that disconnects mid-response does not leak the connection thread")
    func clientDisconnects() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/big", .ok(body: [UInt8](repeating: 65, count: 8 << 20)))
        server.route("/slow", .delay(milliseconds: 10_000, then: .text("late")))
        for path in ["/big", "/slow"] {
            await offload {
                guard let client = RawClient(port: server.port) else { return }
                client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
                if path == "/big" { _ = client.receive(limit: 1_000) }
            }
        }
        #expect(await eventually { server.openConnections == 0 && server.requestsInFlight == 0 })
        // "/slow"'s client closes at once: the server may see the close before the request.
        #expect(server.requestCount("/big") == 1 && server.requestCount("/slow") <= 1)
    }
}
