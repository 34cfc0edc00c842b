import Foundation

/// `GetServerInfo` → `BMLTServerInfo`. The reply is an array of one object (2.x, 3.x) or a bare object; every
/// value may be a string, number, boolean or null.
enum WireServerInfo {
    static func decode(_ value: WireValue) throws(BMLTError) -> BMLTServerInfo {
        let members: [String: WireValue]
        if let object = value.object {
            members = object
        } else if let first = value.array?.first?.object {
            members = first
        } else if value.array?.isEmpty == true {
            throw .notARootServer(reason: .emptyServerInfo)
        } else {
            throw .notARootServer(reason: .serverInfoNotAnObject)
        }
        guard let version = members["version"]?.string else {
            throw .notARootServer(reason: .noVersion)
        }
        guard let versionInt = members["versionInt"]?.int ?? Self.versionInt(from: version) else {
            throw .notARootServer(reason: .versionNotANumber(version))
        }
        var center: BMLTCoordinate?
        if let latitude = members["centerLatitude"]?.double, let longitude = members["centerLongitude"]?.double,
           latitude != 0 || longitude != 0 {      // 0,0: no centre set, as for meetings
            center = BMLTCoordinate(latitude: latitude, longitude: longitude)
        }
        return BMLTServerInfo(
            version: version,
            versionInt: versionInt,
            languageCodes: members["langs"]?.list ?? [],
            nativeLanguage: members["nativeLang"]?.string,
            center: center,
            centerZoom: members["centerZoom"]?.int,
            defaultDuration: members["defaultDuration"]?.string.flatMap(WireTime.duration),
            regionBias: members["regionBias"]?.string,
            charSet: members["charSet"]?.string,
            distanceUnits: members["distanceUnits"]?.string.flatMap { BMLTDistanceUnit(rawValue: $0.lowercased()) } ?? .miles,
            semanticAdminEnabled: members["semanticAdmin"]?.bool ?? false,
            emailEnabled: members["emailEnabled"]?.bool ?? false,
            emailIncludesServiceBodies: members["emailIncludesServiceBodies"]?.bool ?? false,
            changesPerMeeting: members["changesPerMeeting"]?.int,
            statesAndProvinces: members["meeting_states_and_provinces"]?.list ?? [],
            countiesAndSubProvinces: members["meeting_counties_and_sub_provinces"]?.list ?? [],
            availableKeys: members["available_keys"]?.list ?? [],
            databaseVersion: members["dbVersion"]?.string,
            meetingTimeZonesEnabled: members["meeting_time_zones_enabled"]?.bool ?? false,
            autoGeocodingEnabled: members["auto_geocoding_enabled"]?.bool,
            defaultClosedStatus: members["default_closed_status"]?.bool,
            aggregatorModeEnabled: members["aggregator_mode_enabled"]?.bool ?? false,
            commit: members["commit"]?.string,
            phpVersion: members["phpVersion"]?.string
        )
    }

    /// "3.1.2" → 3001002; a pre-release suffix ("3.0.0-beta") is ignored. `nil` for text that is not a version.
    static func versionInt(from version: String) -> Int? {
        let core = version.split(whereSeparator: { $0 == "-" || $0 == "+" || $0 == " " }).first.map(String.init) ?? version
        let parts = core.split(separator: ".").map { Int($0) }
        guard let major = parts.first ?? nil, parts.allSatisfy({ $0 != nil }), parts.count <= 3 else { return nil }
        let minor = parts.count > 1 ? parts[1]! : 0
        let patch = parts.count > 2 ? parts[2]! : 0
        guard (0..<1000).contains(minor), (0..<1000).contains(patch), (0..<10_000).contains(major) else { return nil }
        return major * 1_000_000 + minor * 1000 + patch
    }
}

/// The `GetLangs.php` reply of 2.x: `{"languages":[{"key":"en","name":"English","default":true},…]}`.
enum WireLanguages {
    static func decode(_ value: WireValue) throws(BMLTError) -> [BMLTLanguage] {
        guard let entries = value["languages"]?.array else {
            throw .malformedResponse(what: .languages, detail: .unexpectedShape(expected: "{languages: […]}"))
        }
        return entries.compactMap { entry in
            guard let code = entry["key"]?.string else { return nil }
            return BMLTLanguage(code: code, name: entry["name"]?.string, isDefault: entry["default"]?.bool ?? false)
        }
    }

    /// The languages named in server info, the native one marked as default.
    static func fromServerInfo(_ info: BMLTServerInfo) -> [BMLTLanguage] {
        info.languageCodes.map { BMLTLanguage(code: $0, isDefault: $0 == info.nativeLanguage) }
    }
}
