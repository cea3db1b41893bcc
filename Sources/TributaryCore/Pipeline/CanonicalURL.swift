import Foundation

/// Links made comparable: the same article reached through different spellings of its URL gets
/// one key. Scheme and host are lower-cased (`https` and `http` compare equal), IDN hosts are
/// compared in their Unicode form, the default port, the fragment, a trailing slash and
/// tracking parameters are dropped, and the remaining query is sorted.
public struct CanonicalURL: Sendable {
    /// Query parameters that only track where a click came from.
    public static let defaultTrackingParameters: Set<String> = [
        "fbclid", "gclid", "dclid", "msclkid", "yclid", "mc_cid", "mc_eid", "igshid", "spm", "from", "share_token",
        "share_source", "share_medium", "scm", "ref_src", "_hsenc", "_hsmi", "wt.mc_id", "si",
    ]

    /// The parameter names dropped (compared lower-cased); `utm_*` always is.
    public var trackingParameters: Set<String>

    /// Uses the default tracking parameters plus `extra` (e.g. from `dedup: {tracking_parameters: [...]}`).
    public init(extra: [String] = []) {
        trackingParameters = Self.defaultTrackingParameters.union(extra.map { $0.lowercased() })
    }

    /// The comparison key, or nil for something that is not an absolute http(s) URL.
    public func key(for text: String) -> String? {
        let trimmed = Normalizer.trimmed(text)
        return (Parts(simple: trimmed) ?? Parts(trimmed)).map(key)
    }

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
        let query = parts.query.filter { !isTracking($0.name) }.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
        if !query.isEmpty { key += "?" + query.map(\.text).joined(separator: "&") }
        return key
    }

    /// The link to show: tracking parameters removed, everything else as written.
    public func clean(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return cleanASCII(text) }
        guard let question = text.firstIndex(of: "?") else { return text }
        let fragmentStart = text[question...].firstIndex(of: "#") ?? text.endIndex
        let items = text[text.index(after: question)..<fragmentStart].split(separator: "&", omittingEmptySubsequences: true)
        let kept = items.filter { item in
            let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return !isTracking(name.utf8.contains(0x25) ? name.removingPercentEncoding ?? name : name)
        }
        guard kept.count != items.count else { return text }
        let base = String(text[..<question])
        let fragment = String(text[fragmentStart...])
        return base + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + fragment
    }

    /// ``clean(_:)`` for an ASCII link, by bytes; the link itself when it has no tracking parameter.
    private func cleanASCII(_ text: String) -> String {
        let utf8 = text.utf8
        guard let question = utf8.firstIndex(of: 0x3F) else { return text }
        let fragmentStart = utf8[question...].firstIndex(of: 0x23) ?? utf8.endIndex
        let items = utf8[utf8.index(after: question)..<fragmentStart].split(separator: 0x26)
        let kept = items.filter { item in
            let name = item.split(separator: 0x3D, maxSplits: 1).first.map { String(decoding: $0, as: UTF8.self) } ?? ""
            return !isTracking(name.utf8.contains(0x25) ? name.removingPercentEncoding ?? name : name)
        }
        guard kept.count != items.count else { return text }
        let base = String(decoding: utf8[..<question], as: UTF8.self)
        let fragment = String(decoding: utf8[fragmentStart...], as: UTF8.self)
        let query = kept.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "&")
        return base + (kept.isEmpty ? "" : "?" + query) + fragment
    }

    private func isTracking(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasPrefix("utm_") || trackingParameters.contains(lowered)
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
        private static func isAccepted(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x22, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7B, 0x7C, 0x7D, 0x5B, 0x5D, 0x40: false  // "<>\^`{|}[]@
            default: true
            }
        }

        private static func isHex(_ byte: UInt8) -> Bool {
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
