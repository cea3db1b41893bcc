import Foundation
import Testing
import TributaryModel
import TributarySyndication

/// Loading and parsing the hand-written feeds in `Fixtures/feeds`.
enum FeedParserFixtures {
    /// The bytes of a fixture file.
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/feeds"), "missing fixture \(name)")
        return Array(try Data(contentsOf: url))
    }

    /// A fixture parsed with HTML sanitizing off (so that whole-value comparisons do not depend
    /// on the sanitizer) unless asked for.
    static func parse(
        _ name: String, documentURL: String? = nil, charset: String? = nil, sanitize: Bool = false
    ) throws -> ParsedFeed {
        try parse(bytes: bytes(name), documentURL: documentURL, charset: charset, sanitize: sanitize)
    }

    /// Bytes parsed with the test options.
    static func parse(bytes: [UInt8], documentURL: String? = nil, charset: String? = nil, sanitize: Bool = false) throws -> ParsedFeed {
        let options = FeedParser.Options(
            source: "example", documentURL: documentURL.flatMap(URL.init(string:)), charset: charset, sanitize: sanitize)
        return try FeedParser(options).parse(bytes)
    }

    /// A UTF-8 document parsed with the test options.
    static func parse(xml: String, documentURL: String? = nil) throws -> ParsedFeed {
        try parse(bytes: Array(xml.utf8), documentURL: documentURL)
    }

    /// An instant from RFC 3339 text, for expectations.
    static func date(_ text: String) -> Date? {
        RFC3339.date(from: text)
    }

    /// The problems whose message contains `text`.
    static func problems(_ feed: ParsedFeed, containing text: String) -> [Problem] {
        feed.problems.filter { $0.message.contains(text) }
    }
}
