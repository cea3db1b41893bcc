internal import CLibXML2

/// The names the mappings look for, interned in one parser's libxml2 dictionary, so that an
/// element or attribute name (which libxml2 also interns there) is recognised by comparing
/// pointers instead of bytes. Valid only while that parser context lives.
final class XMLNameTable {
    /// The interned pointer of each `XMLName`, indexed by its raw value.
    let pointers: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    /// libxml2's interned `xml:` namespace URI.
    let xmlNamespace: UnsafePointer<UInt8>?
    // Looked up on every start tag without a dynamic exclusivity check: only this class's
    // methods touch them, and none calls out while an access is open.
    // A name in another case (`<ITEM>`, `<pubdate>`) is looked up once, case-insensitively, and
    // its answer (nil for names the mappings do not use) remembered under its pointer too.
    @exclusivity(unchecked) private var byPointer: [UnsafeRawPointer: XMLName?] = [:]
    @exclusivity(unchecked) private var namespaces: [(UnsafeRawPointer, XMLNamespace)] = []

    init(dictionary: xmlDictPtr?, xmlNamespace: UnsafePointer<UInt8>?) {
        self.xmlNamespace = xmlNamespace
        pointers = .allocate(capacity: XMLName.allCases.count)
        pointers.initialize(repeating: nil, count: XMLName.allCases.count)
        byPointer.reserveCapacity(XMLName.allCases.count)
        for (raw, spelling) in XMLName.spellings.enumerated() {
            guard let name = XMLName(rawValue: raw) else { continue }
            let interned = xmlDictLookup(dictionary, spelling, -1)
            pointers[name.rawValue] = interned
            if let interned { byPointer[UnsafeRawPointer(interned)] = .some(name) }
        }
    }

    deinit {
        pointers.deallocate()
    }

    /// The name an interned local name stands for, if it is one the mappings use. Names are
    /// matched regardless of ASCII case, as feedparser does: `<ITEM>` and `<Title>` are an item
    /// and its title.
    @inline(__always)
    func name(_ local: UnsafePointer<UInt8>) -> XMLName? {
        if let known = byPointer[UnsafeRawPointer(local)] { return known }
        return foldedName(local)
    }

    /// How many other spellings are remembered: a document with ever new element names costs a
    /// lookup for each beyond these, but no memory.
    private static let rememberedSpellings = 4_096

    private func foldedName(_ local: UnsafePointer<UInt8>) -> XMLName? {
        var folded: [UInt8] = []
        var index = 0
        while local[index] != 0, index <= XMLNameTable.longestSpelling {
            folded.append(ByteScan.lowercasedASCII(local[index]))
            index += 1
        }
        let name = local[index] == 0 ? XMLNameTable.byFoldedSpelling[folded] : nil
        if byPointer.count < XMLName.allCases.count + XMLNameTable.rememberedSpellings {
            byPointer[UnsafeRawPointer(local)] = .some(name)
        }
        return name
    }

    /// Every spelling in lower case (`pubdate`, `rdf`), with the name it stands for.
    private static let byFoldedSpelling: [[UInt8]: XMLName] = {
        var table: [[UInt8]: XMLName] = [:]
        for (raw, spelling) in XMLName.spellings.enumerated() {
            guard let name = XMLName(rawValue: raw) else { continue }
            let folded = Array(spelling.lowercased().utf8)
            if table[folded] == nil { table[folded] = name }
        }
        return table
    }()

    private static let longestSpelling = XMLName.spellings.map(\.utf8.count).max() ?? 0

    /// The namespace a URI names; URIs are interned too, so answers are cached by pointer.
    func namespace(_ uri: UnsafePointer<UInt8>) -> XMLNamespace {
        let key = UnsafeRawPointer(uri)
        for (pointer, namespace) in namespaces where pointer == key {
            return namespace
        }
        let namespace = XMLNamespace.classify(uri)
        if namespaces.count < 64 { namespaces.append((key, namespace)) }
        return namespace
    }
}

/// The attributes of one start tag as libxml2's SAX2 hands them over: five pointers each
/// (local name, prefix, URI, value start, value end). Valid only during the callback.
struct XMLAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    let count: Int
    let names: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    let xmlNamespace: UnsafePointer<UInt8>?

    /// The value of the attribute with this local name, in any namespace.
    func value(_ name: XMLName) -> String? {
        guard count > 0, let base, let wanted = names[name.rawValue] else { return nil }
        for index in 0..<count where base[index * 5] == wanted {
            return XMLAttributes.text(base[index * 5 + 3], base[index * 5 + 4])
        }
        return nil
    }

    /// The value of `xml:base` or `xml:lang`.
    func xmlAttribute(_ name: XMLName) -> String? {
        guard count > 0, let base, let wanted = names[name.rawValue], let xmlNamespace else { return nil }
        for index in 0..<count where base[index * 5] == wanted && base[index * 5 + 2] == xmlNamespace {
            return XMLAttributes.text(base[index * 5 + 3], base[index * 5 + 4])
        }
        return nil
    }

    /// Every attribute as (prefix, local name, value), for re-serializing markup.
    func visit(_ body: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>, String) -> Void) {
        guard let base else { return }
        for index in 0..<count {
            guard let local = base[index * 5] else { continue }
            body(base[index * 5 + 1], local, XMLAttributes.text(base[index * 5 + 3], base[index * 5 + 4]))
        }
    }

    /// The text between two pointers, with the `&#38;` that libxml2 leaves for `&amp;` in
    /// attribute values (when it does not substitute entities) turned back into `&`.
    private static func text(_ start: UnsafePointer<UInt8>?, _ end: UnsafePointer<UInt8>?) -> String {
        guard let start, let end, end > start else { return "" }
        let bytes = UnsafeBufferPointer(start: start, count: end - start)
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), index + 4 < bytes.count, bytes[index + 1] == UInt8(ascii: "#"),
                bytes[index + 2] == UInt8(ascii: "3"), bytes[index + 3] == UInt8(ascii: "8"), bytes[index + 4] == UInt8(ascii: ";")
            {
                output.append(UInt8(ascii: "&"))
                index += 5
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
