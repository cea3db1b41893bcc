/// The words dates are written with: month and day names in the languages feeds use, zone
/// abbreviations, relative units. Keys are lower-case, without a trailing period.
enum DateVocabulary {
    /// Month names and abbreviations: English, German, French, Spanish, Italian, Dutch, Portuguese.
    static let months: [String: Int] = {
        let names: [[String]] = [
            ["jan", "january", "januar", "jän", "jänner", "janv", "janvier", "ene", "enero", "gen", "gennaio", "januari", "janeiro"],
            [
                "feb", "february", "februar", "febr", "févr", "fevr", "fév", "fev", "février", "fevrier", "febrero", "febbraio", "februari",
                "fevereiro",
            ],
            ["mar", "march", "mär", "märz", "maerz", "mrz", "mars", "marzo", "mrt", "maart", "março", "marco"],
            ["apr", "april", "avr", "avril", "abr", "abril", "aprile"],
            ["may", "mai", "mayo", "mag", "maggio", "mei", "maio"],
            ["jun", "june", "juni", "juin", "junio", "giu", "giugno", "junho"],
            ["jul", "july", "juli", "juil", "juillet", "julio", "lug", "luglio", "julho"],
            ["aug", "august", "août", "aout", "ago", "agosto", "augustus"],
            ["sep", "sept", "september", "septembre", "septiembre", "set", "settembre", "setembro"],
            ["oct", "october", "okt", "oktober", "octobre", "octubre", "ott", "ottobre", "out", "outubro"],
            ["nov", "november", "novembre", "noviembre", "novembro"],
            ["dec", "december", "dez", "dezember", "déc", "décembre", "decembre", "dic", "diciembre", "dicembre", "dezembro"],
        ]
        var table: [String: Int] = [:]
        for (index, list) in names.enumerated() {
            for name in list { table[name] = index + 1 }
        }
        return table
    }()

    /// Day names, ignored wherever they stand (a wrong one too). French and Spanish "mar" is
    /// left out: it is March; a leading "mar.," is still skipped as a day name by position.
    static let weekdays: Set<String> = [
        "mon", "monday", "tue", "tues", "tuesday", "wed", "weds", "wednesday", "thu", "thur", "thurs", "thursday",
        "fri", "friday", "sat", "saturday", "sun", "sunday",
        "mo", "di", "mi", "do", "fr", "sa", "so", "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag",
        "lun", "lundi", "mardi", "mer", "mercredi", "jeu", "jeudi", "ven", "vendredi", "sam", "samedi", "dim", "dimanche",
        "lunes", "martes", "mié", "mie", "miércoles", "miercoles", "jue", "jueves", "vie", "viernes", "sáb", "sab", "sábado",
        "sabado", "dom", "domingo",
    ]

    /// Names meaning UTC; "GMT+8" and "UTC-05:00" put an offset right after them.
    static let universalZones: Set<String> = ["gmt", "ut", "utc", "z", "utc0", "gmt0"]

    /// Zone abbreviations in seconds east of UTC (RFC 822 meanings for the US ones: CST is
    /// US Central, unless the parser's own zone is UTC+8, when it is China Standard Time).
    static let zones: [String: Int] = [
        "est": -5 * 3600, "edt": -4 * 3600, "cst": -6 * 3600, "cdt": -5 * 3600,
        "mst": -7 * 3600, "mdt": -6 * 3600, "pst": -8 * 3600, "pdt": -7 * 3600,
        "akst": -9 * 3600, "akdt": -8 * 3600, "hst": -10 * 3600, "ast": -4 * 3600, "adt": -3 * 3600,
        "wet": 0, "west": 3600, "bst": 3600, "cet": 3600, "cest": 2 * 3600, "met": 3600, "mest": 2 * 3600,
        "mez": 3600, "mesz": 2 * 3600, "eet": 2 * 3600, "eest": 3 * 3600, "msk": 3 * 3600,
        "ist": 5 * 3600 + 1800, "ict": 7 * 3600, "wib": 7 * 3600, "hkt": 8 * 3600, "sgt": 8 * 3600,
        "awst": 8 * 3600, "pht": 8 * 3600, "jst": 9 * 3600, "kst": 9 * 3600, "acst": 9 * 3600 + 1800,
        "acdt": 10 * 3600 + 1800, "aest": 10 * 3600, "aedt": 11 * 3600, "nzst": 12 * 3600, "nzdt": 13 * 3600,
    ]

    /// Words for today and the days before it.
    static let relativeDays: [String: Int] = ["today": 0, "yesterday": -1]

    /// Small words between the parts of a date: "March 5 at 2 PM", "5 de marzo de 2024", "5th of March".
    static let fillers: Set<String> = ["at", "de", "del", "um", "à", "le", "of", "the", "on"]

    /// Ordinal suffixes after a day number.
    static let ordinals: Set<String> = ["st", "nd", "rd", "th"]

    /// English time units in seconds ("5 mins ago", "2h ago"); a month is 30 days, a year 365.
    static let englishUnits: [String: Double] = [
        "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
        "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
        "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
        "d": 86_400, "day": 86_400, "days": 86_400,
        "w": 604_800, "wk": 604_800, "wks": 604_800, "week": 604_800, "weeks": 604_800,
        "mo": 2_592_000, "mos": 2_592_000, "month": 2_592_000, "months": 2_592_000,
        "y": 31_536_000, "yr": 31_536_000, "yrs": 31_536_000, "year": 31_536_000, "years": 31_536_000,
        "moment": 0, "moments": 0,
    ]

    /// English amounts written as words.
    static let englishAmounts: [String: Double] = [
        "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "few": 3, "several": 3,
    ]

    /// Chinese numerals an amount is written with: "一小时前", "两天前", "半小时前".
    static let chineseAmounts: [Unicode.Scalar: Double] = [
        "半": 0.5, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
        "十": 10, "几": 3, "幾": 3,
    ]

    /// The characters after 周 / 星期 / 礼拜 that make a day name.
    static let chineseWeekdayDigits: Set<Unicode.Scalar> = ["一", "二", "三", "四", "五", "六", "日", "天", "七"]
}
