import Foundation
import TestSupport

/// Headline and summary templates for the pipeline benchmark, and the edits other sources make when they run the
/// same story (prefixes like 【独家】, site names, punctuation, a word changed).
enum Headlines {
    static let sourceStems = [
        "reuters", "apnews", "bbc", "guardian", "verge", "arstechnica", "techcrunch", "wired", "bloomberg", "ft",
        "nytimes", "hackernews", "lobsters", "engadget", "zdnet", "theregister", "cnbc", "axios", "politico", "npr",
        "sina", "sohu", "netease", "ifeng", "thepaper", "caixin", "kr36", "huxiu", "ithome", "qdaily", "zhihu", "toutiao",
        "weibo", "jiemian", "yicai", "wallstreetcn", "cls", "sspai", "geekpark", "leiphone",
    ]

    static let englishTags = ["tech", "business", "world", "science", "markets", "politics", "ai", "climate"]
    static let chineseTags = ["科技", "财经", "国际", "汽车", "互联网", "人工智能", "能源", "消费"]

    private static let englishVerbs = [
        "unveils", "launches", "cuts", "expands", "delays", "acquires", "sues", "recalls", "raises", "drops", "wins",
        "loses", "plans", "tests", "bans", "approves", "rejects", "opens", "closes", "warns about",
    ]
    private static let englishObjects = [
        "new smartphone", "electric truck", "AI model", "cloud region", "chip factory", "streaming service",
        "battery plant", "satellite network", "payment app", "data center", "self-driving taxis", "price cuts",
        "quarterly forecast", "privacy rules", "open-source license", "security patch", "subscription plan",
        "solar farm", "drug trial", "rate decision",
    ]
    private static let englishPlaces = [
        "Europe", "India", "Brazil", "Texas", "California", "Japan", "Germany", "Canada", "Kenya", "Vietnam",
        "Australia", "Mexico", "Indonesia", "Poland", "Singapore",
    ]
    private static let englishEvents = [
        "weak sales", "a record quarter", "supply problems", "a data breach", "regulatory pressure", "strong demand",
        "a court ruling", "layoffs", "a chip shortage", "a surprise merger",
    ]
    private static let englishAdverbs = ["officially", "quietly", "finally", "reportedly", "again"]

    private static let chineseVerbs = [
        "发布", "推出", "下调", "扩大", "暂停", "收购", "起诉", "召回", "上调", "宣布", "测试", "叫停", "批准", "拒绝",
        "开设", "关闭", "布局", "加码", "投资", "升级",
    ]
    private static let chineseObjects = [
        "新款手机", "电动卡车", "大模型", "云计算中心", "芯片工厂", "流媒体服务", "电池工厂", "卫星网络", "支付应用",
        "数据中心", "自动驾驶出租车", "降价计划", "季度指引", "隐私新规", "开源协议", "安全补丁", "会员服务", "光伏电站",
        "新药试验", "利率决议",
    ]
    private static let chinesePlaces = [
        "欧洲", "印度", "巴西", "深圳", "上海", "日本", "德国", "加拿大", "肯尼亚", "越南", "澳大利亚", "墨西哥", "印尼",
        "波兰", "新加坡", "杭州", "成都", "武汉",
    ]
    private static let chineseEvents = [
        "销量不及预期", "业绩创新高", "供应链紧张", "数据泄露", "监管趋严", "需求旺盛", "法院裁决", "裁员", "芯片短缺",
        "意外合并",
    ]
    private static let chineseComments = ["官方回应", "业内人士", "分析师", "知情人士", "监管部门"]

    /// A new story's headline.
    static func make(chinese: Bool, names: inout NameMaker, random: inout SeededGenerator) -> String {
        let number = random.below(100)
        if chinese {
            let company = names.chineseCompany(&random)
            switch random.below(6) {
            case 0: return "\(company)\(random.pick(chineseVerbs))\(random.pick(chineseObjects))，\(random.pick(chinesePlaces))市场反应不一"
            case 1: return "\(company)股价\(random.pick(["大涨", "大跌", "收涨", "收跌"]))\(1 + random.below(30))%，因\(random.pick(chineseEvents))"
            case 2:
                return
                    "\(random.pick(chinesePlaces))\(random.pick(chineseComments))：\(company)将在\(2026 + random.below(3))年\(random.pick(chineseVerbs))\(random.pick(chineseObjects))"
            case 3:
                return "\(names.chinesePerson(&random))谈\(company)：\(random.pick(chineseObjects))不是\(random.pick(["泡沫", "终点", "全部", "重点"]))"
            case 4:
                return
                    "\(company)\(random.pick(chineseObjects))在\(random.pick(chinesePlaces))\(random.pick(chineseVerbs))，首批\(number + 1)万台"
            default:
                return
                    "\(random.pick(chineseEvents))之下，\(company)\(random.pick(chineseVerbs))\(random.pick(chinesePlaces))\(random.pick(chineseObjects))"
            }
        } else {
            let company = names.latinCompany(&random)
            switch random.below(6) {
            case 0: return "\(company) \(random.pick(englishVerbs)) \(random.pick(englishObjects)) in \(random.pick(englishPlaces))"
            case 1:
                return
                    "\(company) shares \(random.pick(["jump", "fall", "slide", "soar"])) \(1 + random.below(30))% after \(random.pick(englishEvents))"
            case 2:
                return
                    "\(names.latinPerson(&random)) says \(company) will \(random.pick(["build", "close", "sell", "open"])) \(random.pick(englishObjects)) by \(2026 + random.below(3))"
            case 3: return "How \(company)'s \(random.pick(englishObjects)) could reshape \(random.pick(englishPlaces))"
            case 4:
                return
                    "\(random.pick(englishPlaces)) \(random.pick(englishVerbs)) \(company)'s \(random.pick(englishObjects)) amid \(random.pick(englishEvents))"
            default: return "\(company) \(random.pick(englishVerbs)) \(random.pick(englishObjects)), \(number + 1) million users affected"
            }
        }
    }

    /// A summary of one or two sentences that starts from the headline's story.
    static func summary(title: String, chinese: Bool, names: inout NameMaker, random: inout SeededGenerator) -> String {
        if chinese {
            return
                "据\(random.pick(chineseComments))透露，\(title)。此前，\(names.chineseCompany(&random))曾\(random.pick(chineseVerbs))\(random.pick(chineseObjects))，"
                + "\(random.pick(chinesePlaces))方面表示将持续关注\(random.pick(chineseEvents))带来的影响。"
        }
        return "\(title). The move follows \(random.pick(englishEvents)) and comes as \(names.latinCompany(&random)) "
            + "\(random.pick(englishVerbs)) its own \(random.pick(englishObjects)) in \(random.pick(englishPlaces))."
    }

    /// The headline as another source runs it.
    static func edit(_ title: String, chinese: Bool, random: inout SeededGenerator) -> String {
        var edited = title.trimmingCharacters(in: .whitespaces)
        switch random.below(4) {
        case 0:
            let prefix =
                chinese
                ? random.pick(["【独家】", "【快讯】", "突发！", "【深度】", "重磅："]) : random.pick(["Exclusive: ", "BREAKING: ", "[Update] ", "Report: "])
            edited = prefix + edited
        case 1:
            edited +=
                chinese
                ? random.pick(["｜36氪", " - 新浪科技", "_网易科技", "（附全文）"])
                : random.pick([" - Reuters", " | TechCrunch", " (updated)", " – The Verge"])
        case 2:
            if chinese {
                edited =
                    edited.replacingOccurrences(of: "，", with: " ").replacingOccurrences(of: "：", with: ":")
                    + random.pick(["！", "？", "。", ""])
            } else {
                edited =
                    edited.replacingOccurrences(of: ",", with: " -").replacingOccurrences(of: "'s", with: "’s")
                    + random.pick(["!", "?", "…", ""])
            }
        default:
            if chinese {
                edited = edited.replacingOccurrences(of: "，", with: "，" + random.pick(["正式", "再次", "或将", "终于"]))
                if !edited.contains("，") { edited = random.pick(["刚刚，", "最新："]) + edited }
            } else {
                var words = edited.split(separator: " ").map(String.init)
                if words.count > 3 { words.insert(random.pick(englishAdverbs), at: 2) }
                edited = words.joined(separator: " ")
            }
        }
        return edited
    }
}
