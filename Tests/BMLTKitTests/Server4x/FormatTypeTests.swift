import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// Format types, one model for the read interface's codes and REST's names (the bug: a format created with
/// the type a reader sees, `FC1`, was refused with 422 "The selected type is invalid").
@Suite("Format types: both vocabularies, one value", .needsCorpus)
struct FormatTypeTests {
    @Test("the same format read through GetFormats (FC1…) and REST (MEETING_FORMAT…) has the same type", arguments: [FixtureCorpus.modern, FixtureCorpus.server4x])
    func bothVocabularies(_ folder: String) throws {
        let semantic = try WireFormat.decodeList(try JSONScanner.parse(FixtureCorpus.data(folder, "003-GetFormats-show_all.json")))
        let rest = try #require(try JSONScanner.parse(FixtureCorpus.data(folder, "130-formats.json")).array).compactMap(WireRESTResources.format)
        #expect(!rest.isEmpty)
        var compared = 0
        for format in rest {
            guard let read = semantic.first(where: { $0.id == format.id }) else { continue }
            #expect(read.type == format.type, "format \(format.id): \(String(describing: read.type)) vs \(String(describing: format.type))")
            compared += 1
        }
        #expect(compared == rest.count)
        #expect(Set(rest.compactMap(\.type)).isSubset(of: Set(BMLTFormatType.allCases)))
    }

    @Test("a REST write sends REST's name whichever spelling was given; an unknown type is kept and sent as it came")
    func writes() throws {
        for given in ["FC1", "MEETING_FORMAT"] as [BMLTFormatType] {
            let body = WireRESTResources.body(BMLTAdminFormat(worldID: "SPK", type: given, translations: [.init(key: "SP", name: "Speaker", language: "en")]))
            #expect(body.first { $0.0 == "type" }?.1 == .string("MEETING_FORMAT"))
        }
        let custom = BMLTFormatType(rawValue: "SERVICE_MEETING")
        #expect(!custom.isKnown && custom.rawValue == "SERVICE_MEETING" && custom.restName == "SERVICE_MEETING")
        let format = try #require(WireRESTResources.format(try JSONScanner.parse(Data(
            #"{"id":99,"worldId":null,"type":"SERVICE_MEETING","translations":[{"key":"SM","name":"Service","description":"","language":"en"}]}"#.utf8))))
        #expect(format.type == custom)
        #expect(WireRESTResources.body(format).first { $0.0 == "type" }?.1 == .string("SERVICE_MEETING"))
        let data = try JSONEncoder().encode(BMLTFormatType.location)
        #expect(try JSONDecoder().decode(BMLTFormatType.self, from: Data(#""LOCATION""#.utf8)) == .location)
        #expect(try JSONDecoder().decode(BMLTFormatType.self, from: data) == .location)
    }
}
