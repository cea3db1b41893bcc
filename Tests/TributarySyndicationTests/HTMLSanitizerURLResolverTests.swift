import Foundation
import Testing

@testable import TributarySyndication

@Suite("HTMLURLResolver agrees with URLReference")
struct HTMLSanitizerURLResolverTests {
    static let bases = [
        "https://example.com/blog/post.html", "https://example.com", "https://example.com/", "http://example.com:8080/a/b/",
        "https://user@example.com/a?x=1#f", "https://example.com/a/./b/c", "https://example.com/a/../b/c", "https://Example.COM/Dir/page",
        "https://example.com/a%20b/c", "file:///tmp/feed.xml",
    ]
    static let references = [
        "/post/1", "img/a.png", "a", "x?y=1&z=2", "/a/b?c=d/e/../f", "a/b/c.html", "..", "../x", "./x", "a/./b", "a/../b", ".", "a/.",
        "a/..", ".hidden/x", "..x/y", "a.", "x..y", "/", "~user/p", "a(b)c", "a,b;c=d", "x@y", "a!$*+", "#f", "?q", "a b", "ü",
        "//host.example/x", "/a//b", "a?b?c", "a?/../x", "%41", "x:y",
    ]

    @Test(arguments: bases)
    func matchesURLReference(_ base: String) throws {
        let baseURL = try #require(URL(string: base))
        let resolver = HTMLURLResolver(baseURL: baseURL)
        for reference in Self.references {
            #expect(resolver.resolve(reference) == URLReference.resolve(reference, against: baseURL), "\(reference) against \(base)")
        }
    }
}
