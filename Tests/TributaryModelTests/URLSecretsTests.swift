import Testing
import TributaryModel

/// Messages name URLs, and messages reach stderr, the report, the state and the published HTML page: the secrets a
/// URL carries are `***` there.
@Suite("URLSecrets")
struct URLSecretsTests {
    @Test(
        "user names, passwords and secret-looking query values are hidden; the rest of the message stays",
        arguments: [
            (
                "http://user:s3cret@127.0.0.1:18999/feed.xml: connection refused",
                "http://***@127.0.0.1:18999/feed.xml: connection refused"
            ),
            ("fetching https://ghp_abc@example.org/x failed", "fetching https://***@example.org/x failed"),
            (
                "https://a.example/feed?token=abc&lang=zh&api_key=k1#top: HTTP 401",
                "https://a.example/feed?token=***&lang=zh&api_key=***#top: HTTP 401"
            ),
            (
                "'https://s3.example/f?X-Amz-Signature=f00&X-Amz-Credential=AK&page=2' and http://b.example/?access_token=t",
                "'https://s3.example/f?X-Amz-Signature=***&X-Amz-Credential=***&page=2' and http://b.example/?access_token=***"
            ),
            ("<https://a.example/?password=pw>", "<https://a.example/?password=***>"),
            ("https://a.example/?token=&q", "https://a.example/?token=&q"),
            ("no URL here: user:pw@host", "no URL here: user:pw@host"),
            ("https://medium.example/@ann/post?q=1", "https://medium.example/@ann/post?q=1"),
            ("https://新闻.example/路径?密钥=1&sid=2", "https://新闻.example/路径?密钥=1&sid=***"),
        ] as [(String, String)])
    func redacted(message: String, expected: String) {
        #expect(URLSecrets.redacted(in: message) == expected)
    }
}
