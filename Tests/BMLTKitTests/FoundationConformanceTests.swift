import Foundation
import Testing
@testable import BMLTKit

/// Server info, formats and service bodies from both real servers decode, and the values equal the raw JSON.
@Suite("Conformance: server info, formats, service bodies (real 2.16.6 and 3.1.2 captures)",
       .needsCorpus)
struct FoundationConformanceTests {
    @Test("GetServerInfo decodes with the raw values", arguments: [
        (FixtureCorpus.legacy, "json_GetServerInfo.json"),
        (FixtureCorpus.legacy, "json_GetServerInfo_nested_path.json"),
        (FixtureCorpus.modern, "001-GetServerInfo.json"),
    ])
    func serverInfo(folder: String, file: String) throws {
        let info = try WireServerInfo.decode(try WireValue.parse(try FixtureCorpus.data(folder, file), what: .request))
        let raw = try #require((try FixtureCorpus.raw(folder, file) as? [[String: Any]])?.first)
        #expect(info.version == raw["version"] as? String)
        #expect(String(info.versionInt) == raw["versionInt"] as? String)
        #expect(info.languageCodes == (raw["langs"] as! String).split(separator: ",").map(String.init))
        #expect(info.nativeLanguage == raw["nativeLang"] as? String)
        #expect(info.distanceUnits.rawValue == raw["distanceUnits"] as? String)
        #expect(info.semanticAdminEnabled == ((raw["semanticAdmin"] as? String) == "1"))
        #expect(info.emailEnabled == ((raw["emailEnabled"] as? String) == "1"))
        #expect(info.changesPerMeeting == Int(raw["changesPerMeeting"] as! String))
        #expect(info.center?.latitude == Double(raw["centerLatitude"] as! String))
        #expect(info.center?.longitude == Double(raw["centerLongitude"] as! String))
        #expect(info.availableKeys.count == (raw["available_keys"] as! String).split(separator: ",").count)
        #expect(info.defaultDuration == 3600)
        #expect(info.aggregatorModeEnabled == ((raw["aggregator_mode_enabled"] as? Bool) ?? false))
        if folder == FixtureCorpus.modern {
            #expect(info.autoGeocodingEnabled == raw["auto_geocoding_enabled"] as? Bool)
            #expect(info.defaultClosedStatus == raw["default_closed_status"] as? Bool)
            #expect(ServerValidator.capabilities(of: info).contains(.restAdmin))
        } else {
            #expect(ServerValidator.capabilities(of: info).contains([.legacyAdmin, .contactMessages]))
            #expect(!ServerValidator.capabilities(of: info).contains(.restAdmin))
        }
    }

    @Test("GetFormats decodes every format with the raw values", arguments: [
        (FixtureCorpus.legacy, "json_GetFormats.json"),
        (FixtureCorpus.legacy, "json_GetFormats_show_all.json"),
        (FixtureCorpus.legacy, "json_GetFormats_lang_es.json"),
        (FixtureCorpus.legacy, "json_GetFormats_key_strings.json"),
        (FixtureCorpus.legacy, "json_GetFormats_format_ids.json"),
        (FixtureCorpus.modern, "002-GetFormats.json"),
        (FixtureCorpus.modern, "003-GetFormats-show_all.json"),
    ])
    func formats(folder: String, file: String) throws {
        let formats = try WireFormat.decodeList(try WireValue.parse(try FixtureCorpus.data(folder, file), what: .request))
        let raw = try #require(try FixtureCorpus.raw(folder, file) as? [[String: Any]])
        #expect(!raw.isEmpty)
        #expect(formats.count == raw.count)
        for (format, entry) in zip(formats, raw) {
            #expect(String(format.id) == entry["id"] as? String)
            #expect(format.key == entry["key_string"] as? String)
            #expect(format.name == entry["name_string"] as? String)
            #expect(format.description == entry["description_string"] as? String)
            #expect(format.language == entry["lang"] as? String)
            #expect(format.worldID == ((entry["world_id"] as? String).flatMap { $0.isEmpty ? nil : $0 }))
            #expect(format.type?.rawValue == ((entry["format_type_enum"] as? String).flatMap { $0.isEmpty ? nil : $0 }))
        }
    }

    @Test("GetServiceBodies decodes every body with ids, names and parent ids; the tree holds them all", arguments: [
        (FixtureCorpus.legacy, "json_GetServiceBodies.json"),
        (FixtureCorpus.legacy, "json_GetServiceBodies_exclude.json"),
        (FixtureCorpus.legacy, "json_GetServiceBodies_services_parents.json"),
        (FixtureCorpus.legacy, "json_GetServiceBodies_services_recursive.json"),
        (FixtureCorpus.modern, "004-GetServiceBodies.json"),
    ])
    func serviceBodies(folder: String, file: String) throws {
        let bodies = try WireServiceBody.decodeList(try WireValue.parse(try FixtureCorpus.data(folder, file), what: .request))
        let raw = try #require(try FixtureCorpus.raw(folder, file) as? [[String: Any]])
        #expect(!raw.isEmpty)
        #expect(bodies.count == raw.count)
        for (body, entry) in zip(bodies, raw) {
            #expect(String(body.id) == entry["id"] as? String)
            #expect(body.name == entry["name"] as? String)
            #expect(String(body.parentID ?? 0) == entry["parent_id"] as? String)
            #expect(body.type?.rawValue == entry["type"] as? String)
            #expect(body.worldID == ((entry["world_id"] as? String).flatMap { $0.isEmpty ? nil : $0 }))
        }
        let tree = BMLTServiceBody.tree(from: bodies)
        #expect(Set(tree.flatMap(\.flattened).map(\.id)) == Set(bodies.map(\.id)))
        #expect(tree.flatMap(\.flattened).count == bodies.count)
        let ids = Set(bodies.map(\.id))
        for root in tree {
            #expect(root.serviceBody.parentID == nil || !ids.contains(root.serviceBody.parentID!))
        }
    }

    @Test("GetLangs.php decodes with the default language marked")
    func languages() throws {
        let languages = try WireLanguages.decode(try WireValue.parse(try FixtureCorpus.data(FixtureCorpus.legacy, "json_GetLangs.json"), what: .languages))
        let raw = try #require((try FixtureCorpus.raw(FixtureCorpus.legacy, "json_GetLangs.json") as? [String: Any])?["languages"] as? [[String: Any]])
        #expect(languages.map(\.code) == raw.map { $0["key"] as! String })
        #expect(languages.map(\.name) == raw.map { $0["name"] as? String })
        #expect(languages.filter(\.isDefault).map(\.code) == ["en"])
    }

    @Test("the 2.x unknown-switcher reply (plain text under a JSON content type) is a clear error")
    func badSwitcher() throws {
        let reply = HTTPReply(data: try FixtureCorpus.data(FixtureCorpus.legacy, "json_bad_switcher.json"), statusCode: 200, headers: [:], url: nil)
        #expect(throws: BMLTError.self) { try WireReply.json(reply, what: .serverInfo) }
        let modern = HTTPReply(data: try FixtureCorpus.data(FixtureCorpus.modern, "020-json-bad-switcher.json"), statusCode: 422, headers: [:], url: nil)
        do {
            _ = try WireReply.json(modern, what: .serverInfo)
            Issue.record("a 422 must throw")
        } catch .validationFailed(let message, _) {
            #expect(message?.hasPrefix("Invalid data format or endpoint name") == true)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
