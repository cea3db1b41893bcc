/// What the sanitizer and the text extractor do with one element name.
///
/// Names on no list are unwrapped: the tags vanish and the children are processed.
struct HTMLElementRule: Sendable {
    enum Action: Sendable {
        /// Written out with its allowed attributes.
        case keep
        /// Tags dropped, children processed.
        case unwrap
        /// Dropped together with everything inside it, text included.
        case drop
    }

    let action: Action
    /// The lower-case name as written to the output.
    let name: HTMLNameKey
    /// Written as `<br>` with no end tag.
    let isVoid: Bool
    /// Separates words in plain text (`<p>a</p><p>b</p>` reads "a b").
    let isBlock: Bool
    /// The attributes kept on this element, the global ones included.
    let attributes: HTMLAttributeSet
    /// Whether `src` may be a `data:` URL of a raster image (only on `img`).
    let allowsImageData: Bool
    /// Whether `href` may be a `mailto:` URL (only on `a`).
    let allowsMailto: Bool

    /// The rule for a name from libxml2; unknown names unwrap.
    static func named(_ name: UnsafePointer<UInt8>) -> HTMLElementRule {
        table.value(for: name) ?? unknown
    }

    /// The rule for names on no list.
    static let unknown = HTMLElementRule(action: .unwrap, name: HTMLNameKey("unknown"), isBlock: false)

    private init(
        action: Action, name: HTMLNameKey, isVoid: Bool = false, isBlock: Bool, attributes: [HTMLAttribute] = [],
        allowsImageData: Bool = false, allowsMailto: Bool = false
    ) {
        self.action = action
        self.name = name
        self.isVoid = isVoid
        self.isBlock = isBlock
        self.attributes = HTMLAttributeSet(attributes).union(.global)
        self.allowsImageData = allowsImageData
        self.allowsMailto = allowsMailto
    }

    private static let table: HTMLNameTable<HTMLElementRule> = {
        var rules: [(String, HTMLElementRule)] = []
        func add(_ action: Action, _ names: String, void: Bool = false, block: Bool = false, _ attributes: [HTMLAttribute] = []) {
            for name in names.split(separator: " ") {
                let rule = HTMLElementRule(
                    action: action, name: HTMLNameKey(String(name)), isVoid: void, isBlock: block, attributes: attributes,
                    allowsImageData: name == "img", allowsMailto: name == "a"
                )
                rules.append((String(name), rule))
            }
        }
        // Kept, inline.
        add(.keep, "abbr acronym b bdi bdo big cite code dfn em i kbd mark rp rt ruby s samp small span strike strong sub sup tt u var")
        add(.keep, "a", [.href])
        add(.keep, "q del ins", [.cite])
        add(.keep, "time", [.datetime])
        add(.keep, "picture")
        add(.keep, "img", void: true, [.src, .alt, .width, .height, .srcset])
        add(.keep, "audio video", [.src, .controls, .poster, .width, .height, .preload])
        add(.keep, "source track", void: true, [.src, .type, .srcset, .kind, .srclang, .label])
        // Kept, block.
        add(.keep, "address caption center dd details div dl dt figcaption figure h1 h2 h3 h4 h5 h6 p pre summary", block: true)
        add(.keep, "table tbody tfoot thead tr ul", block: true)
        add(.keep, "br hr", void: true, block: true)
        add(.keep, "blockquote", block: true, [.cite])
        add(.keep, "ol", block: true, [.start, .reversed, .type])
        add(.keep, "li", block: true, [.value])
        add(.keep, "td th", block: true, [.colspan, .rowspan, .headers, .scope])
        add(.keep, "colgroup", block: true, [.span])
        add(.keep, "col", void: true, block: true, [.span])
        // Unwrapped, but words on either side stay apart in plain text.
        add(.unwrap, "article aside footer header hgroup main nav section", block: true)
        // Dropped with their content: scripts, embedding, document metadata, forms, foreign content.
        add(.drop, "script style noscript template iframe object applet frameset noframes noembed")
        add(.drop, "head title")
        add(.drop, "form button select option optgroup datalist textarea label fieldset legend")
        add(.drop, "svg math xml canvas map dialog")
        // Void elements of the same kinds: the tag and its attributes go, but nothing else can be
        // inside them. libxml2 knows HTML 4 only and treats `embed` and `keygen` as containers
        // of whatever follows, which is the page's content, not theirs.
        add(.unwrap, "embed keygen input isindex frame param area base link meta")
        return HTMLNameTable(rules)
    }()
}
