import Foundation
import Testing
import TributaryModel

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

    @Test("a plain absolute path resolves to its origin and itself, as the URL policy resolves it", arguments: bases)
    func plainAbsolutePaths(_ base: String) throws {
        let baseURL = try #require(URL(string: base))
        let resolver = HTMLURLResolver(baseURL: baseURL)
        var fast = 0
        for reference in Self.references + ["/img/1.jpg", "/a/b.c/d?e=f&g=h", "/a/./b", "/a/..", "/a b", "/&colon;x", "/é", "/x\u{7F}"] {
            guard let origin = Array(reference.utf8).withUnsafeBufferPointer({ resolver.origin(forPlainAbsolutePath: $0) }) else {
                continue
            }
            fast += 1
            for (mailto, imageData) in [(false, false), (true, true)] {
                #expect(
                    HTMLURLPolicy.sanitize(reference, allowsMailto: mailto, allowsImageData: imageData, resolver: resolver)
                        == origin + reference, "\(reference) against \(base)")
            }
        }
        if base.hasPrefix("https://example.com/blog") { #expect(fast >= 4, "the plain paths of the list take the short way") }
    }

    /// Against the base without its user name and password: the links resolved are published.
    @Test(arguments: bases)
    func matchesURLReference(_ base: String) throws {
        let baseURL = try #require(URL(string: base))
        let resolver = HTMLURLResolver(baseURL: baseURL)
        let published = WebLink.withoutUserInformation(baseURL)
        for reference in Self.references {
            #expect(resolver.resolve(reference) == URLReference.resolve(reference, against: published), "\(reference) against \(base)")
        }
    }
}
