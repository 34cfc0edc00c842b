import Foundation

/// The requests behind the captures, as each folder's `index.md` records them (file → method and query).
enum CaptureIndex {
    struct Entry {
        let file: String
        let method: String
        /// The path and query as recorded, e.g. `/client_interface/json/?switcher=GetFormats`.
        let request: String
    }

    /// Every row of `<folder>/index.md` that names a file.
    static func entries(_ folder: String) -> [String: Entry] {
        guard let text = FixtureCorpus.requestTable(folder) else { return [:] }
        var entries: [String: Entry] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            }
            guard cells.count > 4, cells[1].contains("."), cells[2] == "GET" || cells[2] == "POST" || cells[2] == "PATCH"
                    || cells[2] == "PUT" || cells[2] == "DELETE" else { continue }
            var request = cells[3]
            if let range = request.range(of: "/main_server") { request = String(request[range.upperBound...]) }
            entries[cells[1]] = Entry(file: cells[1], method: cells[2], request: request)
        }
        return entries
    }

    /// A query's parameters as sorted `name=value` pairs, decoded, with PHP's `[]` taken off names
    /// (`services[]=1` and `services=1` mean the same to the server).
    static func parameters(_ query: String) -> [String] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = (parts[0].removingPercentEncoding ?? String(parts[0])).replacingOccurrences(of: "[]", with: "")
            let value = parts.count > 1 ? (parts[1].removingPercentEncoding ?? String(parts[1])) : ""
            return name + "=" + value
        }.sorted()
    }

    /// The parameters of a URL BMLTKit sent.
    static func parameters(of url: URL) -> [String] {
        parameters(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
    }
}
