import Foundation
import TributaryModel

/// Links made comparable: the same article reached through different spellings of its URL gets
/// one key. Scheme and host are lower-cased (`https` and `http` compare equal), IDN hosts are
/// compared in their Unicode form, the default port, the fragment, a trailing slash and
/// tracking parameters are dropped, and the remaining query is sorted.
public struct CanonicalURL: Sendable {
    /// Query parameters that only track where a click came from.
    public static let defaultTrackingParameters: Set<String> = [
        "fbclid", "gclid", "dclid", "msclkid", "yclid", "mc_cid", "mc_eid", "igshid", "spm", "share_token",
        "share_source", "share_medium", "scm", "ref_src", "_hsenc", "_hsmi", "wt.mc_id", "si",
    ]

    /// The values of `from` that name where a link was shared or read (WeChat's `from=timeline`, `from=singlemessage`,
    /// a feed's `from=rss`). `from` with any other value stays: it is a real parameter too (`?from=20`,
    /// `translate?from=en&to=zh`). Naming `from` in ``trackingParameters`` drops it whatever its value.
    public static let sharedFromValues: Set<String> = [
        "timeline", "singlemessage", "groupmessage", "message", "session", "share", "weixin", "wechat", "qq", "qzone",
        "weibo", "toutiao", "rss", "feed", "atom", "copylink", "copy_link",
    ]

    /// The parameter names dropped (compared lower-cased); `utm_*` always is.
    public var trackingParameters: Set<String> { didSet { trackingNames = TrackingNames(trackingParameters) } }

    /// `trackingParameters` as bytes, for the byte-level paths.
    private var trackingNames: TrackingNames

    /// Uses the default tracking parameters plus `extra` (e.g. from `dedup: {tracking_parameters: [...]}`).
    public init(extra: [String] = []) {
        trackingParameters = Self.defaultTrackingParameters.union(extra.map { $0.lowercased() })
        trackingNames = TrackingNames(trackingParameters)
    }

    /// The comparison key, or nil for something that is not an absolute http(s) URL.
    public func key(for text: String) -> String? {
        let trimmed = Normalizer.trimmed(text)
        return (Parts(simple: trimmed) ?? Parts(trimmed)).map(key)
    }

    /// Appends ``key(for:)`` of `text` to `key` as UTF-8 bytes, when `text` is a plain ASCII link that the byte
    /// parser reads and no query name has a `%`, and returns true; else leaves `key` as it was and returns false (the
    /// caller then asks ``key(for:)``).
    func appendKey(for text: String, to key: inout [UInt8]) -> Bool {
        guard trackingNames.isUsable else { return false }
        return text.withUTF8Bytes { bytes in
            let start = key.count
            if appendKey(bytes, to: &key) { return true }
            key.removeSubrange(start...)
            return false
        }
    }

    /// ``appendKey(for:to:)`` on the link's bytes, as ``Parts/init(simple:)`` and ``key(_:)`` read them.
    private func appendKey(_ bytes: UnsafeBufferPointer<UInt8>, to key: inout [UInt8]) -> Bool {
        // Links with spaces at their ends are trimmed first (Normalizer.trimmed); those go the general way.
        guard let first = bytes.first, let last = bytes.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F else {
            return false
        }
        let https: Bool
        if bytes.count >= 8 && ByteSearch.hasPrefixLowercased(bytes, Self.httpsBytes) {
            https = true
        } else if bytes.count >= 7 && ByteSearch.hasPrefixLowercased(bytes, Self.httpBytes) {
            https = false
        } else {
            return false
        }
        let begin = https ? 8 : 7
        let end = bytes.count
        var sawFragment = false
        var authorityEnd = -1
        var index = begin
        while index < end {
            let byte = bytes[index]
            guard byte > 0x20, byte < 0x7F, Parts.isAccepted(byte) else { return false }
            if byte == 0x23 {
                if sawFragment { return false }
                sawFragment = true
            }
            if byte == 0x25 {
                guard index + 2 < end, Parts.isHex(bytes[index + 1]), Parts.isHex(bytes[index + 2]) else { return false }
            }
            if authorityEnd < 0 && (byte == 0x2F || byte == 0x3F || byte == 0x23) { authorityEnd = index }
            index += 1
        }
        if authorityEnd < 0 { authorityEnd = end }
        let hostEnd = bytes[begin..<authorityEnd].firstIndex(of: 0x3A) ?? authorityEnd
        guard hostEnd > begin else { return false }
        key.append(0x2F)
        key.append(0x2F)
        let hostStart = key.count
        for byte in bytes[begin..<hostEnd] {
            guard (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x2D else {
                return false
            }
            key.append(ByteSearch.lowerASCII(byte))
        }
        let host = hostStart..<key.count
        // xn-- (IDN) hosts go the general way.
        if host.count >= 4 {
            for position in host.lowerBound...(host.upperBound - 4)
            where key[position] == 0x78 && key[position + 1] == 0x6E && key[position + 2] == 0x2D && key[position + 3] == 0x2D {
                return false
            }
        }
        if host.count >= 4 && key[hostStart] == 0x77 && key[hostStart + 1] == 0x77 && key[hostStart + 2] == 0x77
            && key[hostStart + 3] == 0x2E
        {
            key.removeSubrange(hostStart..<hostStart + 4)  // www.
        }
        if hostEnd < authorityEnd {
            let digits = bytes[(hostEnd + 1)..<authorityEnd]
            guard (1...5).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
            let number = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard number <= 65535 else { return false }
            if number != (https ? 443 : 80) {
                key.append(0x3A)
                key.append(contentsOf: String(number).utf8)
            }
        }
        let pathEnd = bytes[authorityEnd..<end].firstIndex { $0 == 0x3F || $0 == 0x23 } ?? end
        var pathLast = pathEnd
        while pathLast > authorityEnd && bytes[pathLast - 1] == 0x2F { pathLast -= 1 }
        key.append(contentsOf: bytes[authorityEnd..<pathLast])
        guard pathEnd < end, bytes[pathEnd] == 0x3F else { return true }
        let queryEnd = bytes[(pathEnd + 1)..<end].firstIndex(of: 0x23) ?? end
        return appendQuery(bytes, from: pathEnd + 1, to: queryEnd, to: &key)
    }

    /// The query part of ``appendKey(_:to:)``: the items that do not track, sorted by name, then value, then position
    /// (`sorted` is stable), joined by `&` after a `?`; false when a name has a `%`.
    private func appendQuery(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, to key: inout [UInt8]) -> Bool {
        // Each kept item: where it is, where its name (the first run between `=` signs) and its value are.
        var kept: [(item: Range<Int>, name: Range<Int>, value: Range<Int>)] = []
        var index = start
        while index < end {
            let itemEnd = bytes[index..<end].firstIndex(of: 0x26) ?? end
            if itemEnd > index {
                let nameStart = bytes[index..<itemEnd].firstIndex { $0 != 0x3D } ?? itemEnd
                let nameEnd = bytes[nameStart..<itemEnd].firstIndex(of: 0x3D) ?? itemEnd
                let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd])
                if name.contains(0x25) { return false }
                let valueStart = nameEnd < itemEnd ? nameEnd + 1 : itemEnd
                if !trackingNames.contains(name, value: UnsafeBufferPointer(rebasing: bytes[valueStart..<itemEnd])) {
                    kept.append((index..<itemEnd, nameStart..<nameEnd, valueStart..<itemEnd))
                }
            }
            index = itemEnd + 1
        }
        guard !kept.isEmpty else { return true }
        if kept.count > 1 {
            let before = { (a: Range<Int>, b: Range<Int>) -> Bool? in
                let x = bytes[a]
                let y = bytes[b]
                if x.elementsEqual(y) { return nil }
                return x.lexicographicallyPrecedes(y)
            }
            // Insertion sort: stable, and queries are short.
            for position in 1..<kept.count {
                let current = kept[position]
                var slot = position
                while slot > 0 {
                    let previous = kept[slot - 1]
                    let order = before(current.name, previous.name) ?? before(current.value, previous.value) ?? false
                    guard order else { break }
                    kept[slot] = previous
                    slot -= 1
                }
                kept[slot] = current
            }
        }
        var separator: UInt8 = 0x3F
        for item in kept {
            key.append(separator)
            key.append(contentsOf: bytes[item.item])
            separator = 0x26
        }
        return true
    }

    private static let httpsBytes: [UInt8] = Array("https://".utf8)
    private static let httpBytes: [UInt8] = Array("http://".utf8)

    /// The key as `URLComponents` parses the link: what ``key(for:)`` does for links the fast
    /// parser leaves alone, and what it must agree with on the others (for tests).
    func foundationKey(for text: String) -> String? {
        Parts(Normalizer.trimmed(text)).map(key)
    }

    private func key(_ parts: Parts) -> String {
        var key = "//" + parts.host
        if let port = parts.port { key += ":\(port)" }
        var path = parts.path
        while path.hasSuffix("/") { path.removeLast() }
        key += path
        let query = parts.query.filter { !isTracking($0.name, value: $0.value) }.sorted {
            ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "")
        }
        if !query.isEmpty { key += "?" + query.map(\.text).joined(separator: "&") }
        return key
    }

    /// The link to show: tracking parameters removed, everything else as written.
    public func clean(_ text: String) -> String {
        if text.withUTF8Bytes(ByteSearch.isASCII) { return cleanASCII(text) }
        guard let question = text.firstIndex(of: "?") else { return text }
        let fragmentStart = text[question...].firstIndex(of: "#") ?? text.endIndex
        let items = text[text.index(after: question)..<fragmentStart].split(separator: "&", omittingEmptySubsequences: true)
        let kept = items.filter { item in
            let parts = item.drop { $0 == "=" }.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts.first.map(String.init) ?? ""
            let value = parts.count > 1 ? String(parts[1]) : nil
            return !isTracking(name.utf8.contains(0x25) ? name.removingPercentEncoding ?? name : name, value: value)
        }
        guard kept.count != items.count else { return text }
        let base = String(text[..<question])
        let fragment = String(text[fragmentStart...])
        return base + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + fragment
    }

    /// ``clean(_:)`` for an ASCII link, by bytes; the link itself when it has no tracking parameter.
    private func cleanASCII(_ text: String) -> String {
        if trackingNames.isUsable, let cleaned = text.withUTF8Bytes({ cleanBytes($0, text) }) { return cleaned }
        return cleanASCIIByStrings(text)
    }

    /// ``cleanASCIIByStrings(_:)`` without a string or an array a parameter: nil when a parameter name has a `%`
    /// (it is compared decoded), else the link, itself when nothing is dropped.
    private func cleanBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> String? {
        guard let question = bytes.firstIndex(of: 0x3F) else { return text }
        let end = bytes[question...].firstIndex(of: 0x23) ?? bytes.count
        var anyTracking = false
        var index = question + 1
        while index < end {
            let itemEnd = bytes[index..<end].firstIndex(of: 0x26) ?? end
            if itemEnd > index {
                guard let tracking = isTrackingItem(UnsafeBufferPointer(rebasing: bytes[index..<itemEnd])) else { return nil }
                if tracking {
                    anyTracking = true
                    break
                }
            }
            index = itemEnd + 1
        }
        guard anyTracking else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        output.append(contentsOf: bytes[..<question])
        var separator: UInt8 = 0x3F
        index = question + 1
        while index < end {
            let itemEnd = bytes[index..<end].firstIndex(of: 0x26) ?? end
            let item = UnsafeBufferPointer(rebasing: bytes[index..<itemEnd])
            if itemEnd > index {
                guard let tracking = isTrackingItem(item) else { return nil }
                if !tracking {
                    output.append(separator)
                    output.append(contentsOf: item)
                    separator = 0x26
                }
            }
            index = itemEnd + 1
        }
        output.append(contentsOf: bytes[end...])
        return String(validUTF8: output)  // the link's own bytes (ASCII), cut at ASCII bytes
    }

    /// Whether the query item `name=value` (or `name`) tracks, by the name as ``cleanASCIIByStrings(_:)`` reads it:
    /// the first run of bytes between `=` signs. Nil when that name has a `%`.
    private func isTrackingItem(_ item: UnsafeBufferPointer<UInt8>) -> Bool? {
        let start = item.firstIndex { $0 != 0x3D } ?? item.count
        let end = item[start...].firstIndex(of: 0x3D) ?? item.count
        let name = UnsafeBufferPointer(rebasing: item[start..<end])
        if name.contains(0x25) { return nil }
        return trackingNames.contains(name, value: UnsafeBufferPointer(rebasing: item[min(end + 1, item.count)...]))
    }

    /// ``clean(_:)`` for an ASCII link, through strings (for names with `%`, and to check the byte path against).
    func cleanASCIIByStrings(_ text: String) -> String {
        let utf8 = text.utf8
        guard let question = utf8.firstIndex(of: 0x3F) else { return text }
        let fragmentStart = utf8[question...].firstIndex(of: 0x23) ?? utf8.endIndex
        let items = utf8[utf8.index(after: question)..<fragmentStart].split(separator: 0x26)
        let kept = items.filter { item in
            let parts = item.drop { $0 == 0x3D }.split(separator: 0x3D, maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let value = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
            return !isTracking(name.utf8.contains(0x25) ? name.removingPercentEncoding ?? name : name, value: value)
        }
        guard kept.count != items.count else { return text }
        let base = String(decoding: utf8[..<question], as: UTF8.self)
        let fragment = String(decoding: utf8[fragmentStart...], as: UTF8.self)
        let query = kept.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "&")
        return base + (kept.isEmpty ? "" : "?" + query) + fragment
    }

    private func isTracking(_ name: String, value: String?) -> Bool {
        let lowered = name.lowercased()
        if lowered.hasPrefix("utm_") || trackingParameters.contains(lowered) { return true }
        guard lowered == "from", let value else { return false }
        return Self.sharedFromValues.contains(value.lowercased())
    }

    /// The parameter names of ``trackingParameters`` as ASCII bytes by length, for comparing a name without making a
    /// string of it.
    private struct TrackingNames: Sendable {
        /// The names of each length.
        private var byLength: [[[UInt8]]] = []
        /// Whether every name is ASCII: a name outside ASCII could equal an ASCII one by canonical equivalence, and then
        /// only strings compare right.
        private(set) var isUsable = true

        init(_ names: Set<String>) {
            for name in names {
                let bytes = Array(name.utf8)
                guard bytes.allSatisfy({ $0 < 0x80 }) else {
                    isUsable = false
                    continue
                }
                while byLength.count <= bytes.count { byLength.append([]) }
                byLength[bytes.count].append(bytes)
            }
        }

        /// Whether the ASCII `name`, lower-cased, begins with `utm_` or is one of the names, or is `from` with one of
        /// ``CanonicalURL/sharedFromValues``: ``isTracking(_:value:)``.
        func contains(_ name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
            if isShareMarker(name, value) { return true }
            if name.count >= 4 && ByteSearch.lowerASCII(name[0]) == 0x75 && ByteSearch.lowerASCII(name[1]) == 0x74
                && ByteSearch.lowerASCII(name[2]) == 0x6D && name[3] == 0x5F
            {
                return true  // utm_
            }
            guard name.count < byLength.count else { return false }
            return byLength[name.count].contains { candidate in
                candidate.withUnsafeBufferPointer { ByteSearch.hasPrefixLowercased(name, $0) }
            }
        }

        private static let from: [UInt8] = Array("from".utf8)

        private func isShareMarker(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
            guard name.count == 4, value.count <= 16, Self.from.withUnsafeBufferPointer({ ByteSearch.hasPrefixLowercased(name, $0) })
            else { return false }
            return CanonicalURL.sharedFromValues.contains(String(decoding: value, as: UTF8.self).lowercased())
        }
    }

    /// The pieces of an http(s) URL, normalized.
    private struct Parts {
        var host: String
        var port: Int?
        var path: String
        var query: [(name: String, value: String?, text: String)]

        /// The parts of a plain ASCII link (`http[s]://host[:port]/path?query#fragment` with a
        /// lower-case-able host of letters, digits, dots and hyphens, no user, no IDN label and
        /// only characters `URLComponents` accepts as written), read without Foundation; nil for
        /// anything else, which ``init(_:)`` then parses.
        init?(simple text: String) {
            var utf8 = text.utf8[...]
            let scheme = utf8.prefix(8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            let https = scheme.elementsEqual("https://".utf8)
            guard https || scheme.prefix(7).elementsEqual("http://".utf8) else { return nil }
            utf8 = utf8.dropFirst(https ? 8 : 7)
            var sawFragment = false
            var index = utf8.startIndex
            while index < utf8.endIndex {
                let byte = utf8[index]
                guard byte > 0x20, byte < 0x7F, Self.isAccepted(byte) else { return nil }
                if byte == 0x23 {  // a second # is invalid
                    if sawFragment { return nil }
                    sawFragment = true
                }
                if byte == 0x25 {  // %XX
                    let next = utf8.index(after: index)
                    guard next < utf8.endIndex, utf8.index(after: next) < utf8.endIndex,
                        Self.isHex(utf8[next]), Self.isHex(utf8[utf8.index(after: next)])
                    else { return nil }
                }
                index = utf8.index(after: index)
            }
            let authorityEnd = utf8.firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? utf8.endIndex
            let authority = utf8[..<authorityEnd]
            let hostEnd = authority.firstIndex(of: 0x3A) ?? authority.endIndex
            let hostBytes = authority[..<hostEnd]
            guard !hostBytes.isEmpty,
                hostBytes.allSatisfy({ ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D })
            else { return nil }
            host = String(decoding: hostBytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
            guard !ByteSearch.contains(host, "xn--") else { return nil }
            if host.hasPrefix("www.") { host.removeFirst(4) }
            if hostEnd < authority.endIndex {
                let digits = authority[authority.index(after: hostEnd)...]
                guard (1...5).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    let number = Int(String(decoding: digits, as: UTF8.self)), number <= 65535
                else { return nil }
                port = number == (https ? 443 : 80) ? nil : number
            } else {
                port = nil
            }
            let rest = utf8[authorityEnd...]
            let pathEnd = rest.firstIndex { $0 == 0x3F || $0 == 0x23 } ?? rest.endIndex
            path = pathEnd == authorityEnd ? "/" : String(decoding: rest[..<pathEnd], as: UTF8.self)
            query = []
            if pathEnd < rest.endIndex, rest[pathEnd] == 0x3F {
                let queryBytes = rest[rest.index(after: pathEnd)...].prefix { $0 != 0x23 }
                for item in queryBytes.split(separator: 0x26) {
                    let pair = item.split(separator: 0x3D, maxSplits: 1)
                    let name = pair.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
                    query.append(
                        (
                            name.utf8.contains(0x25) ? name.removingPercentEncoding ?? name : name,
                            pair.count > 1 ? String(decoding: pair[1], as: UTF8.self) : nil, String(decoding: item, as: UTF8.self)
                        ))
                }
            }
        }

        /// Whether a printable ASCII byte is one `URLComponents` accepts unencoded (`[`, `]` and
        /// `@`, which it does accept in places, are left to it).
        static func isAccepted(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x22, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7B, 0x7C, 0x7D, 0x5B, 0x5D, 0x40: false  // "<>\^`{|}[]@
            default: true
            }
        }

        static func isHex(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
        }

        init?(_ text: String) {
            guard
                let components = URLComponents(string: text)
                    ?? URLComponents(
                        string: text.addingPercentEncoding(
                            withAllowedCharacters: .urlFragmentAllowed.union(CharacterSet(charactersIn: "%#"))) ?? ""),
                let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let rawHost = components.percentEncodedHost, !rawHost.isEmpty
            else { return nil }
            host = IDNA.unicodeHost(rawHost.removingPercentEncoding ?? rawHost).lowercased()
            if host.hasPrefix("www.") { host.removeFirst(4) }
            let defaultPort = scheme == "https" ? 443 : 80
            port = components.port.flatMap { $0 == defaultPort ? nil : $0 }
            path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            query = (components.percentEncodedQuery ?? "").split(separator: "&").map { item in
                let pair = item.split(separator: "=", maxSplits: 1)
                let name = String(pair.first ?? "")
                return (name.removingPercentEncoding ?? name, pair.count > 1 ? String(pair[1]) : nil, String(item))
            }
        }
    }
}

/// Internationalized host names: `xn--` labels decoded from Punycode (RFC 3492), so that a host
/// written either way compares equal.
enum IDNA {
    static func unicodeHost(_ host: String) -> String {
        guard host.lowercased().contains("xn--") else { return host }
        return host.split(separator: ".", omittingEmptySubsequences: false).map { label in
            label.lowercased().hasPrefix("xn--") ? (punycodeDecode(String(label.dropFirst(4))) ?? String(label)) : String(label)
        }.joined(separator: ".")
    }

    /// RFC 3492 decoding; nil for malformed input.
    static func punycodeDecode(_ input: String) -> String? {
        let base = 36
        let tMin = 1
        let tMax = 26
        let skew = 38
        let damp = 700
        var output: [UInt32] = []
        var n = 128
        var i = 0
        var bias = 72
        let scalars = Array(input.lowercased().unicodeScalars)
        var start = 0
        if let delimiter = scalars.lastIndex(of: "-") {
            output = scalars[..<delimiter].map(\.value)
            guard output.allSatisfy({ $0 < 128 }) else { return nil }
            start = delimiter + 1
        }
        func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
            var delta = first ? delta / damp : delta / 2
            delta += delta / count
            var k = 0
            while delta > ((base - tMin) * tMax) / 2 {
                delta /= base - tMin
                k += base
            }
            return k + (base - tMin + 1) * delta / (delta + skew)
        }
        var index = start
        while index < scalars.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard index < scalars.count else { return nil }
                let c = scalars[index].value
                index += 1
                let digit: Int
                switch c {
                case 0x61...0x7A: digit = Int(c - 0x61)
                case 0x30...0x39: digit = Int(c - 0x30) + 26
                default: return nil
                }
                let (product, overflow) = digit.multipliedReportingOverflow(by: w)
                guard !overflow else { return nil }
                i += product
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                w *= base - t
                k += base
            }
            bias = adapt(i - oldI, output.count + 1, oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n < 0x110000 else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        var text = ""
        for value in output {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            text.unicodeScalars.append(scalar)
        }
        return text
    }
}
