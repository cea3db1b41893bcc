/// Feeds of a chosen size in bytes, for tests of size limits, that cost little to parse.
public enum PaddedFeed {
    /// An RSS 2.0 document of exactly `size` bytes (at least about 300): a channel titled `big` with three items (`t1`,
    /// `t2`, `t3`), then comments of 1 MB (libxml2 reads none longer than 10 MB) and spaces up to the size.
    public static func rss(size: Int) -> [UInt8] {
        var body = Array(#"<?xml version="1.0"?><rss version="2.0"><channel><title>big</title><link>http://example.org/</link>"#.utf8)
        for index in 1...3 { body += Array("<item><title>t\(index)</title><link>http://example.org/\(index)</link></item>".utf8) }
        let tail = Array("</channel></rss>\n".utf8)
        let comment = Array("<!-- ".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) - 10) + Array(" -->\n".utf8)
        while body.count + comment.count + tail.count <= size { body += comment }
        body += [UInt8](repeating: 0x20, count: max(0, size - body.count - tail.count)) + tail
        return body
    }
}
