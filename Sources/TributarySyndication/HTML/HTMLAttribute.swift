/// The attributes the sanitizer may keep; each element allows a subset (`HTMLAttributeSet`).
enum HTMLAttribute: UInt8, CaseIterable, Sendable {
    case title, lang, dir
    case href, src, cite, poster, srcset
    case alt, width, height, controls, preload, type, kind, srclang, label
    case colspan, rowspan, headers, scope, start, reversed, value, datetime, span

    /// How a value is checked before it is written.
    enum ValueKind: Sendable {
        /// Escaped and written.
        case text
        /// A URL checked against the scheme allow-list and resolved (`HTMLURLPolicy`).
        case url
        /// A list of image candidates, each URL checked like `url`.
        case sourceSet
    }

    var valueKind: ValueKind {
        switch self {
        case .href, .src, .cite, .poster: .url
        case .srcset: .sourceSet
        default: .text
        }
    }

    /// The attribute with this name, if it is on the list.
    static func named(_ name: UnsafePointer<UInt8>) -> HTMLAttribute? {
        table.value(for: name)
    }

    /// The attribute's name as written to the output (the case name is its HTML spelling).
    var key: HTMLNameKey { Self.keys[Int(rawValue)] }

    private static let keys: [HTMLNameKey] = allCases.map { HTMLNameKey("\($0)") }
    private static let table = HTMLNameTable(allCases.map { ("\($0)", $0) })
}

/// A set of `HTMLAttribute`s as a bit mask.
struct HTMLAttributeSet: OptionSet, Sendable {
    let rawValue: UInt32

    init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    init(_ attributes: [HTMLAttribute]) {
        self.rawValue = attributes.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
    }

    func contains(_ attribute: HTMLAttribute) -> Bool {
        rawValue & 1 << UInt32(attribute.rawValue) != 0
    }

    mutating func add(_ attribute: HTMLAttribute) {
        self = HTMLAttributeSet(rawValue: rawValue | 1 << UInt32(attribute.rawValue))
    }

    /// Allowed on every kept element.
    static let global = HTMLAttributeSet([.title, .lang, .dir])
}
