import Foundation
import TestSupport
import Testing

@testable import TributaryCore

@Suite("Atomic files")
struct AtomicFileTests {
    /// The names in a folder, sorted, hidden ones included.
    private func names(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// The permission bits of a file.
    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    /// This process's umask, read without changing it.
    private func umask() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    }

    @Test("a new file is written, with its missing folders, and nothing else is left")
    func newFile() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("out/deep/river.atom")
        try AtomicFile.write(Array("<feed/>\n".utf8), to: target)
        #expect(try folder.read("out/deep/river.atom") == "<feed/>\n")
        #expect(try names(folder.path("out/deep")) == ["river.atom"])
        #expect(try mode(target.path) == 0o644 & ~umask())
    }

    @Test("an empty file can be written")
    func emptyFile() throws {
        let folder = try TemporaryDirectory()
        try AtomicFile.write([UInt8](), to: folder.url.appendingPathComponent("empty"))
        #expect(try folder.read("empty") == "")
    }

    @Test("any collection of bytes is accepted", arguments: [1, 100_000])
    func nonContiguousBytes(_ count: Int) throws {
        let folder = try TemporaryDirectory()
        let bytes = (0..<count).lazy.map { UInt8($0 % 251) }
        try AtomicFile.write(bytes, to: folder.url.appendingPathComponent("data"))
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("data")) == Data(bytes))
    }

    @Test("bytes handed over in pieces make one file, replaced only at the end")
    func pieces() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("the previous river\n", to: "river.atom")
        let target = folder.url.appendingPathComponent("river.atom")
        var seenBefore: [String] = []
        try AtomicFile.write(to: target) { emit in
            for piece in ["<feed>\n", "", "  <entry/>\n", String(repeating: "x", count: 100_000), "</feed>\n"] {
                Array(piece.utf8).withUnsafeBytes { emit($0) }
                seenBefore.append((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
            }
        }
        #expect(seenBefore.allSatisfy { $0 == "the previous river\n" })
        #expect(try folder.read("river.atom") == "<feed>\n  <entry/>\n" + String(repeating: "x", count: 100_000) + "</feed>\n")
        #expect(try names(folder.url.path) == ["river.atom"])
    }

    @Test("replacing a file keeps its permission bits", arguments: [0o600, 0o640, 0o755, 0o444])
    func replaceKeepsMode(_ permissions: Int) throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("old contents that are longer than the new ones\n", to: "river.json")
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
        try AtomicFile.write(Array("new\n".utf8), to: URL(fileURLWithPath: path))
        #expect(try folder.read("river.json") == "new\n")
        #expect(try mode(path) == permissions)
        #expect(try names(folder.url.path) == ["river.json"])
    }

    @Test("a failed write leaves the old target, and everything beside it, as it was")
    func failureLeavesOldFile() throws {
        let folder = try TemporaryDirectory()
        try folder.write("keep me\n", to: "river.atom/inside.txt")  // the target is a folder that is not empty
        try folder.write("neighbour\n", to: "other.txt")
        let target = folder.url.appendingPathComponent("river.atom")
        #expect(throws: AtomicFile.WriteError(path: target.path, reason: "cannot move into place: Is a directory")) {
            try AtomicFile.write(Array("new".utf8), to: target)
        }
        #expect(try names(folder.url.path) == ["other.txt", "river.atom"])
        #expect(try names(target.path) == ["inside.txt"])
        #expect(try folder.read("river.atom/inside.txt") == "keep me\n")
        #expect(try folder.read("other.txt") == "neighbour\n")
    }

    @Test("a folder that cannot be created is reported")
    func folderCannotBeCreated() throws {
        let folder = try TemporaryDirectory()
        try folder.write("a file, not a folder\n", to: "out")
        let target = folder.url.appendingPathComponent("out/river.atom")
        let error = try #require(throws: AtomicFile.WriteError.self) {
            try AtomicFile.write(Array("new".utf8), to: target)
        }
        #expect(error.path == target.path)
        #expect(error.reason == "cannot create folder '\(folder.url.path)/out': '\(folder.url.path)/out' is a file, not a folder")
        #expect(try folder.read("out") == "a file, not a folder\n")
        // A file further up: the message names it (Foundation's said "NSCocoaErrorDomain error 512").
        let deeper = folder.url.appendingPathComponent("out/a/b/river.atom")
        let deep = try #require(throws: AtomicFile.WriteError.self) { try AtomicFile.write(Array("new".utf8), to: deeper) }
        #expect(deep.reason == "cannot create folder '\(folder.url.path)/out/a/b': '\(folder.url.path)/out' is a file, not a folder")
        // Folders that are missing are made, several levels at once.
        try AtomicFile.write(Array("new".utf8), to: folder.url.appendingPathComponent("x/y/z/river.atom"))
        #expect(try folder.read("x/y/z/river.atom") == "new")
    }

    @Test("temporary files of dead processes are removed; those of live ones, and other files, are kept")
    func staleTemporaries() throws {
        let folder = try TemporaryDirectory()
        let marker = ".river.atom" + AtomicFile.temporaryMarker
        let dead = marker + "999999999-1"  // above any pid_max: no such process
        let deadToo = marker + "999999998-77"
        let live = marker + "1-2"  // init is always alive
        let mine = marker + "\(getpid())-3"  // this process: skipped by design
        let notAPid = marker + "abc-4"
        let otherFile = ".river.json" + AtomicFile.temporaryMarker + "999999999-5"
        for name in [dead, deadToo, live, mine, notAPid, otherFile] {
            try folder.write("partial", to: name)
        }
        try AtomicFile.write(Array("done\n".utf8), to: folder.url.appendingPathComponent("river.atom"))
        #expect(try names(folder.url.path) == [live, mine, notAPid, otherFile, "river.atom"].sorted())
        #expect(try folder.read("river.atom") == "done\n")
    }

    @Test("Foundation's file errors read as the system's reasons, not as dialog-box sentences")
    func systemMessages() {
        #expect(AtomicFile.systemMessage(CocoaError(.fileWriteNoPermission)) == "Permission denied")
        #expect(AtomicFile.systemMessage(CocoaError(.fileWriteOutOfSpace)) == "No space left on device")
        #expect(AtomicFile.systemMessage(CocoaError(.fileWriteVolumeReadOnly)) == "Read-only file system")
        let wrapped = NSError(
            domain: NSCocoaErrorDomain, code: CocoaError.Code.fileNoSuchFile.rawValue,
            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOTDIR))])
        #expect(AtomicFile.systemMessage(wrapped) == "Not a directory")
        do {
            try FileManager.default.createDirectory(atPath: "/proc/self/no/such", withIntermediateDirectories: true)
            Issue.record("a folder was made under /proc")
        } catch {
            #expect(AtomicFile.systemMessage(error) == "No such file or directory")
        }
    }
}
