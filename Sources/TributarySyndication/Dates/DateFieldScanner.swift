/// Which part of the day a word names: "AM", "PM", 上午, 下午, 中午, 晚上.
enum Meridiem {
    case morning
    case afternoon
    case noon
    case night
}

/// The pieces a date text names, gathered token by token before they are checked.
struct DateFields {
    var year: Int?
    var yearDigits = 4
    var month: Int?
    var day: Int?
    var hour: Int?
    var minute = 0
    var second = 0
    var fraction = 0.0
    var meridiem: Meridiem?
    /// Seconds east of UTC, when the text names a zone.
    var offset: Int?
    /// The offset came from a bare "GMT" / "UTC", which a following "+8" refines.
    var offsetIsBareUniversal = false
    /// 0 for today, -1 for yesterday, -2 for the day before.
    var relativeDays: Int?

    var hasDate: Bool { year != nil || month != nil || day != nil }
    var hasFullDate: Bool { year != nil && month != nil && day != nil }
}

/// Walks the tokens of a date text left to right, recognising each piece by its shape and its
/// neighbours: RFC 822 and asctime order, numeric y-m-d / d.m.y / m/d/y groups, basic ISO
/// 8601, Chinese 年月日时分秒 markers, zones, AM/PM, comments. Anything unknown fails the text.
struct DateFieldScanner {
    private let tokens: [DateToken]
    private var index = 0
    private(set) var fields = DateFields()

    /// Whether `CST` means China Standard Time (+08:00) rather than RFC 822's US Central: true
    /// when the source's own zone is UTC+8, as for Java's `Date.toString()` on Chinese servers.
    private let cstMeansChina: Bool

    init(_ tokens: [DateToken], cstMeansChina: Bool = false) {
        self.tokens = tokens
        self.cstMeansChina = cstMeansChina
    }

    /// Reads every token into `fields`; false when one of them makes no sense in a date.
    mutating func scan() -> Bool {
        skipLeadingWeekday()
        while index < tokens.count {
            guard step() else { return false }
        }
        return true
    }

    // MARK: - Looking ahead

    private func kind(_ ahead: Int) -> DateTokenKind? {
        index + ahead < tokens.count ? tokens[index + ahead].kind : nil
    }

    private func isAdjacent(_ ahead: Int) -> Bool {
        index + ahead < tokens.count && !tokens[index + ahead].spaced
    }

    private func number(_ ahead: Int, adjacent: Bool = false) -> (value: Int, digits: Int)? {
        guard case .number(let value, let digits)? = kind(ahead), !adjacent || isAdjacent(ahead) else { return nil }
        return (value, digits)
    }

    private func isSymbol(_ ascii: Unicode.Scalar, _ ahead: Int, adjacent: Bool = false) -> Bool {
        guard case .symbol(let byte)? = kind(ahead), !adjacent || isAdjacent(ahead) else { return false }
        return UInt32(byte) == ascii.value
    }

    private func word(_ ahead: Int) -> String? {
        guard case .word(let word)? = kind(ahead) else { return nil }
        return word
    }

    private func ideograph(_ ahead: Int) -> Unicode.Scalar? {
        guard case .ideograph(let scalar)? = kind(ahead) else { return nil }
        return scalar
    }

    /// True when the ideographs from `ahead` on spell `text`.
    private func ideographs(_ ahead: Int, spell text: String) -> Bool {
        var position = ahead
        for scalar in text.unicodeScalars {
            guard ideograph(position) == scalar else { return false }
            position += 1
        }
        return true
    }

    // MARK: - Tokens

    /// "Tue," "Tuesday," "Di," "mar.," or a misspelt "Thurs," at the start: a day name to skip.
    private mutating func skipLeadingWeekday() {
        guard let first = word(0) else { return }
        if DateVocabulary.weekdays.contains(first) {
            index = 1
        } else if DateVocabulary.relativeDays[first] == nil, first.unicodeScalars.count <= 12,
            isSymbol(",", 1) || (isSymbol(".", 1) && isSymbol(",", 2))
        {
            index = 1
        }
    }

    private mutating func step() -> Bool {
        switch tokens[index].kind {
        case .number(let value, let digits): return readNumber(value, digits: digits)
        case .word(let word): return readWord(word)
        case .symbol(let byte): return readSymbol(byte)
        case .ideograph: return readIdeograph()
        }
    }

    private mutating func readNumber(_ value: Int, digits: Int) -> Bool {
        if isSymbol(":", 1) { return clockTime(value, digits: digits) }
        if let mark = ideograph(1) {
            switch mark {
            case "年":
                guard fields.year == nil, digits == 4 || digits == 2 else { return false }
                fields.year = value
                fields.yearDigits = digits
                index += 2
                return true
            case "月":
                guard fields.month == nil, digits <= 2 else { return false }
                fields.month = value
                index += 2
                return true
            case "日", "号", "號":
                guard fields.day == nil, digits <= 2 else { return false }
                fields.day = value
                index += 2
                return true
            case "时", "時", "点", "點":
                return chineseTime(value, digits: digits)
            default:
                break
            }
        }
        for separator: Unicode.Scalar in ["-", "/", "."]
        where isSymbol(separator, 1, adjacent: true) && number(2, adjacent: true) != nil
            && isSymbol(separator, 3, adjacent: true) && number(4, adjacent: true) != nil
        {
            return numericDate(separator: separator)
        }
        if digits == 8 || digits == 14 { return basicDate(value, digits: digits) }
        if digits <= 2, fields.hour == nil, meridiem(1) != nil {
            fields.hour = value  // "2 PM", "5 a.m."
            index += 1
            return true
        }
        if digits == 4 {
            guard fields.year == nil else { return false }
            fields.year = value
            fields.yearDigits = 4
            index += 1
            return true
        }
        guard digits <= 2 else { return false }
        if fields.day == nil {
            fields.day = value
            index += 1
            if let suffix = word(0), DateVocabulary.ordinals.contains(suffix), isAdjacent(0) { index += 1 }
            return true
        }
        guard fields.year == nil else { return false }
        fields.year = value
        fields.yearDigits = digits
        index += 1
        return true
    }

    /// `h:mm`, `h:mm:ss`, `h:mm:ss.fff`.
    private mutating func clockTime(_ hour: Int, digits: Int) -> Bool {
        guard digits <= 2, fields.hour == nil, let (minute, minuteDigits) = number(2), minuteDigits <= 2 else { return false }
        fields.hour = hour
        fields.minute = minute
        index += 3
        guard isSymbol(":", 0, adjacent: true), let (second, secondDigits) = number(1, adjacent: true), secondDigits <= 2 else {
            return true
        }
        fields.second = second
        index += 2
        if isSymbol(".", 0, adjacent: true) || isSymbol(",", 0, adjacent: true), let (fraction, fractionDigits) = number(1, adjacent: true)
        {
            fields.fraction = Double(fraction) / Self.powerOfTen(min(fractionDigits, 18))
            index += 2
        }
        return true
    }

    /// `14时03分05秒`, `14点03分`, `2点半`, `14点`.
    private mutating func chineseTime(_ hour: Int, digits: Int) -> Bool {
        guard digits <= 2, fields.hour == nil else { return false }
        fields.hour = hour
        index += 2
        if let (minute, minuteDigits) = number(0), minuteDigits <= 2 {
            fields.minute = minute
            index += 1
            if ideograph(0) == "分" { index += 1 }
            if let (second, secondDigits) = number(0), secondDigits <= 2, ideograph(1) == "秒" {
                fields.second = second
                index += 2
            }
        } else if ideograph(0) == "半" {
            fields.minute = 30
            index += 1
        }
        return true
    }

    /// Three numbers joined by one separator: `2016/6/29`, `29.06.2016`, `6/29/2016`, `2016-1-5`.
    /// A four-digit first number is the year (y-m-d); otherwise the last is, and the first two
    /// are day and month: whichever is above 12 is the day, else d.m.y for dots and m/d/y
    /// (feedparser's choice) for slashes and dashes.
    private mutating func numericDate(separator: Unicode.Scalar) -> Bool {
        guard !fields.hasDate, case .number(let first, let firstDigits)? = kind(0), let (middle, middleDigits) = number(2),
            let (last, lastDigits) = number(4), middleDigits <= 2
        else { return false }
        index += 5
        if firstDigits == 4 {
            guard lastDigits <= 2 else { return false }
            fields.year = first
            fields.month = middle
            fields.day = last
            return true
        }
        guard firstDigits <= 2, lastDigits == 4 || lastDigits <= 2 else { return false }
        fields.year = last
        fields.yearDigits = lastDigits
        let dayFirst: Bool
        if first > 12 && middle <= 12 {
            dayFirst = true
        } else if middle > 12 && first <= 12 {
            dayFirst = false
        } else {
            dayFirst = separator == "."
        }
        fields.day = dayFirst ? first : middle
        fields.month = dayFirst ? middle : first
        return true
    }

    /// `20240305`, `20240305T1403`, `20240305T140300`, `20240305140300`.
    private mutating func basicDate(_ value: Int, digits: Int) -> Bool {
        guard !fields.hasDate, fields.hour == nil else { return false }
        var date = value
        if digits == 14 {
            date = value / 1_000_000
            fields.hour = value / 10_000 % 100
            fields.minute = value / 100 % 100
            fields.second = value % 100
        }
        fields.year = date / 10_000
        fields.month = date / 100 % 100
        fields.day = date % 100
        index += 1
        if digits == 8, word(0) == "t", let (time, timeDigits) = number(1, adjacent: true), timeDigits == 4 || timeDigits == 6 {
            let hhmm = timeDigits == 6 ? time / 100 : time
            fields.hour = hhmm / 100
            fields.minute = hhmm % 100
            fields.second = timeDigits == 6 ? time % 100 : 0
            index += 2
        }
        return true
    }

    private mutating func readWord(_ word: String) -> Bool {
        if let month = DateVocabulary.months[word] {
            guard fields.month == nil else { return false }
            fields.month = month
            index += 1
            return true
        }
        if DateVocabulary.weekdays.contains(word) || DateVocabulary.fillers.contains(word) {
            index += 1
            return true
        }
        if let (meridiem, length) = meridiem(0) { return setMeridiem(meridiem, length: length) }
        if word == "t" {
            guard number(1) != nil else { return false }
            index += 1
            return true
        }
        if DateVocabulary.universalZones.contains(word) {
            if fields.offset == nil {
                fields.offset = 0
                fields.offsetIsBareUniversal = true
            }
            index += 1
            return true
        }
        if let zone = DateVocabulary.zones[word] {
            if fields.offset == nil { fields.offset = word == "cst" && cstMeansChina ? 8 * 3600 : zone }
            index += 1
            return true
        }
        if let days = DateVocabulary.relativeDays[word] {
            guard fields.relativeDays == nil else { return false }
            fields.relativeDays = days
            index += 1
            return true
        }
        return false
    }

    private mutating func readSymbol(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "("):
            // A comment such as "(PST)" or "(China Standard Time)": skipped whole.
            var depth = 0
            while index < tokens.count {
                if isSymbol("(", 0) { depth += 1 }
                if isSymbol(")", 0) { depth -= 1 }
                index += 1
                if depth == 0 { break }
            }
            return true
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let isOffset = byte == UInt8(ascii: "+") || fields.hour != nil || fields.hasFullDate
            guard isOffset, number(1, adjacent: true) != nil else {
                index += 1  // a separator: "05-Mar-2024"
                return true
            }
            guard let (offset, length) = zoneOffset(1, sign: byte == UInt8(ascii: "+") ? 1 : -1) else { return false }
            if fields.offset == nil || fields.offsetIsBareUniversal {
                fields.offset = offset
                fields.offsetIsBareUniversal = false
            }
            index += 1 + length
            return true
        case UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ";"):
            index += 1
            return true
        default:
            return false
        }
    }

    private mutating func readIdeograph() -> Bool {
        if let (meridiem, length) = meridiem(0) { return setMeridiem(meridiem, length: length) }
        if ideograph(0) == "周" || ideograph(0) == "週", let digit = ideograph(1), DateVocabulary.chineseWeekdayDigits.contains(digit) {
            index += 2
            return true
        }
        if ideographs(0, spell: "星期") || ideographs(0, spell: "礼拜") || ideographs(0, spell: "禮拜"),
            let digit = ideograph(2), DateVocabulary.chineseWeekdayDigits.contains(digit)
        {
            index += 3
            return true
        }
        let relative: (days: Int, length: Int)? =
            if ideographs(0, spell: "今天") || ideographs(0, spell: "今日") {
                (0, 2)
            } else if ideographs(0, spell: "昨天") || ideographs(0, spell: "昨日") {
                (-1, 2)
            } else if ideographs(0, spell: "前天") || ideographs(0, spell: "前日") {
                (-2, 2)
            } else if ideographs(0, spell: "大前天") {
                (-3, 3)
            } else {
                nil
            }
        guard let relative, fields.relativeDays == nil else { return false }
        fields.relativeDays = relative.days
        index += relative.length
        return true
    }

    // MARK: - Pieces

    /// `+0800`, `+08:00`, `+8`, `+530` after the sign at `ahead - 1`: seconds east of UTC and
    /// the number of tokens read.
    private func zoneOffset(_ ahead: Int, sign: Int) -> (offset: Int, length: Int)? {
        guard let (value, digits) = number(ahead, adjacent: true) else { return nil }
        var hours = value
        var minutes = 0
        var length = 1
        switch digits {
        case 1, 2:
            if isSymbol(":", ahead + 1, adjacent: true), let (minuteValue, minuteDigits) = number(ahead + 2, adjacent: true),
                minuteDigits == 2
            {
                minutes = minuteValue
                length = 3
            }
        case 3, 4:
            hours = value / 100
            minutes = value % 100
        default:
            return nil
        }
        guard hours <= 14, minutes < 60 else { return nil }
        return (sign * (hours * 3600 + minutes * 60), length)
    }

    /// "AM", "pm", "a.m.", 上午, 下午, 中午, 晚上 … at `ahead`, and how many tokens it spans.
    private func meridiem(_ ahead: Int) -> (Meridiem, Int)? {
        if let word = word(ahead) {
            switch word {
            case "am": return (.morning, 1)
            case "pm": return (.afternoon, 1)
            case "a", "p":
                guard isSymbol(".", ahead + 1, adjacent: true), self.word(ahead + 2) == "m", isAdjacent(ahead + 2) else { return nil }
                let length = isSymbol(".", ahead + 3, adjacent: true) ? 4 : 3
                return (word == "a" ? .morning : .afternoon, length)
            default: return nil
            }
        }
        guard let first = ideograph(ahead), let second = ideograph(ahead + 1) else { return nil }
        switch (first, second) {
        case ("上", "午"), ("早", "上"), ("早", "晨"), ("凌", "晨"): return (.morning, 2)
        case ("下", "午"), ("傍", "晚"): return (.afternoon, 2)
        case ("中", "午"): return (.noon, 2)
        case ("晚", "上"): return (.night, 2)
        default: return nil
        }
    }

    private mutating func setMeridiem(_ meridiem: Meridiem, length: Int) -> Bool {
        guard fields.meridiem == nil else { return false }
        fields.meridiem = meridiem
        index += length
        return true
    }

    private static func powerOfTen(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}
