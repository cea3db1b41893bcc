import Foundation
import TestSupport
import Testing

@Suite("Request parsing and framing (raw sockets)")
struct ProtocolTests {
    @Test(
        "malformed requests get 400 and the connection is closed",
        arguments: [
            "GARBAGE\r\n\r\n",
            "GET /\r\n\r\n",
            "GET / HTTP/2.0\r\n\r\n",
            "GET / HTTP/1.1\r\nBad Header: x\r\n\r\n",
            "GET / HTTP/1.1\r\nNoColon\r\n\r\n",
            "GET / HTTP/1.1\r\n folded: x\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
            "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "G\u{1}T / HTTP/1.1\r\n\r\n",
        ]
    )
    func malformed(request: String) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let reply = await rawExchange(port: server.port, request)
        #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(reply)")
        #expect(reply.contains("Connection: close\r\n"))
        #expect(server.allRequests.isEmpty)
    }

    @Test("unsupported transfer coding gets 501")
    func unsupportedCoding() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let reply = await rawExchange(port: server.port, "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 501 Not Implemented\r\n"))
    }

    @Test("a request head over 64 KB gets 431 and close")
    func headTooLarge() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let huge = "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70_000) + "\r\n\r\n"
        let reply = await rawExchange(port: server.port, huge)
        #expect(reply.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(reply.prefix(80))")
        let fits = "GET /ok HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 60_000) + "\r\nConnection: close\r\n\r\n"
        #expect(await rawExchange(port: server.port, fits).hasPrefix("HTTP/1.1 404"))
    }

    @Test("pipelined requests are answered in order on one connection")
    func pipelining() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/a", .text("A"))
        server.route("/b", .delay(milliseconds: 50, then: .text("B")))
        let pipelined =
            "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
            + "GET /a?last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let reply = await rawExchange(port: server.port, pipelined)
        let bodies = reply.components(separatedBy: "\r\n\r\n").dropFirst().map { String($0.prefix(1)) }
        #expect(bodies == ["A", "B", "A"])
        #expect(server.connectionCount == 1)
        #expect(server.requests("/b").first?.bodyText == "hello")
        #expect(server.requests("/a").last?.query == "last")
    }

    @Test("byte-at-a-time delivery, bare LF line endings, leading blank lines and absolute-form targets")
    func lenientParsing() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/p", .handler { LoopbackResponse(text: "\($0.path)|\($0.query ?? "-")|\($0.bodyText)") })
        let reply = await offload { () -> String in
            guard let client = RawClient(port: server.port) else { return "" }
            for byte in "\r\nPOST /p?x=1 HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi".utf8 {
                client.send([byte])
            }
            return String(decoding: client.receive(untilSeen: "hi"), as: UTF8.self)
        }
        #expect(reply.hasSuffix("\r\n\r\n/p|x=1|hi"))
        let bareLF = await rawExchange(port: server.port, "GET /p HTTP/1.1\nHost: x\nConnection: close\n\n")
        #expect(bareLF.hasSuffix("/p|-|"))
        let absolute = await rawExchange(port: server.port, "GET http://example.invalid/p?q HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(absolute.hasSuffix("/p|q|"))
    }

    @Test("chunked request bodies with extensions and trailers")
    func chunkedBody() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/up", .handler { LoopbackResponse(text: $0.bodyText) })
        let request =
            "POST /up HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: yes\r\n\r\n"
            + "GET /up HTTP/1.1\r\nConnection: close\r\n\r\n"
        let reply = await rawExchange(port: server.port, request)
        #expect(reply.contains("\r\n\r\nhello world"))
        #expect(server.requestCount("/up") == 2)
    }

    @Test("an HTTP/1.0 request without keep-alive is closed after the response")
    func http10() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/", .text("root"))
        let reply = await rawExchange(port: server.port, "GET / HTTP/1.0\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.contains("Connection: close\r\n"))
        #expect(reply.hasSuffix("root"))
    }

    @Test("a partial request followed by a disconnect is dropped quietly")
    func partialRequest() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        await offload {
            guard let client = RawClient(port: server.port) else { return }
            client.send("POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\nonly a bit")
        }
        #expect(await eventually { server.connectionCount == 1 && server.openConnections == 0 })
        #expect(server.allRequests.isEmpty)
    }
}
