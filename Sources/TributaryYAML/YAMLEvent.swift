/// One libyaml parse event, copied out of C memory into Swift values (marks already 1-based).
enum YAMLEvent: Sendable, Hashable {
    /// The stream begins.
    case streamStart
    /// The stream ends; no more events follow.
    case streamEnd
    /// A document begins at `mark` (explicit `---` or the first content of an implicit document).
    case documentStart(mark: Mark)
    /// The current document ends.
    case documentEnd
    /// An alias `*anchor` at `mark`.
    case alias(anchor: String, mark: Mark)
    /// A scalar with its decoded text, style, optional resolved tag and anchor, starting at `mark`.
    case scalar(value: String, style: ScalarStyle, tag: String?, anchor: String?, mark: Mark)
    /// A sequence begins at `mark`.
    case sequenceStart(tag: String?, anchor: String?, mark: Mark)
    /// The innermost open sequence ends.
    case sequenceEnd
    /// A mapping begins at `mark`.
    case mappingStart(tag: String?, anchor: String?, mark: Mark)
    /// The innermost open mapping ends.
    case mappingEnd
}
