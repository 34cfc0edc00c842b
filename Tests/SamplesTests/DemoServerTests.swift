import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import BMLTDemoServer
extension DemoServerSuites {
    /// The demo server shares one store per process, so every test here runs one at a time.
    @Suite("BMLT demo server", .serialized)
    struct DemoServerTests {
        let client = DemoClient()

        init() { BMLTDemoServer.reset() }

        // MARK: Data set and server info

        @Test("server info is 3.1.2-shaped and says demo; the data set is big enough")
        func serverInfoAndDataSet() async throws {
            let info = try #require((try await client.semantic("GetServerInfo").json as? [[String: Any]])?.first)
            #expect(info["version"] as? String == "3.1.2")
            #expect(info["versionInt"] as? String == "3001002")
            #expect(info["semanticAdmin"] as? String == "0")
            #expect(info["emailEnabled"] as? String == "0")
            #expect(info["aggregator_mode_enabled"] as? Bool == false)
            #expect((info["commit"] as? String ?? "").contains("demo"))
            let all = try await client.search()
            #expect(all.count >= 300)
            let everything = try await client.search("advanced_published=0")
            #expect(everything.count > all.count)
            #expect(Set(all.map { $0["venue_type"] ?? "" }) == ["1", "2", "3"])
            #expect(Set(all.map { $0["duration_time"] ?? "" }).isSuperset(of: ["01:00:00", "01:30:00", "02:00:00"]))
            #expect(Set(all.map { $0.int("weekday_tinyint") }) == Set(1...7))
            for row in all.prefix(50) {
                #expect(row["start_time"]?.count == 8)
                #expect(row["published"] == "1")
                #expect(row["contact_email_1"] == "")
            }
            let bodies = try await client.semantic("GetServiceBodies").rows
            #expect(bodies.count >= 10)
            #expect(bodies.filter { $0["parent_id"] == "0" }.count == 1)
            let formats = try await client.semantic("GetFormats", "show_all=1&lang_enum[]=en&lang_enum[]=es").rows
            let en = formats.filter { $0["lang"] == "en" }, es = formats.filter { $0["lang"] == "es" }
            #expect(en.count >= 12)
            #expect(Set(en.map { $0["id"]! }) == Set(es.map { $0["id"]! }))
            #expect(Set(en.map { $0["format_type_enum"]! }).isSuperset(of: ["FC1", "FC2", "FC3", "O", "LANG"]))
            // Virtual meetings carry VM (17) and a link or phone; hybrid ones HY (16).
            for row in all where row["venue_type"] == "2" {
                #expect(row.formatIDs.contains(17))
                #expect(!(row["virtual_meeting_link"] ?? "").isEmpty || !(row["phone_meeting_number"] ?? "").isEmpty)
            }
            #expect(all.filter { $0["venue_type"] == "3" }.allSatisfy { $0.formatIDs.contains(16) })
        }

        @Test("the data set is deterministic across resets")
        func deterministic() async throws {
            let first = try await client.semantic("GetSearchResults", "advanced_published=0").data
            BMLTDemoServer.reset()
            // Other suites (the CLI's) may use the demo server at the same time: look only at searches.
            let searches = { BMLTDemoServer.requestLog.map { $0.url?.query ?? "" }.filter { $0.contains("GetSearchResults") } }
            #expect(searches().isEmpty)
            let second = try await client.semantic("GetSearchResults", "advanced_published=0").data
            #expect(first == second)
            #expect(searches() == ["switcher=GetSearchResults&advanced_published=0"])
        }

        // MARK: GetSearchResults filters

        @Test("meeting_ids, weekdays (include, exclude, comma list), venue_types")
        func idsWeekdaysVenues() async throws {
            let all = try await client.search()
            let picked = all.map(\.id).sorted().prefix(3)
            let byID = try await client.search(picked.map { "meeting_ids[]=\($0)" }.joined(separator: "&"))
            #expect(ids(byID) == Set(picked))
            expectFiltered(try await client.search("weekdays[]=2&weekdays[]=4"), all: all, where: { [2, 4].contains($0.int("weekday_tinyint")) })
            expectFiltered(try await client.search("weekdays=1,7"), all: all, where: { [1, 7].contains($0.int("weekday_tinyint")) })
            expectFiltered(try await client.search("weekdays[]=-1"), all: all, where: { $0.int("weekday_tinyint") != 1 })
            expectFiltered(try await client.search("venue_types[]=2"), all: all, where: { $0["venue_type"] == "2" })
            expectFiltered(try await client.search("venue_types[]=-1"), all: all, where: { $0["venue_type"] != "1" })
        }

        @Test("services with recursive and negative excludes")
        func services() async throws {
            let all = try await client.search()
            expectFiltered(try await client.search("services[]=1005"), all: all, where: { $0["service_body_bigint"] == "1005" })
            let region3 = Set(["1005", "1006", "1007", "1008"])
            #expect(try await client.search("services[]=3").isEmpty)
            expectFiltered(try await client.search("services[]=3&recursive=1"), all: all, where: { region3.contains($0["service_body_bigint"]!) })
            expectFiltered(try await client.search("services=3,-1006&recursive=1"), all: all,
                           where: { region3.contains($0["service_body_bigint"]!) && $0["service_body_bigint"] != "1006" })
            expectFiltered(try await client.search("services[]=-2&recursive=1"), all: all,
                           where: { !["1001", "1002", "1003", "1004"].contains($0["service_body_bigint"]!) })
        }

        @Test("formats: AND (default), OR, negative excludes")
        func formats() async throws {
            let all = try await client.search()
            expectFiltered(try await client.search("formats[]=3&formats[]=2"), all: all, where: { $0.formatIDs.isSuperset(of: [2, 3]) })
            expectFiltered(try await client.search("formats[]=3&formats[]=2&formats_comparison_operator=OR"), all: all,
                           where: { !$0.formatIDs.isDisjoint(with: [2, 3]) })
            expectFiltered(try await client.search("formats=8,-11"), all: all, where: { $0.formatIDs.contains(8) && !$0.formatIDs.contains(11) })
            expectFiltered(try await client.search("formats[]=-17"), all: all, where: { !$0.formatIDs.contains(17) })
        }

        @Test("SearchString, meeting_key and percent-decoding")
        func textSearch() async throws {
            let all = try await client.search()
            let fields = ["meeting_name", "location_text", "location_info", "location_street", "location_municipality", "comments",
                          "location_neighborhood", "location_sub_province", "location_province", "location_postal_code_1", "location_nation"]
            expectFiltered(try await client.search("SearchString=HOPE"), all: all,
                           where: { row in fields.contains { (row[$0] ?? "").lowercased().contains("hope") } })
            #expect(try await client.search("SearchString=ho").count == all.count, "fewer than 3 characters is ignored")
            expectFiltered(try await client.search("meeting_key=location_municipality&meeting_key_value=Harbor%20Point"), all: all,
                           where: { $0["location_municipality"] == "Harbor Point" })
            expectFiltered(try await client.search("meeting_key=weekday_tinyint&meeting_key_value=3"), all: all,
                           where: { $0["weekday_tinyint"] == "3" })
            #expect(try await client.search("meeting_key=meeting_name").isEmpty)
            let phone = try #require(all.first { !($0["phone_meeting_number"] ?? "").isEmpty }?["phone_meeting_number"])
            #expect(phone.hasPrefix("+"))
            let encoded = phone.replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: " ", with: "+")
            let found = try await client.search("meeting_key=phone_meeting_number&meeting_key_value=\(encoded)")
            #expect(!found.isEmpty && found.allSatisfy { $0["phone_meeting_number"] == phone })
            let plus = phone.replacingOccurrences(of: " ", with: "%20")
            #expect(try await client.search("meeting_key=phone_meeting_number&meeting_key_value=\(plus)").isEmpty,
                    "a raw + decodes to a space")
        }

        @Test("start, end and duration bounds")
        func times() async throws {
            let all = try await client.search()
            expectFiltered(try await client.search("StartsAfterH=19&StartsAfterM=0"), all: all, where: { $0.minutes("start_time") > 19 * 60 })
            expectFiltered(try await client.search("StartsBeforeH=12&StartsBeforeM=15"), all: all, where: { $0.minutes("start_time") < 12 * 60 + 15 })
            expectFiltered(try await client.search("EndsBeforeH=20"), all: all,
                           where: { $0.minutes("start_time") + $0.minutes("duration_time") <= 20 * 60 })
            expectFiltered(try await client.search("MinDurationH=1&MinDurationM=30"), all: all, where: { $0.minutes("duration_time") >= 90 })
            expectFiltered(try await client.search("MaxDurationH=1"), all: all, where: { $0.minutes("duration_time") <= 60 })
        }

        @Test("geographic search: radius in miles and km, nearest N, distance sort")
        func geo() async throws {
            let all = try await client.search()
            let lat = 44.978, long = -93.265
            func km(_ row: Row) -> Double {
                let r = Double.pi / 180, la = Double(row["latitude"]!)!, lo = Double(row["longitude"]!)!
                let a = pow(sin((la - lat) * r / 2), 2) + cos(lat * r) * cos(la * r) * pow(sin((lo - long) * r / 2), 2)
                return 6_371 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
            }
            let centre = "lat_val=\(lat)&long_val=\(long)"
            expectFiltered(try await client.search("\(centre)&geo_width_km=8"), all: all, where: { km($0) <= 8 })
            expectFiltered(try await client.search("\(centre)&geo_width=5"), all: all, where: { km($0) <= 5 * 1.609344 })
            let nearest = try await client.search("\(centre)&geo_width=-10&sort_results_by_distance=1")
            let tenth = all.map(km).sorted()[9]
            #expect(nearest.count >= 10 && nearest.count < 20)
            #expect(ids(nearest) == Set(all.filter { km($0) <= tenth + 1e-9 }.map(\.id)))
            let distances = nearest.map { Double($0["distance_in_km"]!)! }
            #expect(distances == distances.sorted())
            for row in nearest {
                #expect(abs(Double(row["distance_in_km"]!)! - km(row)) < 0.01)
                #expect(abs(Double(row["distance_in_miles"]!)! * 1.609344 - km(row)) < 0.01)
            }
            #expect(try await client.search("lat_val=\(lat)&geo_width=5").isEmpty, "latitude without longitude")
            #expect(all.allSatisfy { $0["distance_in_km"] == "" })
        }

        @Test("advanced_published 1 / 0 / -1")
        func published() async throws {
            let published = try await client.search()
            let everything = try await client.search("advanced_published=0")
            let hidden = try await client.search("advanced_published=-1")
            #expect(!hidden.isEmpty)
            #expect(hidden.allSatisfy { $0["published"] == "0" })
            #expect(ids(published).union(ids(hidden)) == ids(everything))
            #expect(ids(published).isDisjoint(with: ids(hidden)))
        }

        @Test("data_field_key, sort_keys, paging")
        func shapeSortPaging() async throws {
            let all = try await client.search()
            let slim = try await client.search("data_field_key=meeting_name,id_bigint,nonsense")
            #expect(slim.count == all.count)
            #expect(slim.allSatisfy { Set($0.keys) == ["id_bigint", "meeting_name"] })
            let sorted = try await client.search("sort_keys=location_municipality,id_bigint")
            let expected = all.sorted { ($0["location_municipality"]!.lowercased(), $0.id) < ($1["location_municipality"]!.lowercased(), $1.id) }
            #expect(sorted.map(\.id) == expected.map(\.id))
            // Default order: weekday, start time, duration.
            #expect(all.map { [$0.int("weekday_tinyint"), $0.minutes("start_time")] }.elementsEqual(
                all.map { [$0.int("weekday_tinyint"), $0.minutes("start_time")] }.sorted { $0.lexicographicallyPrecedes($1) }))
            let byID = try await client.search("sort_keys=id_bigint")
            let page2 = try await client.search("sort_keys=id_bigint&page_size=7&page_num=2")
            #expect(page2.map(\.id) == Array(byID.map(\.id)[7..<14]))
            let last = (all.count - 1) / 7 + 1
            #expect(try await client.search("sort_keys=id_bigint&page_size=7&page_num=\(last)").count == all.count - (last - 1) * 7)
            #expect(try await client.search("page_size=7&page_num=\(last + 1)").isEmpty)
        }

        @Test("get_used_formats, get_formats_only and lang_enum=es")
        func usedFormatsAndLanguage() async throws {
            let reply = try await client.semantic("GetSearchResults", "services[]=1005&get_used_formats=1")
            let meetings = (reply.object["meetings"] as? [[String: String]]) ?? []
            let formats = (reply.object["formats"] as? [[String: String]]) ?? []
            #expect(!meetings.isEmpty)
            #expect(Set(formats.map { Int($0["id"]!)! }) == Set(meetings.flatMap { Array($0.formatIDs) }))
            let only = try await client.semantic("GetSearchResults", "services[]=1005&get_formats_only=1")
            #expect(only.object.keys.sorted() == ["formats"])
            #expect((only.object["formats"] as? [[String: String]])?.count == formats.count)
            let empty = try await client.semantic("GetSearchResults", "meeting_key=meeting_name&meeting_key_value=NoSuchMeeting&get_used_formats=1")
            #expect(empty.text == #"{"meetings":[],"formats":[]}"#)

            let es = try await client.semantic("GetSearchResults", "formats[]=8&lang_enum=es&get_used_formats=1&page_size=5")
            let esFormats = try #require(es.object["formats"] as? [[String: String]])
            #expect(esFormats.allSatisfy { $0["lang"] == "es" })
            #expect(esFormats.contains { $0["key_string"] == "A" && $0["name_string"] == "Abierta" })
            let esMeetings = try #require(es.object["meetings"] as? [[String: String]])
            #expect(esMeetings.allSatisfy { $0["formats"]!.split(separator: ",").contains("A") })
        }

        // MARK: Other switchers

        @Test("GetFormats: used only by default, show_all, key_strings, format_ids, es")
        func getFormats() async throws {
            let used = try await client.semantic("GetFormats").rows
            let all = try await client.semantic("GetFormats", "show_all=1").rows
            #expect(used.count < all.count)
            #expect(!used.contains { $0["key_string"] == "GP" })
            #expect(try await client.semantic("GetFormats", "key_strings[]=O&key_strings[]=C").rows.map { $0["key_string"]! }.sorted() == ["C", "O"])
            #expect(try await client.semantic("GetFormats", "format_ids=1,2").rows.map { $0["id"]! } == ["1", "2"])
            let es = try await client.semantic("GetFormats", "lang_enum=es").rows
            #expect(es.count == used.count && es.allSatisfy { $0["lang"] == "es" })
        }

        @Test("GetServiceBodies: services, recursive, parents, excludes")
        func getServiceBodies() async throws {
            func bodies(_ q: String) async throws -> Set<String> { Set(try await client.semantic("GetServiceBodies", q).rows.map { $0["id"]! }) }
            #expect(try await bodies("services[]=1005") == ["1005"])
            #expect(try await bodies("services[]=3&recursive=1") == ["3", "1005", "1006", "1007", "1008"])
            #expect(try await bodies("services[]=1005&parents=1") == ["1", "3", "1005"])
            let all = try await bodies("")
            #expect(try await bodies("services=-2&recursive=1") == all.subtracting(["2", "1001", "1002", "1003", "1004"]))
        }

        @Test("GetFieldKeys and GetFieldValues")
        func fieldKeysAndValues() async throws {
            let keys = try await client.semantic("GetFieldKeys").rows.map { $0["key"]! }
            #expect(keys.prefix(2) == ["id_bigint", "worldid_mixed"])
            #expect(keys.contains("meeting_name") && !keys.contains("contact_email_1"))
            let all = try await client.search()
            let weekdays = try await client.semantic("GetFieldValues", "meeting_key=weekday_tinyint").rows
            #expect(weekdays.count == 7)
            for group in weekdays {
                let groupIDs = Set(group["ids"]!.split(separator: ",").compactMap { Int($0) })
                #expect(groupIDs == Set(all.filter { $0["weekday_tinyint"] == group["weekday_tinyint"] }.map(\.id)))
            }
            let formats = try await client.semantic("GetFieldValues", "meeting_key=formats").rows
            let first = try #require(formats.first)
            let firstID = try #require(first["ids"]!.split(separator: ",").first.flatMap { Int($0) })
            #expect(first["formats"] == all.first { $0.id == firstID }?["format_shared_id_list"])
            let comments = try await client.semantic("GetFieldValues", "meeting_key=comments").rows
            #expect(comments.contains { $0["comments"] == "NULL" })
            #expect(try await client.semantic("GetFieldValues", "meeting_key=nope").status == 400)
        }

        @Test("GetCoverageArea is the bounding box")
        func coverage() async throws {
            let all = try await client.search("advanced_published=0")
            let box = try #require(try await client.semantic("GetCoverageArea").rows.first)
            #expect(Double(box["nw_corner_latitude"]!) == all.map { Double($0["latitude"]!)! }.max())
            #expect(Double(box["se_corner_longitude"]!) == all.map { Double($0["longitude"]!)! }.max())
        }

        @Test("GetChanges by date range, meeting and service body")
        func changes() async throws {
            let everything = try await client.semantic("GetChanges", "start_date=2020-01-01").json as? [[String: Any]] ?? []
            let types = Set(everything.compactMap { $0["change_type"] as? String })
            #expect(types == ["comdef_change_type_new", "comdef_change_type_change", "comdef_change_type_delete", "comdef_change_type_rollback"])
            let dates = everything.compactMap { Int($0["date_int"] as? String ?? "") }
            #expect(dates == dates.sorted(by: >))
            let edit = try #require(everything.first { $0["change_type"] as? String == "comdef_change_type_change" })
            let data = try #require(edit["json_data"] as? [String: Any])
            #expect(data["before"] is [String: Any] && data["after"] is [String: Any])
            #expect((data["after"] as? [String: Any])?["formats"] is [String])
            let deleted = everything.filter { $0["change_type"] as? String == "comdef_change_type_delete" }
            #expect(deleted.count == 2 && deleted.allSatisfy { $0["meeting_exists"] as? String == "0" })

            let march = try await client.semantic("GetChanges", "start_date=2025-03-01&end_date=2025-03-31").json as? [[String: Any]] ?? []
            let lower = 1_740_787_200, upper = 1_743_465_600  // 2025-03-01 and 2025-04-01 00:00 UTC
            let expected = everything.filter { let d = Int($0["date_int"] as! String)!; return d >= lower && d < upper }
            #expect(!expected.isEmpty && expected.count < everything.count)
            #expect(march.count == expected.count)
            let meetingID = try #require(edit["meeting_id"] as? String)
            let forMeeting = try await client.semantic("GetChanges", "meeting_id=\(meetingID)").json as? [[String: Any]] ?? []
            #expect(!forMeeting.isEmpty && forMeeting.allSatisfy { $0["meeting_id"] as? String == meetingID })
            let forBody = try await client.semantic("GetChanges", "service_body_id=1005").json as? [[String: Any]] ?? []
            #expect(forBody.count == everything.filter { $0["service_body_id"] as? String == "1005" }.count)
            #expect(try await client.semantic("GetChanges", "start_date=March").status == 422)
        }

        @Test("NAWS dump CSV, bad switcher 422, GetLangs.php 404, jsonp")
        func otherEndpoints() async throws {
            let csv = try await client.send("GET", "/client_interface/csv/?switcher=GetNAWSDump&sb_id=1005")
            #expect(csv.status == 200)
            #expect(csv.headers.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/csv") == true)
            let lines = csv.text.split(separator: "\n")
            #expect(lines.first?.hasPrefix(#""Committee","CommitteeName","AddDate","AreaRegion""#) == true)
            #expect(lines.first?.hasSuffix(#""TimeZone","bmlt_id","unpublished""#) == true)
            let inArea = try await client.search("services[]=1005&advanced_published=0")
            #expect(lines.count - 1 >= inArea.count)
            #expect(try await client.send("GET", "/client_interface/csv/?switcher=GetNAWSDump").status == 422)

            let bad = try await client.semantic("NoSuchSwitcher")
            #expect(bad.status == 422)
            #expect((bad.object["message"] as? String)?.hasPrefix("Invalid data format or endpoint name.") == true)
            #expect(try await client.send("GET", "/client_interface/xml/?switcher=GetServerInfo").status == 422)
            let langs = try await client.send("GET", "/client_interface/json/GetLangs.php")
            #expect(langs.status == 404)
            #expect(langs.headers.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/html") == true)
            let jsonp = try await client.send("GET", "/client_interface/jsonp/?switcher=GetServerInfo&callback=cb")
            #expect(jsonp.text.hasPrefix("cb([{") && jsonp.text.hasSuffix("}])"))
        }
    }
}
