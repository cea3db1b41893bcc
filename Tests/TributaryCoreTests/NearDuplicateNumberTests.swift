import Testing

@testable import TributaryCore

@Suite("Near-duplicate numbers and vetoes")
struct NearDuplicateNumberTests {
    /// Headlines and the canonical numbers extracted from them.
    static let numbers: [(String, [String])] = [
        ("Linux 6.10 released", ["6.10"]),
        ("Linux 6.10.1 released", ["6.10.1"]),
        ("Amazon to invest $11 billion in Indiana", ["11000000000"]),
        ("Amazon will invest $11B", ["11000000000"]),
        ("Google fined €2.4bn", ["2400000000"]),
        ("Netflix adds 13.1 million subscribers", ["13100000"]),
        ("Bitcoin tops $100K", ["100000"]),
        ("Bitcoin tops $100,000", ["100000"]),
        ("Volcano erupts for the fourth time", ["4"]),
        ("Iceland volcano erupts for 4th time", ["4"]),
        ("Two killed in shooting", ["2"]),
        ("Fed raises rates by 0.25 percentage point", ["0.25"]),
        ("Arsenal beat Chelsea 3-1", ["3:1"]),
        ("中国女排3:0横扫日本队", ["3:0"]),
        ("国足1比0战胜泰国队", ["1:0"]),
        ("Windows 11 24H2 update", ["11", "24h2"]),
        ("OpenAI launches GPT-4o", ["4o"]),
        ("Samsung Galaxy S24 launch", ["s24"]),
        ("神舟十九号载人飞船发射成功", ["19"]),
        ("第十四届全国人大二次会议", ["14", "2"]),
        ("中国人口连续两年负增长", ["2"]),
        ("苹果发布会定档9月10日", ["9", "10"]),
        ("07月", ["7"]),
        ("一带一路高峰论坛开幕", []),
        ("三星Galaxy S24发布", ["s24"]),
        // Chinese numerals that read as numbers by their shape, wherever they are; ill-formed runs stay characters.
        ("上海今日新增确诊病例十二例", ["12"]),
        ("上海今日新增确诊病例二十例", ["20"]),
        ("三百零五名学生参加", ["305"]),
        ("十三五规划圆满收官", []),
        ("十全十美的方案", []),
        // Chinese magnitudes after digits, as English ones; a percentage's trailing zeros (not a version's).
        ("京东宣布招聘1万人", ["10000"]),
        ("京东宣布招聘10000人", ["10000"]),
        ("净利润128.5亿元", ["12850000000"]),
        ("全国财政收入超过2万亿元", ["2000000000000"]),
        ("一季度GDP同比增长5.0%", ["1", "5"]),
        ("CPI rose 2.50% in May", ["2.5"]),
        ("Linux 6.10 released, 3.0 GB smaller", ["6.10", "3.0"]),
        // An instance of a trial, a plenary session.
        ("李某受贿案二审开庭", ["2"]),
        ("二十届三中全会公报发布", ["20", "3"]),
    ]

    @Test("numbers are extracted whole and canonical", arguments: numbers)
    func extract(_ title: String, _ expected: [String]) {
        #expect(HeadlineTokenizer.numbers(in: title) == expected)
    }

    /// Pairs of headlines and whether (and why) they are different stories.
    static let vetoes: [(String, String, NearDuplicateVeto?)] = [
        ("Linux 6.10 released", "Linux 6.11 released", .numbers),
        ("The best laptops of 2023", "The best laptops of 2024", .numbers),
        ("Tesla cuts Model Y price to $44,990 in US", "Tesla cuts Model Y price to $42,990 in US", .numbers),
        ("Arsenal beat Chelsea 3-1 at the Emirates", "Arsenal beat Chelsea 5-0 at the Emirates", .numbers),
        ("中国女排3:0横扫日本队", "中国女排0:3不敌日本队", .numbers),
        ("神舟十八号载人飞船发射成功", "神舟十九号载人飞船发射成功", .numbers),
        ("特斯拉Model 3降价1.5万元", "特斯拉Model Y降价1.5万元", .replacedNumber),
        ("上海今日新增确诊病例十二例", "上海今日新增确诊病例二十例", .numbers),
        // Numbers in a bracketed tag that the headline's core leaves out still tell issues of a series apart.
        ("外交部发言人毛宁主持例行记者会（3月4日）", "外交部发言人毛宁主持例行记者会（3月5日）", .numbers),
        ("Changelog (v1.2.3)", "Changelog (v1.2.4)", .numbers),
        ("每日新闻早班车（第123期）", "每日新闻早班车（第124期）", .numbers),
        ("Daily digest (5 March 2024)", "Daily digest (6 March 2024)", .numbers),
        ("Weather report for Beijing (2024-03-05)", "Weather report for Beijing (2024-03-06)", .numbers),
        ("[2023] The best laptops", "[2024] The best laptops", .numbers),
        ("Russia launches massive missile attack on Kyiv", "Russia launches massive missile attack on Lviv", .differentNames),
        ("Boeing CEO resigns amid 737 Max crisis", "Boeing CFO resigns amid 737 Max crisis", .differentNames),
        ("阿里巴巴发布第三季度财报", "腾讯发布第三季度财报", .differentSubject),
        ("A股三大指数集体高开", "A股三大指数集体低开", .oppositeDirection),
        ("Japan's economy shrinks 0.5% in third quarter", "Japan's economy grows 0.5% in third quarter", .oppositeDirection),
        ("Senate passes $1.2 trillion spending bill", "Senate rejects $1.2 trillion spending bill", .oppositeDirection),
        ("Russia accuses Ukraine of attacking nuclear plant", "Ukraine accuses Russia of attacking nuclear plant", .reversedRoles),
        ("广州队2比0击败山东队晋级", "山东队2比0击败广州队晋级", .reversedRoles),
        ("王某起诉李某侵犯名誉权", "李某起诉王某侵犯名誉权", .reversedRoles),
        // Words of opposite direction, negations, members of exclusive sets, places of one kind.
        ("Appeals court upholds ban on assault weapons", "Appeals court overturns ban on assault weapons", .oppositeDirection),
        ("Jury convicts nurse in hospital poisoning case", "Jury acquits nurse in hospital poisoning case", .oppositeDirection),
        ("Governor signs bill capping insulin prices", "Governor vetoes bill capping insulin prices", .oppositeDirection),
        ("Police arrest man over festival stabbing", "Police release man over festival stabbing", .oppositeDirection),
        ("省人大常委会批准预算调整方案", "省人大常委会否决预算调整方案", .oppositeDirection),
        ("法院支持原告全部诉讼请求", "法院驳回原告全部诉讼请求", .oppositeDirection),
        ("Pope will travel to Argentina this year, Vatican says", "Pope will not travel to Argentina this year, Vatican says", .negation),
        ("Bank doesn't expect rate cut before June", "Bank expects rate cut before June", .negation),
        ("特斯拉将在印度建厂", "特斯拉不会在印度建厂", .negation),
        ("美方宣布对进口钢铁加征关税", "美方宣布暂停对进口钢铁加征关税", .negation),
        ("Alcaraz reaches Wimbledon semifinal", "Alcaraz reaches Wimbledon final", .exclusiveWords),
        ("中国队晋级世乒赛男团半决赛", "中国队晋级世乒赛男团决赛", .exclusiveWords),
        ("中国女篮大胜新西兰", "中国男篮大胜新西兰", .exclusiveWords),
        ("Japan's exports rise for third month", "Japan's imports rise for third month", .exclusiveWords),
        ("气象台发布暴雨黄色预警", "气象台发布暴雨橙色预警", .exclusiveWords),
        ("南京地铁新线开通运营", "南昌地铁新线开通运营", .differentPlaces),
        ("瑞典央行宣布维持利率不变", "瑞士央行宣布维持利率不变", .differentPlaces),
        ("Weather service issues tornado warning for Dallas", "Weather service lifts tornado warning for Dallas", .oppositeDirection),
        ("City reopens Main Street bridge after repairs", "City closes Main Street bridge for repairs", .oppositeDirection),
        ("Rocket lands with crew aboard after six months", "Rocket lands without crew aboard after six months", .negation),
        ("Norway's central bank holds rates at 4.5%", "Norway's central bank cuts rates at 4.5%", .exclusiveWords),
        ("Missing girl found safe in Ohio woods", "Missing boy found safe in Ohio woods", .exclusiveWords),
        ("国安主场两球击败申花", "国安客场两球击败申花", .exclusiveWords),
        ("铁路部门暑假运输方案出炉", "铁路部门寒假运输方案出炉", .exclusiveWords),
        ("郑钦文晋级澳网八强", "郑钦文晋级美网八强", .exclusiveWords),
        ("四川雅安发生4.5级地震 暂无人员伤亡", "四川宜宾发生4.5级地震 暂无人员伤亡", .differentPlaces),
        ("Court grants asylum to Russian journalist", "Court denies asylum to Russian journalist", .oppositeDirection),
        ("离岸人民币对美元汇率盘中调升300点", "离岸人民币对美元汇率盘中调贬300点", .oppositeDirection),
        ("Economists say a recession is likely in Germany", "Economists say a recession is unlikely in Germany", .negation),
        ("Climber found alive two days after K2 avalanche", "Climber found dead two days after K2 avalanche", .exclusiveWords),
        ("Heavy snow closes roads in northern Italy", "Heavy snow closes roads in southern Italy", .exclusiveWords),
        ("国乒男团3比0横扫日本晋级决赛", "国乒女团3比0横扫日本晋级决赛", .exclusiveWords),
        ("国足晋级亚洲杯八强", "国足晋级亚洲杯四强", .numbers),
        // Not vetoed: the same numbers written differently, an added number, an edited headline.
        ("Two killed in shooting at Texas mall", "2 killed in shooting at Texas mall", nil),
        ("中国女排3:0横扫日本队，提前晋级", "中国女排3比0横扫日本队 提前晋级", nil),
        ("华为发布会定档9月10日", "华为发布会官宣定档9月10日下午2点30分", nil),
        ("Microsoft to acquire Activision Blizzard for $68.7 billion", "Microsoft to buy Activision Blizzard for $68.7bn", nil),
        ("拼多多市值超越阿里巴巴", "拼多多市值首次超过阿里巴巴", nil),
        ("Apple unveils iPhone 16 (video)", "Apple unveils iPhone 16", nil),
        ("苹果发布iPhone 16（组图）", "【独家】苹果发布iPhone 16", nil),
        ("Daily digest (5 March 2024)", "Daily digest", nil),
        ("京东宣布招聘1万名快递员", "京东宣布招聘10000名快递员", nil),
        ("GDP同比增长5.0%", "GDP同比增长5%", nil),
        // A province and its capital, a man and a woman of one story, two sides meeting (no contest), both negated.
        ("四川甘孜发生地震 成都震感明显", "四川甘孜发生地震 四川多地震感明显", nil),
        ("Man charged after woman found dead in Leeds flat", "Man charged after body found in Leeds flat", nil),
        ("拜登与习近平举行会晤", "习近平与拜登举行会晤", nil),
        ("Council won't raise parking fees this year", "Council will not raise parking fees this year", nil),
    ]

    @Test("numbers and structure veto different stories", arguments: vetoes)
    func veto(_ first: String, _ second: String, _ expected: NearDuplicateVeto?) {
        let detector = NearDuplicateDetector()
        #expect(detector.compare(first, second).veto == expected)
        #expect(detector.compare(second, first).veto == expected)
        if expected != nil { #expect(detector.similarity(first, second) == 0) }
    }

    @Test("under the stricter rule, a headline that adds a number is a different story")
    func equalOrMissingRule() {
        var detector = NearDuplicateDetector()
        detector.numberRule = .equalOrMissing
        #expect(detector.compare("华为发布会定档9月10日", "华为发布会官宣定档9月10日下午2点30分").veto == .numbers)
        #expect(detector.compare("Tesla recalls vehicles over Autopilot", "Tesla recalls 2 million vehicles over Autopilot").veto == nil)
        detector.numberRule = .subset
        #expect(detector.compare("华为发布会定档9月10日", "华为发布会官宣定档9月10日下午2点30分").veto == nil)
    }

    @Test("a headline without numbers cannot chain two headlines whose numbers differ into one cluster")
    func noChainingAcrossNumbers() {
        let titles = [
            "Linux kernel 6.10 released with new scheduler", "Linux kernel 6.11 released with new scheduler",
            "Linux kernel released with new scheduler",
        ]
        let detector = NearDuplicateDetector()
        #expect(detector.similarity(titles[0], titles[2]) >= detector.threshold)
        #expect(detector.similarity(titles[1], titles[2]) >= detector.threshold)
        let clusters = detector.clusters(titles)
        #expect(clusters.count == 1)
        #expect(!clusters.contains { $0.contains(0) && $0.contains(1) })
        #expect(detector.clusters(titles.reversed()).count == 1)
    }

    @Test("a cluster never holds two headlines that a structural check tells apart")
    func noChainingAcrossVetoes() {
        let titles = ["黄金价格再创历史新高", "金价再创历史新高！", "白银价格再创历史新高"]
        let clusters = NearDuplicateDetector().clusters(titles)
        #expect(!clusters.contains { $0.contains(0) && $0.contains(2) })
    }
}
