/// What an adapter's items carry in their titles, summaries, author names and tags, which decides what the
/// pipeline's normalize step does with a `<` or `&` in them (``SourceAdapter/itemText``).
public enum ItemTextForm: Sendable, Hashable {
    /// Plain text already, as the feed parser gives it (`Vec<T>`, `a < b`, `R&D`): `<` and `&` are characters of
    /// the text. Normalizing only collapses whitespace.
    case plain
    /// Text that may still hold HTML tags and entities, as app APIs and scraped pages often give it (`Tom &amp;
    /// Jerry`, `<em>关键词</em>`). Normalizing strips the tags and decodes the entities, then collapses whitespace.
    case markup
}
