/// Aligns rows of cells into columns for the terminal: two spaces between columns, the columns
/// named in `rightAligned` padded on the left (numbers), no trailing spaces.
enum TextTable {
    static func render(_ rows: [[String]], rightAligned: Set<Int> = [], indent: String = "") -> String {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], cell.count)
            }
        }
        return rows.map { row in
            var line = indent
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column > 0 { line += "  " }
                line += rightAligned.contains(column) ? padding + cell : cell + padding
            }
            while line.last == " " { line.removeLast() }
            return line
        }
        .joined(separator: "\n")
    }
}
