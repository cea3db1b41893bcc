import Foundation

/// Text being collected for one field: started at the field's start tag, finished at its end
/// tag, with what the text means and how child elements inside it are treated.
struct Capture {
    /// What the text is for.
    enum Field {
        /// An item's or the feed's title; `fallback` titles (`dc:title`, `media:title`) never replace one.
        case title(TextKind, fallback: Bool)
        /// RSS `link` text.
        case link
        /// An Atom `link` written with its URL as text: an alternate link like one with `href`.
        case atomTextLink
        /// RSS `guid`.
        case guid(permaLink: Bool)
        /// Atom `id`.
        case atomID
        /// RSS `description`, `dc:description`: HTML.
        case description
        /// `content:encoded`: HTML.
        case encoded
        /// Atom `summary`.
        case summary(TextKind)
        /// Atom `content`.
        case content(TextKind)
        /// Atom `subtitle` / 0.3 `tagline`.
        case subtitle(TextKind)
        /// A plain-text summary of lower rank: `itunes:summary`, `itunes:subtitle`, `media:description`
        /// (`html` when `media:description type="html"`; a `preferred` one replaces an earlier one).
        case plainSummary(html: Bool, preferred: Bool)
        /// A date.
        case date(DateSlot)
        /// An RSS-style author text (`author`, `managingEditor`, `dc:creator`, `itunes:author`).
        case author(fallback: Bool)
        /// A tag (`category`, `dc:subject`).
        case category
        /// RSS `comments`.
        case comments
        /// `itunes:duration`.
        case duration
        /// An Atom person's `name`, `email` or `uri`.
        case personName, personEmail, personURI
        /// RSS `image/url`.
        case imageURL
        /// Atom `logo` and `icon`.
        case logo, icon
        /// `language`, `dc:language`.
        case language
    }

    /// What a text construct holds.
    enum TextKind: Equatable {
        case text
        /// RSS's titles, which say nothing of their type: text, unless it looks like HTML as Python's
        /// feedparser judges it (`FeedText.looksLikeHTML`: a closing tag of an HTML element, or a
        /// character reference, left after XML's own escaping).
        case guessed
        case html
        case xhtml
        /// Atom 0.3 `mode="base64"`; `html` when the decoded bytes are HTML.
        case base64(html: Bool)

        /// How to collect it.
        var mode: Mode {
            switch self {
            case .text, .guessed, .base64: .plain
            case .html: .html
            case .xhtml: .xhtml
            }
        }
    }

    /// Where a date goes.
    enum DateSlot {
        /// `published` (or the feed's `updated`), replacing any earlier value.
        case published
        /// `updated`, replacing any earlier value.
        case updated
        /// `published` only if there is none yet (`dc:date`, Atom 0.3 `created`).
        case publishedIfAbsent
    }

    /// How child elements and text are collected.
    enum Mode {
        /// Text only; child tags are dropped and their text kept (`<title>A <b>bold</b> title</title>`).
        case plain
        /// HTML source: direct text is already HTML (escaped or CDATA in the XML); child elements
        /// (unescaped HTML) are written back as tags, with their text escaped.
        case html
        /// XHTML markup: everything is written as HTML, text escaped; a wrapping XHTML `div` is dropped.
        case xhtml
    }

    var field: Field
    var mode: Mode
    /// Whether it belongs to the current item (else to the feed or a feed-level person).
    var forItem: Bool
    /// The base URL in effect on the element (xml:base, else the document's URL).
    var base: URL?
    /// Where the element started and its name, for problems (recorded for dates only; the
    /// names are interned by libxml2 and valid during the parse).
    var line: Int?
    var column: Int?
    var local: UnsafePointer<UInt8>?
    var prefix: UnsafePointer<UInt8>?
}
