/// The words the structural checks (``HeadlineComparison``) know, by token id: words of opposite direction,
/// negations, members of sets whose members exclude each other, and Chinese place names.
///
/// A word is looked up as its tokens: an English word is one (stemmed like headline words, so `rises`, `rose` and
/// `rising` all count), a Chinese word of two characters is two, looked up as a pair (``pairKey(_:_:)``) among the
/// tokens only one headline has. The lists are short on purpose: each entry says that two headlines differing in it
/// are different stories, and an entry that editors also swap for style (`says` / `said`) would split duplicates.
enum HeadlineLexicon {
    /// The key of a single token.
    @inline(__always)
    static func key(_ id: UInt32) -> UInt64 { UInt64(id) }

    /// The key of two tokens in a row (a two-character Chinese word).
    @inline(__always)
    static func pairKey(_ first: UInt32, _ second: UInt32) -> UInt64 { UInt64(first) << 32 | UInt64(second) | 1 << 63 }

    // MARK: Directions

    /// Words of opposite direction, grouped by axis: each axis is (up words, down words).
    static let axes: [(up: [String], down: [String])] = [
        (
            up: [
                "rise", "rises", "rose", "risen", "up", "gain", "gains", "surge", "surges", "soar", "soars", "jump",
                "jumps", "climb", "climbs", "rally", "rallies", "grow", "grows", "grew", "expand", "expands", "raise",
                "raises", "hike", "hikes", "increase", "increases", "boost", "higher", "high", "beat", "beats",
                "win", "wins", "won", "add", "adds", "profit", "strengthen", "strengthens", "firms",
                "涨", "升", "增", "加", "高", "盈", "赢", "胜", "升值",
            ],
            down: [
                "fall", "falls", "fell", "fallen", "down", "lose", "loses", "lost", "loss", "losses", "plunge",
                "plunges", "drop", "drops", "dropped", "slide", "slides", "slump", "slumps", "tumble", "tumbles",
                "sink", "sinks", "sank", "shrink", "shrinks", "contract", "contracts", "cut", "cuts", "decrease",
                "decreases", "decline", "declines", "lower", "low", "dip", "dips", "slip", "slips", "miss", "misses",
                "weaken", "weakens", "跌", "降", "减", "低", "亏", "输", "负", "落", "贬", "贬值",
            ]
        ),
        (
            up: [
                "pass", "passes", "passed", "approve", "approves", "approved", "accept", "accepts", "accepted", "sign",
                "signs", "signed", "adopt", "adopts", "adopted", "confirm", "confirms", "confirmed", "agree", "agrees",
                "agreed", "uphold", "upholds", "upheld", "allow", "allows", "allowed", "grant", "grants", "granted",
                "批准", "通过", "支持", "同意",
                "实施", "启动", "维持",
            ],
            down: [
                "reject", "rejects", "rejected", "block", "blocks", "blocked", "veto", "vetoes", "vetoed", "deny",
                "denies", "denied", "overturn", "overturns", "overturned", "strike", "strikes", "struck", "scrap", "scraps",
                "否决", "驳回", "反对", "拒绝", "解除", "撤销", "推翻",
            ]
        ),
        (up: ["开"], down: ["闭"]),
        (up: ["上"], down: ["下"]),
        (up: ["买"], down: ["卖"]),
        (up: ["收"], down: ["免"]),
        (up: ["convict", "convicts", "convicted", "定罪"], down: ["acquit", "acquits", "acquitted", "无罪"]),
        (up: ["attend", "attends", "出席"], down: ["skip", "skips", "boycott", "boycotts", "缺席"]),
        (
            up: ["arrest", "arrests", "arrested", "detain", "detains", "detained", "逮捕", "拘留"],
            down: ["release", "releases", "released", "frees", "freed", "释放"]
        ),
        // A warning, a ban, sanctions: put in place or taken away.
        (
            up: [
                "issue", "issues", "issued", "impose", "imposes", "imposed", "declare", "declares", "declared", "发布", "发出",
                "实行",
            ],
            down: [
                "lift", "lifts", "lifted", "withdraw", "withdraws", "withdrew", "cancel", "cancels", "cancelled", "canceled",
                "取消", "解除",
            ]
        ),
        (
            up: ["open", "opens", "opened", "reopen", "reopens", "reopened", "开放", "开通"],
            down: ["closes", "closed", "shut", "shuts", "shutters", "关闭", "停运"]
        ),
    ]

    // MARK: Negations

    /// Words that negate or call off what the rest of a headline says: one headline with such a word the other lacks
    /// tells the opposite story (`will seek re-election` / `will not seek re-election`, `将出席` / `不会出席`,
    /// `加征关税` / `暂停加征关税`). `no` is left out (`No. 1`), and so are 未 and 无 alone (`未来`, `无人机`).
    static let negationWords = [
        "not", "never", "cannot", "cant", "dont", "doesnt", "didnt", "wont", "isnt", "arent", "wasnt", "werent",
        "hasnt", "havent", "wouldnt", "couldnt", "shouldnt", "without", "unlikely", "不", "没", "勿", "未能", "尚未", "并未", "暂停",
        "叫停", "推迟", "撤回",
    ]

    // MARK: Exclusive sets

    /// Sets of words of which a story has one: a headline with a member the other lacks, where the other has
    /// another member, tells a different story (a semifinal and a final, `半决赛` and `决赛`, the men's and the
    /// women's team, a red and an orange alert, imports and exports, the physics and the chemistry prize).
    static let exclusiveSets: [[[String]]] = [
        [["semifinal", "semifinals", "semi", "半"], ["quarterfinal", "quarterfinals"], ["final", "finals", "决赛"]],
        // Teams and events, not people: `man` / `woman` and `男子` / `女子` are often the two people of one story.
        [["men", "男排", "男足", "男篮", "男单", "男双", "男团"], ["women", "女排", "女足", "女篮", "女单", "女双", "女团"]],
        [["red", "红"], ["orange", "橙"], ["amber"], ["yellow", "黄"], ["blue", "蓝"]],
        [["import", "imports", "进口"], ["export", "exports", "出口"]],
        [["physics", "物理"], ["chemistry", "化学"], ["medicine", "医学"], ["literature", "文学"], ["peace", "和平"]],
        // A rate decision: held, cut or raised.
        [["hold", "holds", "held", "unchanged", "不变"], ["cut", "cuts", "降息"], ["raise", "raises", "hike", "hikes", "加息"]],
        [["boy", "boys", "男孩", "男童"], ["girl", "girls", "女孩", "女童"]],
        [["主场"], ["客场"]],
        [["winter", "冬季", "寒假", "冬奥"], ["summer", "夏季", "暑假", "夏奥"], ["spring", "春季", "春节"], ["autumn", "秋季"]],
        [["first", "一季度"], ["second", "二季度"], ["third", "三季度"], ["fourth", "四季度"]],
        [["澳网"], ["法网"], ["温网"], ["美网"]],
        [["alive", "survive", "survives", "survived", "生还", "获救"], ["dead", "遇难", "身亡"]],
        [["east", "eastern", "东部"], ["west", "western", "西部"], ["north", "northern", "北部"], ["south", "southern", "南部"]],
    ]

    // MARK: Places

    /// Chinese names of countries, of provinces and regions, and of large cities, in three lists. Chinese has no
    /// capitals to mark names, and a place differs from another of its kind by one character (`杭州` / `广州`, `瑞士` /
    /// `瑞典`), which the subject check takes for editing; two headlines each naming a place of one kind that the other
    /// does not name are different stories. Places of different kinds are not compared: `四川` and `成都` may well be
    /// the same story.
    static let placeNames: [[String]] = [
        [
            "中国", "美国", "日本", "韩国", "朝鲜", "英国", "法国", "德国", "俄罗斯", "意大利", "西班牙", "葡萄牙", "荷兰",
            "比利时", "瑞士", "瑞典", "挪威", "丹麦", "芬兰", "波兰", "乌克兰", "土耳其", "伊朗", "伊拉克", "以色列", "沙特",
            "埃及", "印度", "巴基斯坦", "越南", "泰国", "新加坡", "马来西亚", "印尼", "菲律宾", "澳大利亚", "新西兰",
            "加拿大", "墨西哥", "巴西", "阿根廷", "智利", "南非", "缅甸", "老挝", "柬埔寨", "蒙古国", "哈萨克斯坦", "阿富汗",
            "叙利亚", "黎巴嫩", "约旦", "卡塔尔", "阿联酋", "希腊", "奥地利", "匈牙利", "捷克", "罗马尼亚", "爱尔兰", "冰岛",
            "尼日利亚", "肯尼亚", "埃塞俄比亚", "秘鲁", "哥伦比亚", "委内瑞拉", "古巴",
        ],
        [
            "广东", "江苏", "浙江", "山东", "河南", "河北", "湖北", "湖南", "四川", "福建", "安徽", "江西", "广西", "云南",
            "贵州", "陕西", "山西", "甘肃", "辽宁", "吉林", "黑龙江", "海南", "新疆", "西藏", "内蒙古", "宁夏", "青海",
            "台湾", "香港", "澳门",
        ],
        [
            "北京", "上海", "天津", "重庆", "广州", "深圳", "杭州", "南京", "武汉", "成都", "西安", "长沙", "郑州", "济南",
            "青岛", "沈阳", "大连", "哈尔滨", "长春", "石家庄", "太原", "合肥", "福州", "厦门", "南昌", "南宁", "海口",
            "贵阳", "昆明", "拉萨", "兰州", "西宁", "银川", "乌鲁木齐", "呼和浩特", "苏州", "宁波", "无锡", "东莞", "佛山",
            "台北", "珠海", "汕头", "中山", "惠州", "温州", "绍兴", "嘉兴", "台州", "金华", "徐州", "常州", "南通", "扬州",
            "烟台", "潍坊", "临沂", "洛阳", "宜昌", "襄阳", "岳阳", "株洲", "衡阳", "桂林", "柳州", "三亚", "绵阳",
            "宜宾", "雅安", "泸州", "乐山", "遵义", "丽江", "延安", "宝鸡", "咸阳", "天水", "唐山", "保定", "邯郸",
            "秦皇岛", "包头", "鄂尔多斯", "鞍山", "抚顺", "丹东", "齐齐哈尔", "芜湖", "蚌埠", "泉州", "漳州",
            "莆田", "赣州", "九江", "景德镇", "喀什", "东京", "大阪", "首尔", "伦敦", "巴黎", "柏林", "纽约", "洛杉矶",
            "莫斯科", "悉尼",
        ],
    ]

    /// A place name as token ids, and its kind (the index of its list in ``placeNames``).
    struct Place {
        /// The name's token ids.
        var ids: [UInt32]
        /// Country, province or city.
        var kind: Int
    }

    /// The place names, grouped by their first token.
    static let places: [UInt32: [Place]] = {
        var places: [UInt32: [Place]] = [:]
        for (kind, names) in placeNames.enumerated() {
            for ids in names.map(ids(of:)) where ids.count >= 2 {
                places[ids[0], default: []].append(Place(ids: ids, kind: kind))
            }
        }
        return places
    }()

    // MARK: Contests

    /// Characters of a contest or a dispute, one side against the other (`战胜`, `击败`, `逆转`, `淘汰`, `起诉`,
    /// `指控`): around them, which side comes first matters.
    static let contestCharacters = ["胜", "败", "负", "赢", "输", "击", "逆", "淘", "诉", "控"]

    // MARK: Entries

    /// What the lexicon knows of a word.
    struct Entry {
        /// The direction axes the word points up on (bits of ``axes``' indices).
        var up: UInt16 = 0
        /// The direction axes the word points down on.
        var down: UInt16 = 0
        /// Whether the word is a negation.
        var isNegation = false
        /// The exclusive set (1 + its index in ``exclusiveSets``, 0 for none) and the member the word is.
        var exclusiveSet: UInt8 = 0
        /// The member of ``exclusiveSet``.
        var exclusiveMember: UInt8 = 0
        /// Whether a place name starts with the token (single tokens only).
        var startsPlace = false
        /// Whether the token is a contest character (single tokens only).
        var isContest = false
    }

    /// Everything the lexicon knows, by key: one lookup per token or pair of tokens.
    static let entries: [UInt64: Entry] = {
        // The comparison keeps these in bit sets: an axis a bit of 16, a set 8 bits of 128.
        precondition(axes.count <= 16 && exclusiveSets.count <= 16 && exclusiveSets.allSatisfy { $0.count <= 8 })
        var entries: [UInt64: Entry] = [:]
        for (axis, words) in axes.enumerated() {
            let bit = UInt16(1) << UInt16(axis)
            for key in keys(of: words.up) { entries[key, default: Entry()].up |= bit }
            for key in keys(of: words.down) { entries[key, default: Entry()].down |= bit }
        }
        for key in keys(of: negationWords) { entries[key, default: Entry()].isNegation = true }
        for (set, members) in exclusiveSets.enumerated() {
            for (member, words) in members.enumerated() {
                for key in keys(of: words) {
                    entries[key, default: Entry()].exclusiveSet = UInt8(set + 1)
                    entries[key, default: Entry()].exclusiveMember = UInt8(member)
                }
            }
        }
        for first in places.keys { entries[key(first), default: Entry()].startsPlace = true }
        for key in keys(of: contestCharacters) { entries[key, default: Entry()].isContest = true }
        return entries
    }()

    // MARK: Building

    /// The token ids of `word`.
    private static func ids(of word: String) -> [UInt32] {
        var tokenizer = HeadlineTokenizer()
        tokenizer.tokenize(word)
        return tokenizer.tokens.map { StableHash.fold($0.hash) }
    }

    /// The keys of `words`: one token, or two in a row; a word that tokenizes otherwise is left out.
    private static func keys(of words: [String]) -> [UInt64] {
        words.compactMap { word in
            let ids = ids(of: word)
            switch ids.count {
            case 1: return key(ids[0])
            case 2: return pairKey(ids[0], ids[1])
            default: return nil
            }
        }
    }
}
