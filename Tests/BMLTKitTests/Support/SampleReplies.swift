import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Replies in the shapes real root servers send, written for these tests (not copies of the captures).
enum SampleReplies {
    static let serverInfo2x = """
    [{"version":"2.16.4","versionInt":"2016004","langs":"en,es","nativeLang":"en","centerLongitude":"-105.0",
    "centerLatitude":"39.7","centerZoom":"9","defaultDuration":"1:30:00","regionBias":"us","charSet":"UTF-8",
    "distanceUnits":"km","semanticAdmin":"1","emailEnabled":"1","emailIncludesServiceBodies":"0","changesPerMeeting":"3",
    "meeting_states_and_provinces":"CO,WY","meeting_counties_and_sub_provinces":"","available_keys":"id_bigint,meeting_name",
    "google_api_key":"","dbVersion":"21","dbPrefix":"na","meeting_time_zones_enabled":"1","phpVersion":"8.1.2"}]
    """

    static let serverInfo3x = """
    [{"version":"3.0.9","versionInt":"3000009","langs":"en,fr","nativeLang":"fr","centerLongitude":"2.35",
    "centerLatitude":"48.85","centerZoom":"11","defaultDuration":"01:00:00","distanceUnits":"mi","semanticAdmin":"0",
    "emailEnabled":"0","emailIncludesServiceBodies":"0","changesPerMeeting":"5","available_keys":"",
    "google_api_key":null,"dbVersion":"2024_01_01_000000_x","auto_geocoding_enabled":true,
    "default_closed_status":false,"aggregator_mode_enabled":false,"commit":null}]
    """

    static let serviceBodies = """
    [{"id":"10","parent_id":"0","name":"Mountain Region","description":"","type":"RS","url":"https://example.org","helpline":"","world_id":"RG1"},
     {"id":"11","parent_id":"10","name":"Front Range Area","description":"Denver","type":"AS","url":"","helpline":"555-0100","world_id":"AR1"},
     {"id":"12","parent_id":"10","name":"Boulder Area","description":"","type":"AS","url":"boulderna.example","helpline":"","world_id":""},
     {"id":"13","parent_id":"99","name":"Lost Area","description":"parent missing","type":"AS","url":"","helpline":"","world_id":""}]
    """

    static let formats = """
    [{"key_string":"O","name_string":"Open","description_string":"Anyone may attend.","lang":"en","id":"17","world_id":"OPEN","root_server_uri":"https://x","format_type_enum":"O"},
     {"key_string":"BT","name_string":"Basic Text","description_string":"","lang":"en","id":"3","world_id":"BT","root_server_uri":"https://x","format_type_enum":null},
     {"key_string":"VM","name_string":"Virtual","description_string":"","lang":"en","id":"54","world_id":"","format_type_enum":"FC2"}]
    """

    static let languages = """
    {"languages":[{"key":"en","name":"English","default":true},{"key":"es","name":"Español"}]}
    """

    /// A router answering validation requests like a healthy server of the given generation.
    static func healthy(serverInfo: String = serverInfo2x, delay: TimeInterval = 0) -> StubServer.Handler {
        { request in
            if request.url?.path.hasSuffix("GetLangs.php") == true { return .json(languages, delay: delay) }
            switch request.query("switcher") {
            case "GetServerInfo": return .json(serverInfo, delay: delay)
            case "GetServiceBodies": return .json(serviceBodies, delay: delay)
            case "GetFormats": return .json(formats, delay: delay)
            default: return .json("[]", delay: delay)
            }
        }
    }
}
