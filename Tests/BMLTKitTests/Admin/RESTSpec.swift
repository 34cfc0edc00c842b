import Foundation
import Testing
@testable import BMLTKit

/// The REST admin API's request schemas from the root server's own OpenAPI file (`../shared/spec/api-docs.json`,
/// read in place): a request body is checked for required members, unknown members and member types.
enum RESTSpec {
    static let url = FixtureCorpus.root.deletingLastPathComponent().appendingPathComponent("spec/api-docs.json")

    nonisolated(unsafe) static let document: [String: Any] = {   // read-only after first use
        guard let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }()

    /// The request-body schema of `method path` (path as in the spec, e.g. `/api/v1/meetings/{meetingId}`),
    /// flattened: required names and property types.
    static func requestSchema(_ method: String, _ path: String) -> (required: Set<String>, types: [String: String])? {
        guard let paths = document["paths"] as? [String: Any], let operations = paths[path] as? [String: Any],
              let operation = operations[method.lowercased()] as? [String: Any],
              let body = operation["requestBody"] as? [String: Any],
              let content = (body["content"] as? [String: Any])?["application/json"] as? [String: Any],
              let schema = content["schema"] as? [String: Any] else { return nil }
        return flatten(schema)
    }

    private static func flatten(_ schema: [String: Any]) -> (required: Set<String>, types: [String: String]) {
        if let ref = schema["$ref"] as? String {
            let name = String(ref.split(separator: "/").last ?? "")
            let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
            return flatten((schemas?[name] as? [String: Any]) ?? [:])
        }
        var required = Set((schema["required"] as? [String]) ?? [])
        var types: [String: String] = [:]
        for (name, property) in (schema["properties"] as? [String: Any]) ?? [:] {
            types[name] = ((property as? [String: Any])?["type"] as? String) ?? "any"
        }
        for part in (schema["allOf"] as? [[String: Any]]) ?? [] {
            let inner = flatten(part)
            required.formUnion(inner.required)
            types.merge(inner.types) { first, _ in first }
        }
        return (required, types)
    }

    /// Checks a JSON body against the schema of `method path`; `null` is accepted for optional-looking members
    /// (the server's validation rules make them nullable, as the 3.1.2 captures show).
    static func expectConforms(_ body: Data?, _ method: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let schema = requestSchema(method, path) else {
            Issue.record("no request schema for \(method) \(path)", sourceLocation: sourceLocation)
            return
        }
        guard let body, let object = (try? JSONScanner.parse(body))?.object else {
            Issue.record("\(method) \(path): the body is not a JSON object", sourceLocation: sourceLocation)
            return
        }
        let missing = schema.required.subtracting(object.keys)
        #expect(missing.isEmpty, "\(method) \(path): missing required \(missing.sorted())", sourceLocation: sourceLocation)
        for (name, value) in object {
            guard let type = schema.types[name] else {
                Issue.record("\(method) \(path): member \(name) is not in the schema", sourceLocation: sourceLocation)
                continue
            }
            if value == .null {
                #expect(!schema.required.contains(name), "\(method) \(path): required \(name) is null", sourceLocation: sourceLocation)
                continue
            }
            #expect(matches(value, type), "\(method) \(path): \(name) should be \(type), is \(value)", sourceLocation: sourceLocation)
        }
    }

    static func matches(_ value: WireValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("string", .string), ("integer", .integer), ("number", .integer), ("number", .double), ("boolean", .bool),
             ("array", .array), ("object", .object), ("any", _): return true
        default: return false
        }
    }
}
