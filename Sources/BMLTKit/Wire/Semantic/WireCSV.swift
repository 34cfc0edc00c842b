/// RFC 4180 CSV, as the root server writes it (`GetNAWSDump`): fields separated by commas, quoted when they hold
/// a comma, a quote (doubled) or a line break; rows end with LF or CRLF.
enum WireCSV {
    /// The rows of `text`, each a list of fields. A trailing line break does not make an empty row.
    /// An unterminated quote takes the rest of the text as one field (never crashes, never drops data).
    static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var atFieldStart = true
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar?

        func endField() { row.append(field); field = ""; atFieldStart = true }
        func endRow() { endField(); rows.append(row); row = [] }

        while let scalar = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if scalar == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { field.unicodeScalars.append("\"") } else { inQuotes = false; pending = next }
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where atFieldStart:
                inQuotes = true
                atFieldStart = false
            case ",":
                endField()
            case "\r":
                if let next = iterator.next(), next != "\n" { pending = next }
                endRow()
            case "\n":
                endRow()
            default:
                field.unicodeScalars.append(scalar)
                atFieldStart = false
            }
        }
        if !field.isEmpty || !row.isEmpty || inQuotes { endRow() }
        return rows
    }

    /// A NAWS export: the first row names the columns; each later row is keyed by column name (missing
    /// trailing fields are absent, extra fields are dropped).
    static func nawsExport(_ text: String) throws(BMLTError) -> BMLTNAWSExport {
        var all = rows(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        guard !all.isEmpty else { throw .malformedResponse(what: .nawsExport, detail: .emptyBody) }
        let columns = all.removeFirst()
        guard columns.contains(where: { $0 == "Committee" || $0 == "bmlt_id" }) else {
            throw .malformedResponse(what: .nawsExport, detail: .notNAWSHeader)
        }
        let records = all.filter { !($0.count == 1 && $0[0].isEmpty) }.map { fields in
            var record: [String: String] = [:]
            for (index, column) in columns.enumerated() where index < fields.count { record[column] = fields[index] }
            return record
        }
        return BMLTNAWSExport(columns: columns, rows: records)
    }
}
