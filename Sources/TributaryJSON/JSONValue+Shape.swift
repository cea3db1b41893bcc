extension JSONValue {
    /// How the value is named in messages about unexpected data: `null`, `the boolean true`,
    /// `the number 12`, `a string "abc"` (long strings cut at 40 characters), `a list`, `an object`.
    public var shape: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return "the boolean \(flag)"
        case .number(let number): return "the number \(number.text)"
        case .string(let string):
            let shown = string.count > 40 ? String(string.prefix(40)) + "…" : string
            return "a string \"\(shown)\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}
