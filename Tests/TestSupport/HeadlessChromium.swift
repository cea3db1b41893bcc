import Foundation

/// Renders pages with headless Chromium (Debian package `chromium`, which `make test` installs)
/// with the network closed: every name resolves to nothing and every connection goes to a
/// proxy on 127.0.0.1:9 where nothing listens, so a page's outside images are never fetched.
public enum HeadlessChromium {
    /// Where Debian puts the browser.
    public static let path = "/usr/bin/chromium"

    /// Why the browser could not be used.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The DOM after the page loaded, serialized (`--dump-dom`).
    public static func dumpDOM(file: String) async throws -> String {
        let result = try await run(["--dump-dom", URL(fileURLWithPath: file).absoluteString])
        return result.standardOutput
    }

    /// Renders the page at `width`×`height` CSS pixels into a PNG file at `screenshot`.
    public static func screenshot(file: String, to screenshot: String, width: Int, height: Int, dark: Bool = false) async throws {
        var arguments = ["--screenshot=\(screenshot)", "--window-size=\(width),\(height)", "--hide-scrollbars"]
        if dark { arguments.append("--force-dark-mode") }
        _ = try await run(arguments + [URL(fileURLWithPath: file).absoluteString])
    }

    private static func run(_ arguments: [String]) async throws -> ChildProcess.Result {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Unavailable(
                description: "chromium is not installed (\(path)); run 'make test', which installs it (Debian package 'chromium')")
        }
        let profile = try TemporaryDirectory(prefix: "tributary-chromium")
        let flags = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
            "--user-data-dir=\(profile.url.path)", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-extensions", "--disable-default-apps", "--no-pings", "--disable-domain-reliability", "--metrics-recording-only",
            "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
        ]
        let environment = ["PATH": "/usr/bin:/bin", "HOME": profile.url.path, "LANG": "C.UTF-8"]
        let result = try await ChildProcess([path] + flags + arguments, directory: profile.url.path, environment: environment)
            .run(timeLimit: .seconds(180))
        guard result.status == 0, !result.timedOut else {
            throw Unavailable(description: "chromium failed (status \(result.status)): \(result.standardError.suffix(2000))")
        }
        return result
    }
}
