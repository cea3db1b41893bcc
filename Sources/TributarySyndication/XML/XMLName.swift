/// The element and attribute local names the feed mappings look at. Each case is spelled as in
/// the documents (`pubDate`, `RDF`), so that `String(describing:)` gives the XML name.
enum XMLName: Int, CaseIterable, Sendable {
    // Roots and containers.
    case rss, RDF, channel, item, feed, entry, items
    // RSS.
    case title, link, description, guid, pubDate, lastBuildDate, author, category, enclosure, comments, image, url
    case language, managingEditor, textInput, textinput, source
    // Atom.
    case id, summary, content, published, updated, issued, modified, created, name, email, uri, subtitle, tagline, logo, icon
    case contributor
    // Dublin Core, content module.
    case creator, date, subject, encoded
    // Media RSS, iTunes.
    case thumbnail, group, duration, owner, keywords
    // Attributes.
    case href, rel, type, length, version, isPermaLink, domain, term, label, mode, about, medium, fileSize, base, lang, src
    // XHTML.
    case div

    /// The name as documents spell it.
    var spelling: String { String(describing: self) }

    /// Every spelling, indexed by raw value: `String(describing:)` goes through reflection, too
    /// slow to run for every name on every parse.
    static let spellings: [String] = allCases.map(\.spelling)
}
