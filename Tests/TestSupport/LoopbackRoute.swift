/// What a ``LoopbackServer`` does when a request arrives for a registered path.
public indirect enum LoopbackRoute: Sendable {
    /// `200 OK` with `body`, a `Content-Type` and any extra `headers`.
    case ok(body: [UInt8], contentType: String = "application/octet-stream", headers: [(String, String)] = [])

    /// `200 OK` with `ETag` and/or `Last-Modified` validators, or `304 Not Modified` (no body) when the
    /// request's `If-None-Match` lists `etag` (weak comparison, or `*`), or — when the request has no
    /// `If-None-Match`, as RFC 9110 orders it — its `If-Modified-Since` equals `lastModified` exactly.
    case cached(body: [UInt8], contentType: String, etag: String?, lastModified: String?)

    /// `200 OK` with the body gzip-encoded (`Content-Encoding: gzip`) when the request's `Accept-Encoding`
    /// allows gzip, otherwise sent as is. Always adds `Vary: Accept-Encoding`.
    case gzip(body: [UInt8], contentType: String)

    /// `200 OK` with the body zlib-wrapped (`Content-Encoding: deflate`) when the request's `Accept-Encoding`
    /// allows deflate, otherwise sent as is. Always adds `Vary: Accept-Encoding`.
    case deflate(body: [UInt8], contentType: String)

    /// A redirect (`302 Found` by default) whose `Location` is `to`, verbatim (relative or absolute).
    case redirect(to: String, status: Int = 302)

    /// Any status with an optional plain-text body and extra headers, for example
    /// `.status(503, headers: [("Retry-After", "120")])`.
    case status(Int, body: String = "", headers: [(String, String)] = [])

    /// Waits `milliseconds` (the request counts as in flight meanwhile), then behaves like `then`.
    /// Ends early, closing the connection without a response, if the server stops or the client goes away.
    case delay(milliseconds: Int, then: LoopbackRoute)

    /// Sends a `200` head with `Content-Length: totalLength` and the first `bytesBeforeStall` body bytes,
    /// waits `stallMilliseconds` (or until the server stops or the client goes away), then closes the
    /// connection without sending the rest.
    case stallMidBody(bytesBeforeStall: Int, totalLength: Int, stallMilliseconds: Int)

    /// A `200` head without `Content-Length` (`Connection: close`, so the body is close-delimited), then body
    /// bytes forever, until the client disconnects or the server stops.
    case endless(contentType: String)

    /// The n-th request to the path (counted from 0 since the route was registered) gets the n-th
    /// behaviour; once past the end, the last one repeats. An empty sequence answers `500`.
    case sequence([LoopbackRoute])

    /// Calls the closure (on the connection's thread) and sends the response it returns.
    /// The closure must not call ``LoopbackServer/stop()`` on the same server.
    case handler(@Sendable (LoopbackRequest) -> LoopbackResponse)

    /// Reads the request, then closes the connection without sending anything.
    case hangUp

    /// `200 OK` with `text` encoded as UTF-8.
    public static func text(
        _ text: String,
        contentType: String = "text/plain; charset=utf-8",
        headers: [(String, String)] = []
    ) -> LoopbackRoute {
        .ok(body: Array(text.utf8), contentType: contentType, headers: headers)
    }

    /// `.cached` with a UTF-8 text body.
    public static func cached(
        text: String,
        contentType: String = "text/plain; charset=utf-8",
        etag: String?,
        lastModified: String? = nil
    ) -> LoopbackRoute {
        .cached(body: Array(text.utf8), contentType: contentType, etag: etag, lastModified: lastModified)
    }

    /// `.gzip` with a UTF-8 text body.
    public static func gzip(text: String, contentType: String = "text/plain; charset=utf-8") -> LoopbackRoute {
        .gzip(body: Array(text.utf8), contentType: contentType)
    }

    /// `.deflate` with a UTF-8 text body.
    public static func deflate(text: String, contentType: String = "text/plain; charset=utf-8") -> LoopbackRoute {
        .deflate(body: Array(text.utf8), contentType: contentType)
    }
}
