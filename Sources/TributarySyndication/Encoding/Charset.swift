import Foundation

/// A character encoding Tributary can read, named the way glibc's iconv names it, with the
/// labels documents and servers use mapped to it (after the WHATWG Encoding Standard: `gb2312`
/// and `gbk` read as GB18030, `big5` as Big5-HKSCS, `shift_jis` as Windows-31J, `euc-kr` as
/// UHC, and `iso-8859-1`/`us-ascii` as windows-1252, their common superset).
struct Charset: Hashable, Sendable, CustomStringConvertible {
    /// The iconv name, e.g. `GB18030`; `UTF-8` and `WINDOWS-1252` are decoded without iconv.
    var name: String

    static let utf8 = Charset(name: "UTF-8")
    static let utf16LE = Charset(name: "UTF-16LE")
    static let utf16BE = Charset(name: "UTF-16BE")
    static let utf32LE = Charset(name: "UTF-32LE")
    static let utf32BE = Charset(name: "UTF-32BE")
    static let gb18030 = Charset(name: "GB18030")
    static let windows1252 = Charset(name: "WINDOWS-1252")

    var description: String { name }

    /// Whether every byte sequence decodes (so success proves nothing about the guess).
    var isSingleByteLatin: Bool { self == .windows1252 }

    /// Whether the encoding needs a byte order mark or byte-pattern evidence to be believed.
    var isWide: Bool { name.hasPrefix("UTF-16") || name.hasPrefix("UTF-32") }

    /// The charset a label names, or nil when the label is not a plausible encoding name.
    init?(label: String) {
        // A plain label (the usual case) has nothing to trim; Foundation's trimming is slow.
        let trimmed =
            label.utf8.allSatisfy({ Charset.isLabelByte($0) })
            ? label : label.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        guard !trimmed.isEmpty, trimmed.utf8.count <= 40,
            trimmed.utf8.allSatisfy({ Charset.isLabelByte($0) })
        else { return nil }
        let lower = trimmed.lowercased()
        if let known = Charset.aliases[lower] {
            self = known
            return
        }
        if lower.hasPrefix("windows-125"), lower.count == 12 {
            name = "CP" + lower.dropFirst(8)
        } else if lower.hasPrefix("cp125"), lower.count == 6 {
            name = lower.uppercased()
        } else if lower.hasPrefix("iso8859-") || lower.hasPrefix("iso_8859-") {
            name = "ISO-8859-" + (lower.split(separator: "-").last.map { $0.uppercased() } ?? "")
        } else {
            name = trimmed.uppercased()
        }
    }

    init(name: String) {
        self.name = name
    }

    private static func isLabelByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"):
            true
        default: false
        }
    }

    private static let aliases: [String: Charset] = {
        var table: [String: Charset] = [:]
        func add(_ charset: Charset, _ labels: String...) {
            for label in labels { table[label] = charset }
        }
        add(.utf8, "utf-8", "utf8", "unicode-1-1-utf-8", "x-unicode20utf8")
        add(.utf16LE, "utf-16", "utf-16le", "ucs-2", "unicode", "iso-10646-ucs-2", "csunicode")
        add(.utf16BE, "utf-16be")
        add(.utf32LE, "utf-32", "utf-32le")
        add(.utf32BE, "utf-32be")
        add(
            .gb18030, "gb18030", "gbk", "gb2312", "x-gbk", "cp936", "ms936", "windows-936", "chinese", "csgb2312", "iso-ir-58", "euc-cn",
            "gb_2312", "gb_2312-80", "csiso58gb231280", "x-euc-cn")
        add(Charset(name: "BIG5-HKSCS"), "big5", "big5-hkscs", "cn-big5", "x-x-big5", "csbig5", "cp950", "x-big5")
        add(Charset(name: "CP932"), "shift_jis", "shift-jis", "sjis", "ms_kanji", "csshiftjis", "windows-31j", "x-sjis", "cp932", "ms932")
        add(Charset(name: "EUC-JP"), "euc-jp", "x-euc-jp", "cseucpkdfmtjapanese")
        add(Charset(name: "ISO-2022-JP"), "iso-2022-jp", "csiso2022jp")
        add(
            Charset(name: "CP949"), "euc-kr", "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601", "ksc_5601", "cp949", "windows-949", "korean",
            "cseuckr", "iso-ir-149", "uhc")
        add(
            .windows1252, "windows-1252", "cp1252", "x-cp1252", "iso-8859-1", "iso8859-1", "iso_8859-1", "iso-ir-100", "latin1", "l1",
            "cp819", "ibm819", "csisolatin1", "us-ascii", "ascii", "ansi_x3.4-1968", "iso-8859-1:1987")
        add(Charset(name: "KOI8-R"), "koi8-r", "koi8", "cskoi8r")
        add(Charset(name: "KOI8-U"), "koi8-u", "koi8-ru")
        add(Charset(name: "TIS-620"), "tis-620", "windows-874", "cp874", "iso-8859-11")
        return table
    }()
}
