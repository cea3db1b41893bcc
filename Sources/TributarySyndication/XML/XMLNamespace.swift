/// The XML namespaces feeds use, matched by URI (case-insensitively, with or without a trailing
/// `/` or `#`), including the wrong-but-common URIs real feeds carry, and by well-known prefix
/// when a document forgets to declare one.
enum XMLNamespace: UInt8, Sendable {
    /// No namespace: core RSS 0.9x/2.0 (or Atom, when the root `feed` has no namespace).
    case none
    /// RSS 1.0 (`http://purl.org/rss/1.0/`), and the RSS 2.0 URIs some publishers invented.
    case rss10
    /// RSS 0.90 (`http://my.netscape.com/rdf/simple/0.9/`).
    case rss090
    /// Atom 1.0 (`http://www.w3.org/2005/Atom`).
    case atom10
    /// Atom 0.3 (`http://purl.org/atom/ns#`).
    case atom03
    /// RDF (`http://www.w3.org/1999/02/22-rdf-syntax-ns#`).
    case rdf
    /// Dublin Core elements 1.1 and 1.0.
    case dc
    /// Dublin Core terms.
    case dcterms
    /// `content:encoded` (`http://purl.org/rss/1.0/modules/content/`).
    case content
    /// Media RSS (`http://search.yahoo.com/mrss/`).
    case media
    /// Apple Podcasts (`http://www.itunes.com/dtds/podcast-1.0.dtd`, in any case).
    case itunes
    /// XHTML, inside Atom content.
    case xhtml
    /// The `xml:` namespace.
    case xml
    /// Anything else.
    case other

    /// Whether elements in this namespace are RSS's own.
    var isRSS: Bool { self == .none || self == .rss10 || self == .rss090 }

    /// Whether elements in this namespace are Atom's own.
    var isAtom: Bool { self == .atom10 || self == .atom03 }

    /// The namespace a URI names.
    static func classify(_ uri: UnsafePointer<UInt8>) -> XMLNamespace {
        let length = strlenBytes(uri)
        var end = length
        // Ignore one trailing `/` or `#`.
        if end > 0, uri[end - 1] == UInt8(ascii: "/") || uri[end - 1] == UInt8(ascii: "#") { end -= 1 }
        let text = UnsafeBufferPointer(start: uri, count: end)
        for (known, namespace) in known where equalsIgnoringCase(text, known) {
            return namespace
        }
        return .other
    }

    /// The namespace a prefix usually stands for, for elements whose prefix is not declared.
    static func wellKnown(prefix: UnsafePointer<UInt8>) -> XMLNamespace? {
        let length = strlenBytes(prefix)
        let text = UnsafeBufferPointer(start: prefix, count: length)
        for (name, namespace) in prefixes where equalsIgnoringCase(text, name) {
            return namespace
        }
        return nil
    }

    /// A name for the namespace in messages.
    var displayName: String {
        switch self {
        case .none: "no namespace"
        case .rss10: "RSS 1.0"
        case .rss090: "RSS 0.90"
        case .atom10: "Atom 1.0"
        case .atom03: "Atom 0.3"
        case .rdf: "RDF"
        case .dc: "Dublin Core"
        case .dcterms: "Dublin Core terms"
        case .content: "RSS content module"
        case .media: "Media RSS"
        case .itunes: "iTunes"
        case .xhtml: "XHTML"
        case .xml: "XML"
        case .other: "unknown"
        }
    }

    /// Known URIs without their trailing `/` or `#`, lower-cased.
    private static let known: [(String, XMLNamespace)] = [
        ("http://www.w3.org/2005/atom", .atom10),
        ("http://purl.org/dc/elements/1.1", .dc),
        ("http://purl.org/rss/1.0/modules/content", .content),
        ("http://search.yahoo.com/mrss", .media),
        ("http://www.itunes.com/dtds/podcast-1.0.dtd", .itunes),
        ("http://purl.org/rss/1.0", .rss10),
        ("http://www.w3.org/1999/02/22-rdf-syntax-ns", .rdf),
        ("http://purl.org/atom/ns", .atom03),
        ("http://purl.org/dc/terms", .dcterms),
        ("http://www.w3.org/1999/xhtml", .xhtml),
        ("http://www.w3.org/xml/1998/namespace", .xml),
        ("http://purl.org/dc/elements/1.0", .dc),
        ("http://my.netscape.com/rdf/simple/0.9", .rss090),
        ("http://backend.userland.com/rss2", .rss10),
        ("http://backend.userland.com/rss", .rss10),
        ("http://blogs.law.harvard.edu/tech/rss", .rss10),
        ("https://www.w3.org/2005/atom", .atom10),
        ("https://purl.org/dc/elements/1.1", .dc),
        ("https://search.yahoo.com/mrss", .media),
    ]

    private static let prefixes: [(String, XMLNamespace)] = [
        ("content", .content), ("dc", .dc), ("dcterms", .dcterms), ("media", .media), ("itunes", .itunes), ("atom", .atom10),
        ("rdf", .rdf), ("xhtml", .xhtml),
    ]

    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: String) -> Bool {
        guard bytes.count == lowercase.utf8.count else { return false }
        for (byte, expected) in zip(bytes, lowercase.utf8) {
            if ByteScan.lowercasedASCII(byte) != expected { return false }
        }
        return true
    }
}

/// The length of a NUL-terminated byte string.
func strlenBytes(_ pointer: UnsafePointer<UInt8>) -> Int {
    var length = 0
    while pointer[length] != 0 { length += 1 }
    return length
}
