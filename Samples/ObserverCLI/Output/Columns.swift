/// Lines whose columns line up: every column but the last is padded to its widest cell.
///
/// ```
/// Columns.lines([["#12", "Mon 19:30", "Hope"], ["#310", "Tue 07:00", "Night Owls"]], indent: "  ")
/// // "  #12   Mon 19:30  Hope", "  #310  Tue 07:00  Night Owls"
/// ```
enum Columns {
    static func lines(_ rows: [[String]], indent: String = "  ", gap: String = "  ", rightAligned: Set<Int> = []) -> [String] {
        let count = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            let cells = row.enumerated().map { index, cell -> String in
                guard index < row.count - 1 else { return cell }
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned.contains(index) ? pad + cell : cell + pad
            }
            let line = indent + cells.joined(separator: gap)
            return String(line.reversed().drop { $0 == " " }.reversed())
        }
    }
}
