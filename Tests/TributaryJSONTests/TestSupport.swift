import TributaryJSON

/// A number value from exact text; `.null` if the text is not valid (so a typo shows up as a mismatch).
func num(_ text: String) -> JSONValue {
    JSONNumber(text).map(JSONValue.number) ?? .null
}

/// Parses `input`, returning the error description or `nil` when parsing succeeds.
func parseErrorDescription(_ input: String) -> String? {
    do {
        _ = try JSON.parse(input)
        return nil
    } catch {
        return error.description
    }
}

/// A deterministic pseudo-random generator (SplitMix64) for generated documents.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

/// Builds a sizeable pseudo-random document exercising every value kind and awkward strings.
enum DocumentGenerator {
    static let scalarPool: [String] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{8}", "\u{C}",
        "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "\u{2027}", "é", "中", "文", "😀", "👍🏽",
        "\u{301}", "\u{FEFF}", "\u{10FFFF}", "ß", "Ω",
    ]

    static let fixedNumbers = ["0", "-0", "1.5E+3", "6462594562829140237", "-1e-7", "123456789012345678901234567890"]

    static func document(seed: UInt64, members: Int) -> JSONValue {
        var rng = SplitMix64(state: seed)
        var object = JSONObject()
        for index in 0..<members {
            object["member\(index)_" + string(&rng)] = value(depth: 1, &rng)
        }
        return .object(object)
    }

    static func value(depth: Int, _ rng: inout SplitMix64) -> JSONValue {
        switch rng.below(depth >= 5 ? 5 : 7) {
        case 0:
            return .null
        case 1:
            return .bool(rng.below(2) == 0)
        case 2:
            switch rng.below(3) {
            case 0: return .number(JSONNumber(Int(bitPattern: UInt(rng.next()))))
            case 1: return JSONNumber(Double(rng.below(1_000_000)) / 64).map(JSONValue.number) ?? .null
            default: return num(fixedNumbers[rng.below(fixedNumbers.count)])
            }
        case 3, 4:
            return .string(string(&rng))
        case 5:
            return .array((0..<rng.below(8)).map { _ in value(depth: depth + 1, &rng) })
        default:
            var object = JSONObject()
            for _ in 0..<rng.below(12) {
                object[string(&rng)] = value(depth: depth + 1, &rng)
            }
            return .object(object)
        }
    }

    static func string(_ rng: inout SplitMix64) -> String {
        var result = ""
        for _ in 0..<rng.below(20) {
            result += scalarPool[rng.below(scalarPool.count)]
        }
        return result
    }
}
