/// Traditional → simplified Chinese for the most frequent characters whose forms differ.
///
/// This is deliberately a table of common characters only (about 881, enough for news headlines), written for
/// Tributary and checked against a published conversion table; it is one character to one character, so
/// context-dependent conversions (著/着, 乾/干 in names) and phrase-level ones (計程車/出租车) are out of scope.
/// Characters not in the table pass through unchanged, which only lowers the similarity of a traditional headline
/// to its simplified twin a little.
enum TraditionalChinese {
    /// The pairs, traditional then simplified, back to back; split into lines for readability.
    private static let pairs: [String] = [
        "並并乾干亂乱亞亚佈布佔占來来係系倉仓個个們们倫伦偉伟側侧偽伪傑杰傘伞備备傳传債债傷伤傾倾僅仅僑侨價价儀仪億亿儉俭償偿優优",
        "儲储兇凶兌兑兒儿內内兩两冊册凍冻別别則则剛刚創创劃划劇剧劉刘劑剂勁劲動动務务勝胜勞劳勢势勵励匯汇區区協协卻却厲厉參参員员",
        "問问啟启喚唤喬乔單单嗎吗嘗尝噴喷噸吨嚇吓嚴严國国圍围園园圓圆圖图團团執执堅坚報报場场塊块塵尘墜坠壇坛壓压壞坏壩坝壯壮壽寿",
        "夠够夢梦奧奥奪夺奮奋婦妇媽妈嬰婴孫孙學学寢寝實实寧宁審审寫写寬宽寶宝將将專专尋寻對对導导尷尴屆届層层屬属島岛峽峡嶺岭嶼屿",
        "師师帶带幟帜幣币幫帮幹干幾几庫库廈厦廟庙廠厂廢废廣广廳厅張张彈弹彎弯彙汇後后徑径從从復复徵征徹彻惡恶態态慶庆憂忧憐怜憑凭",
        "憲宪憶忆懇恳應应懲惩懶懒懷怀懸悬戀恋戰战戲戏戶户拋抛掃扫掛挂採采揚扬換换損损搖摇搶抢撥拨擁拥擇择擊击擋挡擔担據据擠挤擬拟",
        "擴扩擺摆擾扰攜携攝摄攤摊敗败敘叙敵敌數数斃毙斬斩斷断於于時时晉晋晝昼暈晕暢畅暫暂曆历曉晓書书會会東东條条棄弃棟栋業业極极",
        "榮荣構构槍枪樁桩樂乐樓楼標标樞枢樣样樹树橋桥機机檔档檢检櫃柜權权歎叹歐欧歡欢歲岁歷历歸归殘残殯殡殺杀殼壳毀毁氈毡氣气氫氢",
        "決决沒没況况涼凉淚泪淨净淺浅減减測测湧涌湯汤準准溝沟溫温滅灭滬沪滯滞滲渗滾滚滿满漁渔漢汉漲涨漸渐漿浆潑泼潔洁潛潜潤润潰溃",
        "澆浇澤泽濃浓濕湿濟济濱滨濾滤瀕濒灑洒灣湾災灾為为烏乌無无煉炼煙烟熱热燈灯燒烧營营燦灿燭烛爐炉爛烂爭争爺爷爾尔牆墙牽牵犧牺",
        "狀状猶犹猻狲獄狱獅狮獎奖獨独獲获獵猎獻献現现瑤瑶瑪玛環环瓊琼甕瓮產产畢毕畫画異异當当疊叠痠酸瘋疯療疗癢痒發发皺皱盜盗盡尽",
        "監监盤盘盧卢盪荡眾众矇蒙碩硕確确碼码磚砖礎础礙碍礦矿礫砾祕秘禍祸禮礼禿秃稅税稈秆種种稱称穀谷積积穩稳窩窝窮穷窯窑竄窜竊窃",
        "競竞筆笔筧笕節节範范築筑篩筛簍篓簡简簽签簾帘籃篮籌筹籤签糧粮糾纠紀纪約约紅红紋纹納纳紐纽純纯紙纸級级紛纷紡纺細细終终組组",
        "結结絕绝絡络給给絨绒統统絲丝綁绑經经綜综綠绿綢绸維维綱纲網网綻绽緊紧緒绪線线締缔緣缘編编緩缓緯纬練练縣县縫缝縮缩縱纵總总",
        "績绩織织繞绕繩绳繫系繳缴繼继續续纜缆罈坛罰罚罵骂罷罢羅罗羨羡義义習习聖圣聞闻聯联聰聪聲声聳耸聶聂職职聽听肅肃脅胁脫脱脹胀",
        "腦脑腫肿膚肤膠胶膩腻膽胆臉脸臟脏臨临臺台與与興兴舉举舊旧艙舱艦舰艱艰莊庄華华萬万葉叶蒼苍蓋盖蓮莲蔣蒋蕩荡蕭萧薑姜薦荐薩萨",
        "藍蓝藝艺藥药藹蔼蘆芦蘇苏蘊蕴蘋苹蘭兰處处虛虚號号虧亏蝦虾螢萤蟲虫蠟蜡蠶蚕衊蔑術术衛卫衝冲裏里補补裝装裡里製制複复褲裤襯衬",
        "襲袭見见規规視视親亲覺觉覽览觀观觸触訂订計计訊讯訓训記记訝讶訪访設设許许訴诉診诊評评詞词詢询試试詩诗詭诡話话該该詳详誇夸",
        "認认誕诞語语誠诚誤误說说誰谁課课調调談谈請请諒谅論论諮咨諷讽諾诺謀谋謂谓謊谎謎谜謙谦講讲謝谢謠谣謹谨證证識识譜谱譯译議议",
        "譴谴護护譽誉讀读變变讓让讚赞豈岂豎竖豐丰豬猪貓猫貝贝貞贞負负財财貢贡貧贫貨货販贩責责貴贵貶贬買买貸贷費费貼贴貿贸賀贺賃赁",
        "賄贿資资賊贼賓宾賞赏賠赔賢贤賣卖賤贱賦赋質质賬账賭赌賴赖賺赚購购賽赛贈赠贊赞贏赢贖赎趕赶趙赵趨趋趲趱跡迹踐践踴踊蹤踪躂跶",
        "躍跃車车軌轨軍军軟软軸轴較较載载輕轻輛辆輝辉輩辈輪轮輯辑輸输輾辗轉转轎轿轟轰辦办辭辞辮辫辯辩農农逕径這这連连週周進进遊游",
        "運运過过達达違违遙遥遞递遠远適适遲迟遷迁選选遺遗還还邊边邏逻郵邮鄉乡鄒邹鄧邓鄭郑鄰邻醞酝醫医釀酿釋释釘钉針针釣钓鈍钝鈔钞",
        "鈣钙鈴铃鉛铅銀银銅铜銘铭銷销鋁铝鋒锋鋪铺鋰锂鋸锯鋼钢錄录錘锤錢钱錦锦錫锡錯错錶表鍊炼鍋锅鍍镀鍛锻鍵键鎊镑鎖锁鎮镇鏈链鏡镜",
        "鐘钟鐮镰鐳镭鐵铁鑄铸鑑鉴鑰钥鑼锣鑽钻長长門门閃闪閉闭開开閒闲間间閘闸閣阁閩闽閱阅闆板闊阔闌阑闖闯關关闡阐陝陕陣阵陰阴陳陈",
        "陸陆陽阳隊队隕陨際际隨随險险隱隐隸隶隻只雋隽雖虽雙双雜杂雞鸡離离難难雲云電电霧雾霽霁靈灵靜静鞏巩韋韦韓韩韻韵響响頁页頂顶",
        "項项順顺頌颂預预頑顽頒颁頓顿領领頭头頸颈頻频顆颗題题額额顏颜願愿顛颠類类顧顾顫颤顯显風风颯飒颱台飄飘飛飞飯饭飲饮飼饲飽饱",
        "餅饼養养餓饿餘余館馆餵喂饒饶馬马馳驰駁驳駐驻駕驾駛驶駝驼騎骑騙骗騰腾騷骚騾骡驅驱驕骄驗验驚惊驛驿驟骤驢驴髒脏體体髮发鬆松",
        "鬍胡鬢鬓鬥斗鬧闹鬱郁魚鱼魯鲁魷鱿鮮鲜鯊鲨鯨鲸鱷鳄鳥鸟鳳凤鳴鸣鴨鸭鴻鸿鴿鸽鵝鹅鵬鹏鶯莺鷹鹰鸚鹦鹽盐麗丽麥麦麵面麼么黃黄點点",
        "黨党黴霉齊齐齋斋齒齿齡龄齣出龍龙龐庞龔龚龜龟",
    ]

    /// The first scalar of the table's range (U+4E00, the start of the CJK Unified Ideographs block).
    static let base: UInt32 = 0x4E00
    /// One past the last scalar of the table's range (U+9FFF + 1).
    static let end: UInt32 = 0xA000

    /// For each scalar in `base..<end`, its simplified form as an offset from `base`, plus one; zero means
    /// "unchanged". A flat array makes the lookup one load per Chinese character.
    static let table: [UInt16] = {
        var table = [UInt16](repeating: 0, count: Int(end - base))
        for line in pairs {
            var iterator = line.unicodeScalars.makeIterator()
            while let traditional = iterator.next(), let simplified = iterator.next() {
                guard (base..<end).contains(traditional.value), (base..<end).contains(simplified.value) else { continue }
                table[Int(traditional.value - base)] = UInt16(simplified.value - base + 1)
            }
        }
        return table
    }()

    /// How many characters the table converts.
    static var count: Int { table.reduce(0) { $0 + ($1 == 0 ? 0 : 1) } }
}
