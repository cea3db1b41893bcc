extension DateParser {
    /// How many seconds before `now` a relative text puts its instant: "5 minutes ago", "an hour
    /// ago", "just now", "3分钟前", "半小时前", "刚刚". Nil for any other text.
    static func relativeSeconds(_ tokens: [DateToken]) -> Double? {
        guard let last = tokens.last?.kind else { return nil }
        switch last {
        case .word("ago"):
            return englishAgo(tokens.dropLast())
        case .word("now"):
            guard tokens.count == 1 || (tokens.count == 2 && [DateTokenKind.word("just"), .word("right")].contains(tokens[0].kind)) else {
                return nil
            }
            return 0
        case .ideograph("前"):
            var rest = tokens.dropLast()
            if rest.last?.kind == .ideograph("以") { rest = rest.dropLast() }
            return chineseAgo(rest)
        case .ideograph("刚"), .ideograph("剛"), .ideograph("才"):
            guard tokens.count == 2, case .ideograph(let first) = tokens[0].kind, first == "刚" || first == "剛" else { return nil }
            return 0
        default:
            return nil
        }
    }

    /// "5 minutes", "an hour", "1 hour 5 minutes", "a few seconds", "2h", "moments".
    private static func englishAgo(_ tokens: ArraySlice<DateToken>) -> Double? {
        var total = 0.0
        var index = tokens.startIndex
        var any = false
        while index < tokens.endIndex {
            var amount = 1.0
            var hasAmount = false
            if case .number(let value, let digits) = tokens[index].kind, digits <= 6 {
                amount = Double(value)
                hasAmount = true
                index += 1
            } else if case .word(let word) = tokens[index].kind, let value = DateVocabulary.englishAmounts[word] {
                amount = value
                hasAmount = true
                index += 1
                if word == "a", index < tokens.endIndex, tokens[index].kind == .word("few") {
                    amount = DateVocabulary.englishAmounts["few"] ?? 3
                    index += 1
                }
            }
            guard index < tokens.endIndex, case .word(let unit) = tokens[index].kind, let seconds = DateVocabulary.englishUnits[unit],
                hasAmount || seconds == 0
            else { return nil }
            total += amount * seconds
            any = true
            index += 1
            while index < tokens.endIndex, [DateTokenKind.word("and"), .symbol(UInt8(ascii: ","))].contains(tokens[index].kind) {
                index += 1
            }
        }
        return any ? total : nil
    }

    /// "3分钟", "10秒", "5小时", "半个小时", "2天", "1周", "两个月", "1小时30分钟".
    private static func chineseAgo(_ tokens: ArraySlice<DateToken>) -> Double? {
        var total = 0.0
        var index = tokens.startIndex
        var any = false
        func ideograph(_ position: Int) -> Unicode.Scalar? {
            guard position < tokens.endIndex, case .ideograph(let scalar) = tokens[position].kind else { return nil }
            return scalar
        }
        while index < tokens.endIndex {
            let amount: Double
            if case .number(let value, let digits) = tokens[index].kind, digits <= 6 {
                amount = Double(value)
            } else if let scalar = ideograph(index), let value = DateVocabulary.chineseAmounts[scalar] {
                amount = value
            } else {
                return nil
            }
            index += 1
            if ideograph(index) == "个" || ideograph(index) == "個" { index += 1 }
            guard let unit = ideograph(index) else { return nil }
            let seconds: Double
            switch unit {
            case "秒":
                seconds = 1
            case "分":
                seconds = 60
            case "小":
                guard ideograph(index + 1) == "时" || ideograph(index + 1) == "時" else { return nil }
                index += 1
                seconds = 3600
            case "钟", "鐘":
                guard ideograph(index + 1) == "头" || ideograph(index + 1) == "頭" else { return nil }
                index += 1
                seconds = 3600
            case "天", "日":
                seconds = 86_400
            case "周", "週":
                seconds = 604_800
            case "星", "礼", "禮":
                guard ideograph(index + 1) == "期" || ideograph(index + 1) == "拜" else { return nil }
                index += 1
                seconds = 604_800
            case "月":
                seconds = 2_592_000
            case "年":
                seconds = 31_536_000
            default:
                return nil
            }
            index += 1
            if seconds < 3600, ideograph(index) == "钟" || ideograph(index) == "鐘" { index += 1 }
            total += amount * seconds
            any = true
        }
        return any ? total : nil
    }
}
