import Foundation
import Testing
import TributarySyndication

/// One hostile input: what must be gone is checked for every case (`forbidden`), the marker must
/// survive, and some cases also pin the whole output.
struct HTMLSanitizerAttack: Sendable, CustomTestStringConvertible {
    let name: String
    let html: String
    /// Harmless text outside any dropped container; it must be in the output.
    let marker: String
    /// The whole output, for the cases worth pinning.
    let expected: String?
    /// Case-specific text that must not be in the output, on top of `forbidden`.
    let alsoForbidden: [String]

    init(_ name: String, _ html: String, marker: String, expected: String? = nil, alsoForbidden: [String] = []) {
        self.name = name
        self.html = html
        self.marker = marker
        self.expected = expected
        self.alsoForbidden = alsoForbidden
    }

    var testDescription: String { name }
}

@Suite("HTMLSanitizer against XSS filter evasion")
struct HTMLSanitizerAttackTests {
    /// Text that means script, a dangerous element or a style expression wherever it appears.
    static let forbidden = [
        #"javascript:"#, #"vbscript:"#, #"livescript:"#, #"on[a-z]+\s*="#, #"<script"#, #"<iframe"#, #"<object"#, #"<embed"#,
        #"<svg"#, #"<math"#, #"<style"#, #"<base"#, #"<meta"#, #"<link"#, #"<form"#, #"<input"#, #"expression\("#,
        #"data:text"#, #"data:image/svg"#, #"style="#, #"srcdoc"#, #"formaction"#, #"xlink"#,
    ]

    static let sanitizer = HTMLSanitizer(baseURL: URL(string: "https://example.com/blog/post.html"))

    @Test(arguments: attacks)
    func neutralizes(_ attack: HTMLSanitizerAttack) throws {
        let output = Self.sanitizer.sanitize(attack.html)
        for pattern in Self.forbidden {
            let regex = try Regex(pattern).ignoresCase()
            #expect(output.firstMatch(of: regex) == nil, "\(pattern) survived in \(output)")
        }
        for text in attack.alsoForbidden {
            #expect(!output.lowercased().contains(text.lowercased()), "\(text) survived in \(output)")
        }
        #expect(output.contains(attack.marker), "marker \(attack.marker) lost: \(output)")
        #expect(HTMLSanitizerOutputShape.problem(in: output) == nil, "\(output)")
        if let expected = attack.expected {
            #expect(output == expected)
        }
    }

    @Test func tableIsLargeAndMarkersAreUnique() {
        #expect(Self.attacks.count >= 60)
        #expect(Set(Self.attacks.map(\.marker)).count == Self.attacks.count)
        #expect(Self.attacks.filter { $0.expected != nil }.count >= 12)
    }

    static let attacks: [HTMLSanitizerAttack] = [
        // Script elements in many spellings.
        .init("script", #"<script>alert(1)</script>OK01"#, marker: "OK01", expected: "OK01"),
        .init("SCRIPT upper case", #"<SCRIPT>alert(1)</SCRIPT>OK02"#, marker: "OK02", expected: "OK02"),
        .init("ScRiPt mixed case", #"<ScRiPt>alert(1)</sCrIpT>OK03"#, marker: "OK03"),
        .init("external script", #"<script src="http://evil.example/x.js"></script>OK04"#, marker: "OK04", alsoForbidden: ["evil.example"]),
        .init("script with slash attribute", #"<script/xss src="x.js"></script>OK05"#, marker: "OK05", alsoForbidden: ["x.js"]),
        .init("script with spaces in tags", #"<script >alert(1)</script >OK06"#, marker: "OK06", alsoForbidden: ["alert"]),
        .init("extra open bracket", #"<<script>alert(1);//<</script>OK07"#, marker: "OK07", expected: "&lt;OK07"),
        .init("split script tag", #"<scr<script>ipt>alert(1)</script>OK08"#, marker: "OK08"),
        // Images with script URLs and handlers.
        .init("IMG SRC javascript unquoted", #"<IMG SRC=javascript:alert(1)>OK09"#, marker: "OK09", expected: "<img>OK09"),
        .init("IMG SRC javascript quoted", #"<IMG SRC="javascript:alert('XSS');">OK10"#, marker: "OK10"),
        .init("IMG SRC mixed-case scheme", #"<IMG SRC=JaVaScRiPt:alert(1)>OK11"#, marker: "OK11"),
        .init(
            "img onerror", #"<img src=x onerror=alert(1)>OK12"#, marker: "OK12",
            expected: #"<img src="https://example.com/blog/x">OK12"#
        ),
        .init("img onerror self-closing", #"<img src=x onerror="alert(1)"/>OK13"#, marker: "OK13"),
        .init("img backtick quotes", "<img src=`javascript:alert(1)`>OK14", marker: "OK14"),
        .init("img no space before handler", #"<img src="x"onerror="alert(1)">OK15"#, marker: "OK15"),
        .init(
            "quote breaking out of title", #"<a href="x" title='"><script>alert(1)</script>'>OK16</a>"#, marker: "OK16",
            expected: #"<a href="https://example.com/blog/x" title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">OK16</a>"#
        ),
        .init("IMG triple quotes", #"<IMG """><SCRIPT>alert("XSS")</SCRIPT>">OK17"#, marker: "OK17", expected: #"<img>"&gt;OK17"#),
        // Schemes hidden by entities and whitespace.
        .init("tab entity in scheme", #"<a href="jav&#x09;ascript:alert(1)">OK18</a>"#, marker: "OK18", expected: "<a>OK18</a>"),
        .init("newline entity in scheme", #"<a href="jav&#x0A;ascript:alert(1)">OK19</a>"#, marker: "OK19", expected: "<a>OK19</a>"),
        .init("carriage return entity in scheme", #"<a href="jav&#x0D;ascript:alert(1)">OK20</a>"#, marker: "OK20"),
        .init(
            "decimal entities",
            #"<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#49;&#41;">OK21</a>"#,
            marker: "OK21", expected: "<a>OK21</a>"
        ),
        .init(
            "zero-padded entities without semicolons",
            #"<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">OK22</a>"#,
            marker: "OK22", expected: "<a>OK22</a>"
        ),
        .init(
            "hex entities", #"<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">OK23</a>"#,
            marker: "OK23", expected: "<a>OK23</a>"
        ),
        .init(
            "hex entities without semicolons", #"<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">OK24</a>"#,
            marker: "OK24", expected: "<a>OK24</a>"
        ),
        .init("literal tab in scheme", "<a href=\"java\tscript:alert(1)\">OK25</a>", marker: "OK25", expected: "<a>OK25</a>"),
        .init("NUL byte in scheme", "<a href=\"java\u{0}script:alert(1)\">OK26</a>", marker: "OK26", expected: "<a>OK26</a>"),
        .init(
            "control character and spaces before scheme", #"<a href=" &#14;  javascript:alert(1)">OK27</a>"#, marker: "OK27",
            expected: "<a>OK27</a>"),
        .init("newline before scheme", #"<a href="&#10; javascript:alert(1)">OK28</a>"#, marker: "OK28"),
        .init("leading spaces", #"<a href="   javascript:alert(1)">OK29</a>"#, marker: "OK29"),
        .init("JaVaScRiPt in href", #"<a href="JaVaScRiPt:alert(1)">OK30</a>"#, marker: "OK30"),
        .init("vbscript", #"<a href="vbscript:msgbox(1)">OK31</a>"#, marker: "OK31", expected: "<a>OK31</a>"),
        .init("livescript", #"<a href="livescript:alert(1)">OK32</a>"#, marker: "OK32"),
        .init("data text/html base64", #"<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">OK33</a>"#, marker: "OK33"),
        .init("data text/html inline", #"<a href="data:text/html,<script>alert(1)</script>">OK34</a>"#, marker: "OK34"),
        .init(
            "data svg image", #"<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">OK35"#, marker: "OK35",
            expected: "<img>OK35"),
        .init("HTML5 &colon;", #"<a href="javascript&colon;alert(1)">OK36</a>"#, marker: "OK36", expected: "<a>OK36</a>"),
        .init("HTML5 &Tab;", #"<a href="java&Tab;script:alert(1)">OK37</a>"#, marker: "OK37"),
        .init("HTML5 &NewLine;", #"<a href="java&NewLine;script:alert(1)">OK38</a>"#, marker: "OK38"),
        .init("file scheme", #"<a href="file:///etc/passwd">OK39</a>"#, marker: "OK39", alsoForbidden: ["file:"]),
        .init("percent-encoded scheme", #"<a href="%6A%61vascript:alert(1)">OK40</a>"#, marker: "OK40", alsoForbidden: ["vascript"]),
        // Foreign content.
        .init("svg onload", #"<svg onload=alert(1)></svg>OK41"#, marker: "OK41", expected: "OK41"),
        .init("script inside svg", #"<svg><script>alert(1)</script></svg>OK42"#, marker: "OK42"),
        .init("svg link", #"<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>OK43"#, marker: "OK43"),
        .init("math xlink", #"<math><mi xlink:href="javascript:alert(1)">x</mi></math>OK44"#, marker: "OK44"),
        .init("style inside svg", #"<svg><style>{font-family:'<iframe/onload=confirm(1)>'</style></svg>OK45"#, marker: "OK45"),
        // Embedding.
        .init("iframe src", #"<iframe src="javascript:alert(1)"></iframe>OK46"#, marker: "OK46"),
        .init("iframe srcdoc", #"<iframe srcdoc="<script>alert(1)</script>"></iframe>OK47"#, marker: "OK47"),
        .init("object data", #"<object data="javascript:alert(1)"></object>OK48"#, marker: "OK48"),
        .init("object param", #"<object><param name="src" value="javascript:alert(1)"></object>OK49"#, marker: "OK49"),
        .init("embed src", #"<embed src="javascript:alert(1)">OK50"#, marker: "OK50", expected: "OK50"),
        .init("applet", #"<applet code="x.class"></applet>OK51"#, marker: "OK51", alsoForbidden: ["applet"]),
        .init("frame", #"<frame src="javascript:alert(1)">OK52"#, marker: "OK52"),
        .init("frameset onload", #"<frameset onload=alert(1)></frameset>OK53"#, marker: "OK53"),
        // Forms.
        .init(
            "form action and formaction",
            #"<form action="javascript:alert(1)"><input type="submit" formaction="javascript:alert(2)"></form>OK54"#,
            marker: "OK54"
        ),
        .init("button formaction", #"<button formaction="javascript:alert(1)">x</button>OK55"#, marker: "OK55"),
        .init("input type image", #"<input type="image" src="javascript:alert(1)">OK56"#, marker: "OK56"),
        .init("isindex", #"<isindex type=image src=1 onerror=alert(1)>OK57"#, marker: "OK57"),
        .init("keygen autofocus", #"<keygen autofocus onfocus=alert(1)>OK58"#, marker: "OK58", alsoForbidden: ["autofocus"]),
        .init("textarea with script", #"<textarea><script>alert(1)</script></textarea>OK59"#, marker: "OK59"),
        .init("select with script", #"<select><option><script>alert(1)</script></option></select>OK60"#, marker: "OK60"),
        // Document-level elements.
        .init("meta refresh", #"<meta http-equiv="refresh" content="0;url=javascript:alert(1)">OK61"#, marker: "OK61", expected: "OK61"),
        .init(
            "base href hijack", #"<base href="javascript:alert(1)//"><a href="x">OK62</a>"#, marker: "OK62",
            expected: #"<a href="https://example.com/blog/x">OK62</a>"#
        ),
        .init("link stylesheet", #"<link rel="stylesheet" href="javascript:alert(1)">OK63"#, marker: "OK63"),
        .init("style @import", #"<style>@import 'http://evil.example/x.css';</style>OK64"#, marker: "OK64", alsoForbidden: ["@import"]),
        .init(
            "style list image", #"<style>li {list-style-image: url("javascript:alert(1)");}</style><ul><li>OK65</li></ul>"#, marker: "OK65"),
        .init("body onload", #"<body onload=alert(1)>OK66"#, marker: "OK66", expected: "OK66"),
        .init("xml island", #"<xml><script>alert(1)</script></xml>OK67"#, marker: "OK67"),
        .init("processing instruction", #"<?xml-stylesheet href="javascript:alert(1)"?>OK68"#, marker: "OK68", expected: "OK68"),
        // Style attributes.
        .init(
            "style url javascript", #"<div style="background:url(javascript:alert(1))">OK69</div>"#, marker: "OK69",
            expected: "<div>OK69</div>"),
        .init("style expression", #"<div style="width: expression(alert(1))">OK70</div>"#, marker: "OK70"),
        .init("style behavior", #"<div style="behavior:url(x.htc)">OK71</div>"#, marker: "OK71", alsoForbidden: ["behavior", "htc"]),
        // Comments.
        .init("script in comment", #"<!--<script>alert(1)</script>-->OK72"#, marker: "OK72", expected: "OK72"),
        .init("conditional comment", #"<!--[if IE]><script>alert(1)</script><![endif]-->OK73"#, marker: "OK73", expected: "OK73"),
        .init("downlevel-revealed conditional", #"<![if !IE]><script>alert(1)</script><![endif]>OK74"#, marker: "OK74", expected: "OK74"),
        .init("CDATA section", #"<![CDATA[<script>alert(1)</script>]]>OK75"#, marker: "OK75", expected: "OK75"),
        // Event handlers on kept and unknown elements.
        .init("unknown element handler", #"<xss onmouseover="alert(1)">OK76</xss>"#, marker: "OK76", expected: "OK76"),
        .init("details ontoggle", #"<details open ontoggle=alert(1)>OK77</details>"#, marker: "OK77", expected: "<details>OK77</details>"),
        .init(
            "source onerror", #"<video><source onerror="alert(1)"></video>OK78"#, marker: "OK78", expected: "<video><source></video>OK78"),
        .init("audio onerror", #"<audio src=x onerror=alert(1)>OK79"#, marker: "OK79"),
        .init("video poster and src", #"<video poster="javascript:alert(1)" src="javascript:alert(2)">OK80</video>"#, marker: "OK80"),
        .init("marquee onstart", #"<marquee onstart=alert(1)>OK81</marquee>"#, marker: "OK81", alsoForbidden: ["marquee"]),
        .init("dialog", #"<dialog open onclose=alert(1)>x</dialog>OK82"#, marker: "OK82"),
        .init("custom element", #"<my-widget onclick="alert(1)">OK83</my-widget>"#, marker: "OK83", expected: "OK83"),
        .init("font handler", #"<font color="red" onmouseover="alert(1)">OK84</font>"#, marker: "OK84", expected: "OK84"),
        .init("slash before attribute", #"<div/onclick="alert(1)">OK85</div>"#, marker: "OK85", expected: "<div>OK85</div>"),
        .init(
            "attributes of a kept element", #"<div onclick="alert(1)" class="x" id="y" data-x="z">OK86</div>"#, marker: "OK86",
            expected: "<div>OK86</div>"),
        // URLs in other attributes.
        .init(
            "protocol-relative link", #"<a href="//evil.example/">OK87</a>"#, marker: "OK87",
            expected: #"<a href="https://evil.example/">OK87</a>"#
        ),
        .init("srcset javascript", #"<img srcset="javascript:alert(1) 1x">OK88"#, marker: "OK88", expected: "<img>OK88"),
        .init(
            "srcset mixed candidates", #"<img srcset="x.png 1x, javascript:alert(1) 2x">OK89"#, marker: "OK89",
            expected: #"<img srcset="https://example.com/blog/x.png 1x">OK89"#
        ),
        .init("table background", #"<table background="javascript:alert(1)"><tr><td>OK90</td></tr></table>"#, marker: "OK90"),
        .init("td background", #"<table><tr><td background="javascript:alert(1)">OK91</td></tr></table>"#, marker: "OK91"),
        .init(
            "blockquote cite", #"<blockquote cite="javascript:alert(1)">OK92</blockquote>"#, marker: "OK92",
            expected: "<blockquote>OK92</blockquote>"),
        .init("img dynsrc and lowsrc", #"<img dynsrc="javascript:alert(1)" lowsrc="javascript:alert(2)">OK93"#, marker: "OK93"),
        .init("bgsound", #"<bgsound src="javascript:alert(1)">OK94"#, marker: "OK94"),
        .init("duplicate href", #"<a href="javascript:alert(1)" href="https://ok.example/">OK95</a>"#, marker: "OK95"),
        .init("slash between tag and attribute", #"<a/href="javascript:alert(1)">OK96</a>"#, marker: "OK96"),
        .init(
            "src with colon and eval", #"<img src=x:alert(alt) onerror=eval(src) alt=0>OK97"#, marker: "OK97",
            expected: #"<img alt="0">OK97"#),
        .init(
            "link keeps href only", #"<a href="https://ok.example/" onclick="alert(1)" target="_blank" rel="opener">OK98</a>"#,
            marker: "OK98",
            expected: #"<a href="https://ok.example/">OK98</a>"#
        ),
        // Parser differentials.
        .init(
            "noscript title breakout", #"<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>OK99"#, marker: "OK99",
            expected: "OK99"),
        .init("template with script", #"<template><script>alert(1)</script></template>OKA0"#, marker: "OKA0"),
        .init("full-width brackets stay text", "＜script＞alert(1)＜/script＞OKA1", marker: "OKA1", expected: "＜script＞alert(1)＜/script＞OKA1"),
        .init(
            "polyglot",
            #"<a href="javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/"/+/onmouseover=1/+/[*/[]/+alert(1)//'>">OKA2</a>"#,
            marker: "OKA2"
        ),
        .init("meta charset switch", #"<meta charset="utf-7">+ADw-script+AD4-alert(1)+ADw-/script+AD4-OKA3"#, marker: "OKA3"),
    ]
}
