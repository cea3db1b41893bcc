import Testing

@testable import TributaryCore

@Suite("Near-duplicate normalization")
struct NearDuplicateNormalizationTests {
    /// Headlines and the tokens they normalize to (`^` marks a name: a capitalized word in a sentence-case headline).
    static let table: [(String, [String])] = [
        // Bracketed tags and labels at either end go; full-width forms and case fold.
        ("【独家】华为Mate 70系列将于11月26日发布", ["华", "为", "^mat", "70", "系", "列", "将", "于", "11", "月", "26", "日", "发", "布"]),
        ("【独家】【快讯】美联储宣布降息", ["美", "联", "储", "宣", "布", "降", "息"]),
        ("突发！日本石川县发生7.6级地震", ["日", "本", "石", "川", "县", "发", "生", "7.6", "级", "地", "震"]),
        ("视频｜台风\"摩羯\"登陆海南文昌", ["台", "风", "摩", "羯", "登", "陆", "海", "南", "文", "昌"]),
        ("哈尔滨冰雪大世界开园（组图）", ["哈", "尔", "滨", "冰", "雪", "大", "世", "界", "开", "园"]),
        ("[Update] Microsoft confirms outage", ["^microsoft", "confirm", "outag"]),
        (
            "BREAKING: Magnitude 7.4 earthquake strikes off Taiwan's east coast",
            ["^magnitud", "7.4", "earthquak", "strik", "off", "^taiwan", "east", "coast"]
        ),
        ("Exclusive | Intel weighs sale of networking unit", ["^intel", "weigh", "sal", "network", "unit"]),
        ("Opinion: Why the four-day week is here to stay", ["^why", "4", "day", "week", "her", "stay"]),
        ("Ｆｕｌｌ－ｗｉｄｔｈ ＡＢＣ　１２３！", ["^full", "width", "^abc", "123"]),
        ("Café owner's “naïve” plan", ["^caf", "owner", "naiv", "plan"]),
        // Site names after the last separator go; a longer tail or one with a number stays.
        ("Apple Unveils iPhone 16 With New Camera Button - The Verge", ["appl", "unveil", "iphon", "16", "new", "camera", "button"]),
        ("Python 3.13 is out | LWN.net", ["^python", "3.13", "out"]),
        ("特斯拉中国宣布Model Y降价｜36氪", ["特", "斯", "拉", "中", "国", "宣", "布", "^model", "^y", "降", "价"]),
        ("比亚迪前三季度营收超5000亿元 - 新浪财经", ["比", "亚", "迪", "前", "3", "季", "度", "营", "收", "超", "500000000000", "元"]),
        ("Ukraine launches drone attack — live updates", ["^ukrain", "launch", "dron", "attack"]),
        ("Air India plane crash - what we know so far", ["^air", "^india", "plan", "crash", "what", "we", "know", "so", "far"]),
        ("Liverpool 2 - 0 Manchester City", ["liverpool", "2:0", "manchester", "city"]),
        // Traditional characters become simplified ones.
        ("蘋果發布iPhone 16系列，售價5999元起", ["苹", "果", "发", "布", "iphon", "16", "系", "列", "售", "价", "5999", "元", "起"]),
        // Chinese numerals without a counter stay characters.
        ("一带一路高峰论坛开幕", ["一", "带", "一", "路", "高", "峰", "论", "坛", "开", "幕"]),
    ]

    @Test("headlines normalize to the expected tokens", arguments: table)
    func normalize(_ title: String, _ tokens: [String]) {
        #expect(HeadlineTokenizer.describe(title) == tokens)
    }

    @Test("Title Case and ALL CAPS headlines mark no names")
    func titleCase() {
        #expect(HeadlineTokenizer.describe("Harvard President Claudine Gay Resigns").allSatisfy { !$0.hasPrefix("^") })
        #expect(HeadlineTokenizer.describe("MARKETS RALLY AS FED HOLDS RATES").allSatisfy { !$0.hasPrefix("^") })
        #expect(HeadlineTokenizer.describe("Storm hits Florida coast").contains("^florida"))
    }

    @Test("decorations and variants of one headline normalize alike")
    func variants() {
        let plain = HeadlineTokenizer.describe("美联储宣布降息50个基点")
        for variant in [
            "【快讯】美联储宣布降息50个基点", "快讯：美联储宣布降息50个基点", "美联储宣布降息50个基点 - 新浪财经", "美聯儲宣布降息50個基點",
            "美联储宣布降息５０个基点！", "美联储宣布降息50个基点_网易新闻",
        ] {
            #expect(HeadlineTokenizer.describe(variant) == plain, "\(variant)")
        }
    }

    @Test("the traditional-to-simplified table covers several hundred common characters")
    func traditionalTable() {
        #expect(TraditionalChinese.count >= 800)
        #expect(HeadlineTokenizer.describe("國務院常務會議") == HeadlineTokenizer.describe("国务院常务会议"))
        #expect(HeadlineTokenizer.describe("歐盟對中國電動車加徵關稅") == HeadlineTokenizer.describe("欧盟对中国电动车加征关税"))
    }

    @Test("a headline that is only decoration or punctuation has no tokens, but a lone tag keeps its words")
    func degenerate() {
        #expect(HeadlineTokenizer.describe("").isEmpty)
        #expect(HeadlineTokenizer.describe("!!! ??? ——").isEmpty)
        #expect(HeadlineTokenizer.describe("【独家】") == ["独", "家"])
        #expect(HeadlineTokenizer.describe("BREAKING:") == ["^break"])
    }
}
