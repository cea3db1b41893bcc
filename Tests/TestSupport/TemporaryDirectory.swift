public import Foundation

/// A fresh folder under the system's temporary folder, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    /// The folder.
    public let url: URL

    /// Creates an empty folder with a unique name.
    public init(prefix: String = "tributary-test") throws {
        let name = "\(prefix)-\(getpid())-\(UUID().uuidString.prefix(8))"
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes text to `name` inside the folder (creating subfolders) and returns its path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try write(Data(text.utf8), to: name)
    }

    /// Writes bytes to `name` inside the folder (creating subfolders) and returns its path.
    @discardableResult
    public func write(_ data: Data, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file.path
    }

    /// The text of `name` inside the folder.
    public func read(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }
}
