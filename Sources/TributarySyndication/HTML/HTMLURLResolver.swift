import Foundation
import TributaryModel

/// Resolves relative references against one base URL, the same way as `URLReference.resolve`,
/// with a shortcut for the references feeds are full of.
///
/// `URLReference.resolve` builds Foundation `URL`s and trims through `NSString`, which made it
/// most of the sanitizer's cost on link-heavy content. A path reference made only of plain
/// characters (`/post/1`, `img/a.png?w=2`) against a plain http(s) base resolves to a prefix of
/// the base followed by the reference (RFC 3986 §5.2 with nothing to normalize), so that prefix
/// is computed once. Everything else goes to `URLReference.resolve`; tests check both agree.
struct HTMLURLResolver {
    let baseURL: URL?
    /// `baseURL` without its user name and password, which references are resolved against.
    private let resolutionBase: URL?
    /// `scheme://authority` of a plain base, for references starting with `/`.
    private let origin: String?
    /// The base up to the last `/` of its path, for references relative to the base's directory.
    private let directory: String?

    init(baseURL: URL?) {
        self.baseURL = baseURL
        // The links resolved here are published: they do not inherit the user name and password a feed's URL may hold.
        let text = baseURL?.absoluteString
        let published = text.flatMap(WebLink.removingUserInformation)
        resolutionBase = published.flatMap { URL(string: $0) } ?? baseURL
        guard let base = published ?? text, let (origin, directory) = Self.prefixes(of: base) else {
            origin = nil
            directory = nil
            return
        }
        self.origin = origin
        self.directory = directory
    }

    /// The absolute form of a trimmed relative reference (no scheme); unchanged without a base.
    func resolve(_ reference: String) -> String {
        guard let origin, let directory, let first = reference.utf8.first, Self.isPlainPath(reference) else {
            return URLReference.resolve(reference, against: resolutionBase)
        }
        return first == UInt8(ascii: "/") ? origin + reference : directory + reference
    }

    /// A reference the shortcut handles: plain characters only, starting with neither `//`
    /// (another host) nor `?`, no `.` or `..` path segment, no `%`, `:` or `#`.
    /// What `HTMLURLPolicy.sanitize` makes of a reference given as bytes, in two pieces, when
    /// the reference is a plain absolute path (`/img/1.jpg`: a `/` not followed by another,
    /// plain bytes other than `&`, no dot segments) and the base has plain prefixes: the origin
    /// to write before the reference. Nil otherwise (the caller takes `sanitize`).
    func origin(forPlainAbsolutePath reference: UnsafeBufferPointer<UInt8>) -> String? {
        guard let origin, reference.count > 1, reference[0] == UInt8(ascii: "/"), reference[1] != UInt8(ascii: "/"),
            !reference.contains(UInt8(ascii: "&")), Self.isPlainPath(reference)
        else { return nil }
        return origin
    }

    private static func isPlainPath(_ reference: String) -> Bool {
        isPlainPath(reference.utf8)
    }

    private static func isPlainPath(_ bytes: some Collection<UInt8>) -> Bool {
        guard bytes.first != UInt8(ascii: "?"), !bytes.starts(with: "//".utf8) else { return false }
        // Path segments are checked for "." and ".." up to the query, which is opaque.
        var segmentLength = 0
        var segmentIsDots = true
        var inQuery = false
        for byte in bytes {
            guard isPlain(byte) else { return false }
            if inQuery { continue }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") {
                if isDotSegment(length: segmentLength, allDots: segmentIsDots) { return false }
                segmentLength = 0
                segmentIsDots = true
                inQuery = byte == UInt8(ascii: "?")
            } else {
                segmentLength += 1
                segmentIsDots = segmentIsDots && byte == UInt8(ascii: ".")
            }
        }
        return inQuery || !isDotSegment(length: segmentLength, allDots: segmentIsDots)
    }

    private static func isDotSegment(length: Int, allDots: Bool) -> Bool {
        allDots && (length == 1 || length == 2)
    }

    /// RFC 3986 unreserved characters, `/`, `?` and the sub-delimiters except `'`: characters
    /// Foundation passes through unchanged. Anything else takes the slow path.
    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "?"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
            UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }

    /// `scheme://authority` and the directory of a plain http(s) base, nil for any other base.
    private static func prefixes(of base: String) -> (origin: String, directory: String)? {
        let bytes = Array(base.utf8)
        let scheme: [UInt8]
        if bytes.starts(with: "https://".utf8) {
            scheme = Array("https://".utf8)
        } else if bytes.starts(with: "http://".utf8) {
            scheme = Array("http://".utf8)
        } else {
            return nil
        }
        // Up to the query or fragment; the path must be plain and free of dot segments.
        let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        let authorityEnd = bytes[scheme.count..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
        let authority = bytes[scheme.count..<authorityEnd]
        guard !authority.isEmpty, authority.allSatisfy({ isPlain($0) || $0 == UInt8(ascii: ":") }) else { return nil }
        let path = bytes[authorityEnd..<end]
        guard path.allSatisfy(isPlain) else { return nil }
        let segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }) else { return nil }
        let origin = String(decoding: bytes[..<authorityEnd], as: UTF8.self)
        let lastSlash = path.lastIndex(of: UInt8(ascii: "/"))
        let directory = lastSlash.map { String(decoding: bytes[...$0], as: UTF8.self) } ?? origin + "/"
        return (origin, directory)
    }
}
