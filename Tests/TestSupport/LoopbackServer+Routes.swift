/// Carrying out route behaviours on a connection.
extension LoopbackServerCore {
    /// Bytes per write for ``LoopbackRoute/endless(contentType:)``.
    private static let endlessChunkSize = 16 * 1024

    /// Runs `route` for `request`; returns whether the connection can serve another request.
    func perform(
        _ route: LoopbackRoute,
        for request: LoopbackRequest,
        ordinal: Int,
        keepAlive: Bool,
        on socket: LoopbackSocket
    ) -> Bool {
        switch route {
        case .ok(let body, let contentType, let headers):
            let response = LoopbackResponse(status: 200, headers: [("Content-Type", contentType)] + headers, body: body)
            return send(response, for: request, keepAlive: keepAlive, on: socket)

        case .cached(let body, let contentType, let etag, let lastModified):
            var validators: [(String, String)] = []
            if let etag { validators.append(("ETag", etag)) }
            if let lastModified { validators.append(("Last-Modified", lastModified)) }
            let response =
                Self.isNotModified(request, etag: etag, lastModified: lastModified)
                ? LoopbackResponse(status: 304, headers: validators)
                : LoopbackResponse(status: 200, headers: [("Content-Type", contentType)] + validators, body: body)
            return send(response, for: request, keepAlive: keepAlive, on: socket)

        case .gzip(let body, let contentType):
            let encode = request.accepts(encoding: "gzip")
            let response = Self.encoded(body, contentType: contentType, coding: encode ? "gzip" : nil, encoder: HTTPCompression.gzip)
            return send(response, for: request, keepAlive: keepAlive, on: socket)

        case .deflate(let body, let contentType):
            let encode = request.accepts(encoding: "deflate")
            let response = Self.encoded(body, contentType: contentType, coding: encode ? "deflate" : nil, encoder: HTTPCompression.zlib)
            return send(response, for: request, keepAlive: keepAlive, on: socket)

        case .redirect(let location, let status):
            let response = LoopbackResponse(status: status, headers: [("Location", location)], text: "Redirecting to \(location)\n")
            return send(response, for: request, keepAlive: keepAlive, on: socket)

        case .status(let status, let body, let headers):
            let response =
                body.isEmpty
                ? LoopbackResponse(status: status, headers: headers)
                : LoopbackResponse(status: status, headers: headers, text: body)
            return send(response, for: request, keepAlive: keepAlive, on: socket)

        case .delay(let milliseconds, let next):
            switch socket.pause(milliseconds: milliseconds, watchPeer: true) {
            case .elapsed:
                return perform(next, for: request, ordinal: ordinal, keepAlive: keepAlive, on: socket)
            case .stopped, .peerGone:
                return false
            }

        case .stallMidBody(let bytesBeforeStall, let totalLength, let stallMilliseconds):
            let total = max(0, totalLength)
            let head = HTTPResponseHead.serialize(
                status: 200,
                headers: [
                    ("Date", HTTPResponseHead.currentDate()),
                    ("Content-Type", "application/octet-stream"),
                    ("Content-Length", "\(total)"),
                    ("Connection", "close"),
                ]
            )
            let prefix = request.method == "HEAD" ? [] : Self.filler(count: min(max(0, bytesBeforeStall), total))
            guard socket.sendAll(head + prefix) else { return false }
            _ = socket.pause(milliseconds: stallMilliseconds, watchPeer: true)
            return false

        case .endless(let contentType):
            let head = HTTPResponseHead.serialize(
                status: 200,
                headers: [
                    ("Date", HTTPResponseHead.currentDate()),
                    ("Content-Type", contentType),
                    ("Connection", "close"),
                ]
            )
            guard socket.sendAll(head), request.method != "HEAD" else { return false }
            let chunk = Self.filler(count: Self.endlessChunkSize)
            // Ends when a send fails: the client went away, or stop() shut the socket down.
            while socket.sendAll(chunk) {}
            return false

        case .sequence(let routes):
            guard let last = routes.last else {
                let response = LoopbackResponse(status: 500, text: "Empty route sequence\n")
                return send(response, for: request, keepAlive: keepAlive, on: socket)
            }
            let next = ordinal < routes.count ? routes[ordinal] : last
            return perform(next, for: request, ordinal: ordinal, keepAlive: keepAlive, on: socket)

        case .handler(let handler):
            return send(handler(request), for: request, keepAlive: keepAlive, on: socket)

        case .hangUp:
            return false
        }
    }

    /// Sends a complete response, adding `Date`, `Content-Length` and `Connection` unless the response
    /// sets them; returns whether the connection can serve another request.
    func send(_ response: LoopbackResponse, for request: LoopbackRequest, keepAlive: Bool, on socket: LoopbackSocket) -> Bool {
        var keepAlive = keepAlive
        let names = Set(response.headers.map { HTTPText.lowercased($0.0) })
        let hasBody = !HTTPResponseHead.statusForbidsBody(response.status)
        var headers: [(String, String)] = []
        if !names.contains("date") { headers.append(("Date", HTTPResponseHead.currentDate())) }
        headers += response.headers
        if let declared = response.headers.first(where: { HTTPText.lowercased($0.0) == "content-length" }) {
            // A deliberately wrong length breaks the framing: close after sending so the client notices.
            if Int(HTTPText.trimmed(declared.1)) != response.body.count { keepAlive = false }
        } else if names.contains("transfer-encoding") {
            keepAlive = false
        } else if hasBody {
            headers.append(("Content-Length", "\(response.body.count)"))
        }
        if names.contains("connection") {
            let request = LoopbackRequest(method: "GET", path: "/", headers: response.headers)
            if request.headerTokens("Connection").contains("close") { keepAlive = false }
        } else {
            headers.append(("Connection", keepAlive ? "keep-alive" : "close"))
        }
        var bytes = HTTPResponseHead.serialize(status: response.status, headers: headers)
        if hasBody && request.method != "HEAD" { bytes += response.body }
        return socket.sendAll(bytes) && keepAlive
    }

    /// The conditional-request decision for ``LoopbackRoute/cached(body:contentType:etag:lastModified:)``:
    /// `If-None-Match` (weak comparison, `*` matches any current entity) takes precedence; without it,
    /// `If-Modified-Since` must equal `Last-Modified` exactly.
    static func isNotModified(_ request: LoopbackRequest, etag: String?, lastModified: String?) -> Bool {
        if let condition = request.header("If-None-Match") {
            guard let etag else { return false }
            if HTTPText.trimmed(condition) == "*" { return true }
            let wanted = opaqueTag(etag)
            return condition.split(separator: ",").contains { opaqueTag(String($0)) == wanted }
        }
        if let since = request.header("If-Modified-Since"), let lastModified {
            return HTTPText.trimmed(since) == HTTPText.trimmed(lastModified)
        }
        return false
    }

    /// An entity tag without the weakness prefix and quotes, for weak comparison.
    private static func opaqueTag(_ tag: String) -> String {
        var text = Substring(HTTPText.trimmed(tag))
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        return String(text)
    }

    /// A 200 response whose body is optionally content-encoded.
    private static func encoded(
        _ body: [UInt8],
        contentType: String,
        coding: String?,
        encoder: ([UInt8]) -> [UInt8]
    ) -> LoopbackResponse {
        var headers = [("Content-Type", contentType), ("Vary", "Accept-Encoding")]
        guard let coding else { return LoopbackResponse(status: 200, headers: headers, body: body) }
        headers.append(("Content-Encoding", coding))
        return LoopbackResponse(status: 200, headers: headers, body: encoder(body))
    }

    /// Printable filler bytes for streamed and stalled bodies: lines of `a`–`z` and `0`–`9`.
    static func filler(count: Int) -> [UInt8] {
        let pattern = Array("abcdefghijklmnopqrstuvwxyz0123456789\n".utf8)
        return (0..<count).map { pattern[$0 % pattern.count] }
    }
}
