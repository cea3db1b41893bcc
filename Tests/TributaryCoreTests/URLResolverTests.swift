import Foundation
import Testing

@testable import TributaryCore

@Suite("Configuration references: schemes and resolution")
struct URLResolverTests {
    let directory = URL(fileURLWithPath: "/srv/feeds", isDirectory: true)

    @Test(
        "A scheme is what precedes the first colon when it is an ASCII letter and then letters, digits, + - or .",
        arguments: [
            ("https://example.org/feed", "https"),
            ("HTTP://EXAMPLE.ORG/", "http"),
            ("File:///tmp/a.xml", "file"),
            ("feed:https://example.org/rss", "feed"),
            ("svn+ssh://host/x", "svn+ssh"),
            ("x-my.scheme2:rest", "x-my.scheme2"),
            ("c:relative", "c"),
        ])
    func schemes(reference: String, expected: String) {
        #expect(URLResolver.scheme(of: reference) == expected)
    }

    @Test(
        "No scheme: no colon, nothing before it, a first character that is not a letter, or other characters",
        arguments: ["feeds/local.xml", ":8080/x", "1abc:x", "-x:y", "a b:c", "中文:x", "é:x", "a_b:c", "", "./a:b"])
    func noScheme(reference: String) {
        #expect(URLResolver.scheme(of: reference) == nil)
    }

    @Test("http(s) references are kept as written, whatever the case of their scheme")
    func webReferences() {
        #expect(URLResolver.resolve("https://example.org/a?b=1#c", against: directory).absoluteString == "https://example.org/a?b=1#c")
        #expect(URLResolver.resolve("HTTP://Example.org/x", against: directory).absoluteString == "HTTP://Example.org/x")
    }

    @Test("file: references and paths become absolute file URLs against the folder")
    func fileReferences() {
        #expect(URLResolver.resolve("file:///tmp/a%20b.xml", against: directory).path == "/tmp/a b.xml")
        #expect(URLResolver.resolve("FILE:samples/a.xml", against: directory).path == "/srv/feeds/samples/a.xml")
        #expect(URLResolver.resolve("samples/../b.xml", against: directory).path == "/srv/feeds/b.xml")
        #expect(URLResolver.resolve("/var/x.json", against: directory).path == "/var/x.json")
        #expect(URLResolver.resolve("https:/no-host", against: directory).isFileURL, "without //, a path (the reader then rejects it)")
        #expect(URLResolver.resolve("httpx://a/b", against: directory).path == "/srv/feeds/httpx:/a/b")
    }
}
