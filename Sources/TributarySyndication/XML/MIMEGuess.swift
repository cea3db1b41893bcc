/// A MIME type from a URL's file extension, for enclosures that do not say.
enum MIMEGuess {
    /// The type, or an empty string when the extension is unknown.
    static func type(forURL url: String) -> String {
        var path = Substring(url)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return types[path[path.index(after: dot)...].lowercased()] ?? ""
    }

    private static let types: [String: String] = [
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/opus",
        "wav": "audio/wav", "flac": "audio/flac", "mp4": "video/mp4", "m4v": "video/x-m4v", "mov": "video/quicktime", "webm": "video/webm",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml",
        "avif": "image/avif", "pdf": "application/pdf",
    ]
}
