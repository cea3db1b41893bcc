import TributaryYAML

/// Parses `text` and returns the error it throws, or nil if it parses.
func parseError(_ text: String, file: String = "feeds.yaml") -> YAMLError? {
    do {
        _ = try YAML.parse(text, file: file)
        return nil
    } catch {
        return error
    }
}

/// Parses `bytes` and returns the error it throws, or nil if it parses.
func parseError(bytes: [UInt8], file: String = "feeds.yaml") -> YAMLError? {
    do {
        _ = try YAML.parse(bytes: bytes, file: file)
        return nil
    } catch {
        return error
    }
}

/// Shorthand for a 1-based mark.
func at(_ line: Int, _ column: Int) -> Mark {
    Mark(line: line, column: column)
}
