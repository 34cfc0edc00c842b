import Foundation

/// Replies in the shapes real (not sample-data) root servers send, written for these tests: meetings past
/// midnight, format lists with only ids or only keys, `prompt#@-@#value` fields, coordinates 0,0 and empty,
/// German, Portuguese and Russian text, an aggregator's orphaned service bodies, and server info with its flags
/// written three ways. The search replies also run through both decoder-equivalence suites (`quirky`).
enum RealShapeReplies {
    /// A 2.x/3.x full search: every value a string, `bus_lines` and a custom field with their prompts.
    static let pastMidnight = #"""
    [{"id_bigint":"301","worldid_mixed":"G00411001","service_body_bigint":"7","weekday_tinyint":"7","venue_type":"1","start_time":"23:55:00","duration_time":"01:35:00","time_zone":"Europe/Berlin","formats":"O,C","lang_enum":"de","longitude":"13.4181","latitude":"52.4990","meeting_name":"Mitternachtsgruppe Kreuzberg","location_text":"Nachbarschaftshaus","location_info":"Hinterhof, 2. Stock","location_street":"Oranienstraße 12","location_municipality":"Berlin","location_nation":"Deutschland","bus_lines":"Bus Lines#@-@#M29, 140 bis Oranienplatz","train_lines":"ÖPNV#@-@#U1, U3, U8 Kottbusser Tor","zugang":"Zugang#@-@#Rollstuhlgerecht","published":"1","root_server_uri":"https://bmlt.example.de/main_server","format_shared_id_list":"17,4"},
     {"id_bigint":"302","service_body_bigint":"7","weekday_tinyint":"6","start_time":"23:00:00","duration_time":"01:30:00","meeting_name":"Grupo Serenidade — São João","location_municipality":"São Paulo","comments":"Reunião às sextas; café após a reunião","longitude":"0","latitude":"0","published":"1","formats":"","format_shared_id_list":""},
     {"id_bigint":"303","service_body_bigint":"8","weekday_tinyint":"1","start_time":"22:00:00","duration_time":"02:00:00","meeting_name":"Группа «Надежда»","location_text":"Дом культуры","location_municipality":"Москва","longitude":"","latitude":"","published":"1"},
     {"id_bigint":"304","service_body_bigint":"8","weekday_tinyint":"2","start_time":"19:00:00","duration_time":"01:00:00","meeting_name":"Evening Hope","longitude":"0.0","latitude":"0.0","distance_in_km":"5902.2","distance_in_miles":"3667.4","contact_name_1":"observer_only#@-@#Contact 1 Name#@-@#Ana","bus_lines":"Bus Lines#@-@#Bus Lines#@-@#Bx 7, M100","train_lines":"Train Lines#@-@#","published":"1"}]
    """#

    /// `data_field_key=id_bigint,meeting_name,format_shared_id_list,lang_enum`: ids only.
    static let idsOnly = #"[{"id_bigint":"401","meeting_name":"Ids Only","format_shared_id_list":"17,4","lang_enum":"en"},{"id_bigint":"402","meeting_name":"Ids Only, Spanish","format_shared_id_list":"17","lang_enum":"es"},{"id_bigint":"403","meeting_name":"Ids Only, same list","format_shared_id_list":"17,4","lang_enum":"en"}]"#

    /// `data_field_key=id_bigint,formats`: keys only (no `lang_enum`).
    static let keysOnly = #"[{"id_bigint":"411","formats":"O,C"},{"id_bigint":"412","formats":"C"},{"id_bigint":"413","formats":"O,C"}]"#

    /// Ids only, with `get_used_formats`: the reply's own formats name them.
    static let idsOnlyUsedFormats = #"{"meetings":[{"id_bigint":"421","format_shared_id_list":"4,17"}],"formats":[{"id":"4","key_string":"G","name_string":"Geschlossen","lang":"de"},{"id":"17","key_string":"Of","name_string":"Offen","lang":"de"}]}"#

    /// Keys only, with `get_used_formats` (formats before meetings, as 3.x writes them).
    static let keysOnlyUsedFormats = #"{"formats":[{"id":"4","key_string":"C","name_string":"Closed","lang":"en"}],"meetings":[{"id_bigint":"431","formats":"C"}]}"#

    /// Coordinates as numbers (a 4.x-style aggregator copy): 0,0 and a real one.
    static let numericCoordinates = #"[{"id_bigint":"441","latitude":0,"longitude":0},{"id_bigint":"442","latitude":-33.8688,"longitude":151.2093},{"id_bigint":"443","latitude":"0","longitude":"151.2"}]"#

    /// The search replies, for the equivalence suites.
    static let searches: [(String, String)] = [
        ("real shapes: past midnight, prompts, 0,0 and empty coordinates, three languages", pastMidnight),
        ("real shapes: format ids only", idsOnly),
        ("real shapes: format keys only", keysOnly),
        ("real shapes: ids only with get_used_formats", idsOnlyUsedFormats),
        ("real shapes: keys only with get_used_formats", keysOnlyUsedFormats),
        ("real shapes: numeric coordinates, 0,0 among them", numericCoordinates),
    ]

    /// An aggregator's service bodies: parents from other root servers are not in the list.
    static let aggregatorServiceBodies = #"""
    [{"id":"501","parent_id":"0","name":"Región Hispana","description":"","type":"RS","url":"","helpline":"","world_id":"RG500","root_server_id":"3"},
     {"id":"502","parent_id":"988","name":"Area Süd","description":"Eltern fehlen","type":"AS","url":"","helpline":"","world_id":"","root_server_id":"4"},
     {"id":"503","parent_id":"502","name":"Подгруппа","description":"","type":"GR","url":"","helpline":"","world_id":"","root_server_id":"4"},
     {"id":"504","parent_id":"7777","name":"Orphan Metro","description":"","type":"MA","url":"","helpline":"","world_id":"","root_server_id":"5"}]
    """#

    /// Server info with flags as JSON booleans (4.x).
    static let serverInfoBooleans = #"{"version":"4.2.6","versionInt":"4002006","langs":"en,de","nativeLang":"de","centerLongitude":"0","centerLatitude":"0","centerZoom":"6","defaultDuration":"01:30:00","distanceUnits":"km","semanticAdmin":true,"emailEnabled":false,"emailIncludesServiceBodies":true,"changesPerMeeting":"5","meeting_time_zones_enabled":true,"auto_geocoding_enabled":false,"default_closed_status":true,"aggregator_mode_enabled":false,"available_keys":"id_bigint,meeting_name,zugang"}"#

    /// Server info with flags as `"0"` / `"1"` (2.x).
    static let serverInfoDigits = #"[{"version":"2.16.6","versionInt":"2016006","langs":"en,pt","nativeLang":"pt","centerLongitude":"-46.63","centerLatitude":"-23.55","centerZoom":"10","defaultDuration":"1:00:00","distanceUnits":"mi","semanticAdmin":"1","emailEnabled":"0","emailIncludesServiceBodies":"1","changesPerMeeting":"3","meeting_time_zones_enabled":"0","available_keys":"id_bigint"}]"#

    /// Server info with flags as `"true"` / `"false"` strings (3.0.x).
    static let serverInfoWords = #"[{"version":"3.0.2","versionInt":"3000002","langs":"ru","nativeLang":"ru","centerLongitude":"37.62","centerLatitude":"55.75","centerZoom":"9","defaultDuration":"01:00:00","distanceUnits":"km","semanticAdmin":"true","emailEnabled":"false","emailIncludesServiceBodies":"false","changesPerMeeting":"5","meeting_time_zones_enabled":"true","auto_geocoding_enabled":"true","default_closed_status":"false","aggregator_mode_enabled":"false"}]"#

    /// A REST (`/api/v1/meetings/{id}`) meeting as 4.x returns it from a database moved from 2.x: prompts
    /// stored in the values, latitude and longitude 0, formats as ids.
    static let restMeeting = #"""
    {"id":601,"serviceBodyId":7,"formatIds":[17,4],"venueType":1,"temporarilyVirtual":false,"day":5,"startTime":"23:30","duration":"01:00","timeZone":"Europe/Berlin","latitude":0,"longitude":0,"published":true,"email":"","worldId":"","name":"Nachtcafé","location_text":"Kirche","location_info":"","location_street":"","location_city_subsection":"","location_neighborhood":"","location_municipality":"Köln","location_sub_province":"","location_province":"","location_postal_code_1":"","location_nation":"","comments":"","train_lines":"","bus_lines":"Bus Lines#@-@#Linie 136","contact_name_1":"","contact_phone_1":"","contact_email_1":"","contact_name_2":"","contact_phone_2":"","contact_email_2":"","phone_meeting_number":"","virtual_meeting_link":"","virtual_meeting_additional_info":"","customFields":{"zugang":"Zugang#@-@# Rollstuhlgerecht"}}
    """#
}
