import Foundation

extension BMLTConnection {
    /// Asks for the NAWS export of a service body (`csv/?switcher=GetNAWSDump`): posts
    /// `.bmltNAWSExportResults` with the CSV parsed (quoted fields, embedded commas and line breaks). Deleted
    /// meetings that had a world id appear with `Delete` = "D".
    @discardableResult
    public func fetchNAWSExport(serviceBodyID: Int) -> BMLTRequest {
        start(Self.nawsExport(serviceBodyID: serviceBodyID))
    }

    /// The `async` form of `fetchNAWSExport(serviceBodyID:)`.
    public func nawsExport(serviceBodyID: Int) async throws -> BMLTNAWSExport {
        try await run(Self.nawsExport(serviceBodyID: serviceBodyID))
    }

    static func nawsExport(serviceBodyID: Int) -> Operation<BMLTNAWSExport> {
        Operation.read(
            .nawsExport, errorIn: .server,
            work: { context throws(BMLTError) in
                let reply = try await context.get("client_interface/csv/", query: [
                    URLQueryItem(name: "switcher", value: "GetNAWSDump"),
                    URLQueryItem(name: "sb_id", value: String(serviceBodyID)),
                ])
                try WireReply.checkStatus(reply)
                guard let text = String(data: reply.data, encoding: .utf8) else {
                    throw .malformedResponse(what: .nawsExport, detail: .notUTF8)
                }
                return try WireCSV.nawsExport(text)
            },
            succeed: { connection, export, request in
                return [.nawsExportResults(export, request: request)]
            }
        )
    }
}
