import Foundation

/// What to look for in a meeting search: one typed field for every `GetSearchResults` parameter the root server
/// documents, plus `rawParameters` for anything newer.
///
/// Criteria are a value: changing a copy never changes a search already started, and one search never changes
/// another's criteria. Every field left at its default sends nothing, so `BMLTSearchCriteria()` asks for every
/// published meeting.
/// ```swift
/// var criteria = BMLTSearchCriteria()
/// criteria.weekdays = [.monday, .wednesday]
/// criteria.serviceBodyIDs = [1002]; criteria.includeChildServiceBodies = true
/// criteria.formats = .all(of: [17, 41]).excluding([4])
/// criteria.location = .init(latitude: 40.7, longitude: -73.9, radius: .miles(5))
/// criteria.startsAfter = .init(hour: 18)
/// let results = try await connection.meetings(matching: criteria)
/// ```
public struct BMLTSearchCriteria: Sendable, Hashable, Codable {
    /// Only these meetings (`meeting_ids[]`), among those every other criterion finds. Empty: no restriction.
    ///
    /// The same meetings on every generation: root server 2.x answers `meeting_ids[]` alone, ignoring every other
    /// criterion and showing unpublished meetings to anyone, so BMLTKit completes its answer where the meeting decides
    /// (weekdays, venue types, service bodies, formats, published status) and otherwise asks without the ids and keeps
    /// those named. More ids than one request line holds (about 330) go in several requests, merged in the server's order.
    /// ```swift
    /// var criteria = BMLTSearchCriteria()
    /// criteria.meetingIDs = [6, 33, 2339]
    /// criteria.weekdays = [.sunday]          // 2339 alone on 2.16.6 as on 3.1.2 and 4.x
    /// let results = try await connection.meetings(matching: criteria)
    /// ```
    public var meetingIDs: [Int] = []
    /// Only meetings on these days (`weekdays[]`). Empty: every day.
    public var weekdays: Set<BMLTWeekday> = []
    /// Never meetings on these days (`weekdays[]=-n`).
    public var excludedWeekdays: Set<BMLTWeekday> = []
    /// Only meetings of these venue types (`venue_types[]`). Empty: every type.
    public var venueTypes: Set<BMLTVenueType> = []
    /// Never meetings of these venue types (`venue_types[]=-n`).
    public var excludedVenueTypes: Set<BMLTVenueType> = []
    /// Formats the meetings must (or must not) have, by format id.
    public var formats: FormatFilter = .none
    /// Only meetings of these service bodies (`services[]`). Empty: every service body.
    public var serviceBodyIDs: [Int] = []
    /// Never meetings of these service bodies (`services[]=-n`).
    public var excludedServiceBodyIDs: [Int] = []
    /// Whether `serviceBodyIDs` and `excludedServiceBodyIDs` also cover every descendant (`recursive=1`).
    public var includeChildServiceBodies = false
    /// Text to look for in the meetings' text fields (`SearchString`; the server wants 3 characters or a number).
    public var text: String?
    /// How `text` is matched: as words, all words, exactly, or as an address to geocode.
    public var textMatch: TextMatch = .anyWords
    /// Meetings that start strictly after this time (`StartsAfterH`/`StartsAfterM`).
    public var startsAfter: BMLTTimeOfDay?
    /// Meetings that start before this time (`StartsBeforeH`/`StartsBeforeM`).
    public var startsBefore: BMLTTimeOfDay?
    /// Meetings that end by this time (`EndsBeforeH`/`EndsBeforeM`).
    public var endsBefore: BMLTTimeOfDay?
    /// Meetings at least this long, in seconds (`MinDurationH`/`MinDurationM`; whole minutes are sent).
    public var minimumDuration: TimeInterval?
    /// Meetings at most this long, in seconds (`MaxDurationH`/`MaxDurationM`).
    public var maximumDuration: TimeInterval?
    /// A centre and a radius (`lat_val`, `long_val`, `geo_width` or `geo_width_km`).
    public var location: Location?
    /// Whether results come nearest first (`sort_results_by_distance=1`; geographic searches).
    public var sortByDistance = false
    /// An exact match on one field (`meeting_key` + `meeting_key_value`).
    public var fieldMatch: FieldMatch?
    /// Only these fields of each meeting (`data_field_key`). The keys BMLTKit needs to identify a meeting
    /// (`id_bigint`, `service_body_bigint`) are always added. `nil`: every field.
    public var dataFieldKeys: [String]?
    /// Sort by these field keys, in order (`sort_keys`).
    public var sortKeys: [String] = []
    /// Sort newest-to-oldest along `sortKeys` (`sort_dir=desc`; 2.x servers only).
    public var sortDescending = false
    /// A sort the server names (`sort_key`: weekday, time, town, state, weekday_state).
    public var sortAlias: SortAlias?
    /// One page of the results (`page_size`, `page_num`).
    public var page: Page?
    /// Published, unpublished or both (`advanced_published`; every generation reads it for an anonymous reader too:
    /// 2.16.6 `common_search.inc.php`, 3.x/4.x `SwitcherController::getSearchResults`). `nil`: the server's default
    /// (published only), for a search by id on 2.x too.
    /// ```swift
    /// var criteria = BMLTSearchCriteria()
    /// criteria.publishedStatus = .both
    /// ```
    public var publishedStatus: PublishedStatus?
    /// The language of the format keys in the results (`lang_enum`), e.g. "es". `nil`: the server's language.
    public var language: String?
    /// Only meetings from these root servers of an aggregator (`root_server_ids[]`; the ids are
    /// `BMLTRootServer.id`, see `connection.server.rootServers`). Ignored by a plain root server. Counts as a
    /// narrowing filter on an aggregator.
    public var rootServerIDs: [Int] = []
    /// Never meetings from these root servers of an aggregator (`root_server_ids[]=-n`). Does not count as a
    /// narrowing filter on an aggregator.
    public var excludedRootServerIDs: [Int] = []
    /// Only meetings with an occurrence starting in this window (see `Window`): BMLTKit keeps them from the server's
    /// answer, which cannot be asked by date. With `.nearest(n)` the search returns the n nearest meetings *of the
    /// window* whenever the server has that many, asking again with a wider count when the first answer held too
    /// few (at most 4 searches; usually one for a window within one day, which the server filters itself: see
    /// *Meeting finders*). `fromNow(days:_:in:)` sets it. `nil`: no window.
    public var window: Window?
    /// Extra parameters sent as they are, after all the others (for parameters newer than BMLTKit).
    public var rawParameters: [URLQueryItem] {
        get { extraParameters.map { URLQueryItem(name: $0.name, value: $0.value) } }
        set { extraParameters = newValue.map { RawParameter(name: $0.name, value: $0.value) } }
    }
    private var extraParameters: [RawParameter] = []

    /// `URLQueryItem` is not `Codable` everywhere; the extra parameters are stored as this.
    private struct RawParameter: Sendable, Hashable, Codable {
        var name: String
        var value: String?
    }

    /// Criteria that match every published meeting.
    public init() {}

    /// Whether nothing at all is set (the search would return every published meeting).
    public var isEmpty: Bool { self == BMLTSearchCriteria() }
}

extension BMLTSearchCriteria {
    /// Which formats a meeting must have, which it must not, and whether it needs all or any of them.
    public struct FormatFilter: Sendable, Hashable, Codable {
        /// Format ids a meeting should have.
        public var included: [Int]
        /// Format ids a meeting must not have.
        public var excluded: [Int]
        /// `true`: a meeting must have every included format (the server's default, `AND`);
        /// `false`: any one of them (`formats_comparison_operator=OR`).
        public var requiresAll: Bool

        /// A filter from its parts.
        public init(included: [Int] = [], excluded: [Int] = [], requiresAll: Bool = true) {
            self.included = included
            self.excluded = excluded
            self.requiresAll = requiresAll
        }

        /// No format restriction.
        public static let none = FormatFilter()
        /// Meetings that have every one of these formats.
        public static func all(of ids: [Int]) -> FormatFilter { FormatFilter(included: ids, requiresAll: true) }
        /// Meetings that have at least one of these formats.
        public static func any(of ids: [Int]) -> FormatFilter { FormatFilter(included: ids, requiresAll: false) }
        /// Meetings that have none of these formats.
        public static func excluding(_ ids: [Int]) -> FormatFilter { FormatFilter(excluded: ids) }
        /// This filter, also refusing meetings that have any of `ids`.
        public func excluding(_ ids: [Int]) -> FormatFilter {
            var copy = self
            copy.excluded += ids.filter { !copy.excluded.contains($0) }
            return copy
        }
    }

    /// A search centre and how far around it to look.
    public struct Location: Sendable, Hashable, Codable {
        /// The centre.
        public var coordinate: BMLTCoordinate
        /// How far around it.
        public var radius: Radius

        /// A centre in decimal degrees and a radius.
        public init(latitude: Double, longitude: Double, radius: Radius) {
            self.coordinate = BMLTCoordinate(latitude: latitude, longitude: longitude)
            self.radius = radius
        }

        /// The `count` meetings nearest to a point: the server widens its circle until it holds them and answers
        /// every meeting inside it (often a few more); BMLTKit keeps exactly the `count` nearest.
        public static func nearest(_ count: Int, latitude: Double, longitude: Double) -> Location {
            Location(latitude: latitude, longitude: longitude, radius: .nearest(count))
        }
    }

    /// How far around a search centre to look.
    public enum Radius: Sendable, Hashable, Codable {
        /// A distance in miles (`geo_width`).
        case miles(Double)
        /// A distance in kilometres (`geo_width_km`).
        case kilometers(Double)
        /// A distance in the server's own unit (`distanceUnits` of its server info: miles or kilometres).
        case serverUnits(Double)
        /// This many nearest meetings, whatever the distance (a negative width on the wire; the server's answer,
        /// every meeting inside the circle that holds them, is cut to exactly this many, nearest kept).
        case nearest(Int)
    }

    /// How the search text is matched.
    public enum TextMatch: Sendable, Hashable, Codable {
        /// Any of the words (the server's default).
        case anyWords
        /// Every word (`SearchStringAll=1`; 2.x servers, ignored by 3.x).
        case allWords
        /// The exact text (`SearchStringExact=1`; 2.x servers, ignored by 3.x).
        case exact
        /// The text is an address: the server geocodes it (it needs a Google key) and searches around it
        /// (`StringSearchIsAnAddress=1`, `SearchStringRadius`); `nil` radius: about the server's usual number of
        /// nearest meetings.
        case address(radius: Radius?)
    }

    /// An exact match on one meeting field.
    public struct FieldMatch: Sendable, Hashable, Codable {
        /// The field's key, e.g. "location_municipality" (see `fieldKeys()`).
        public var key: String
        /// The value it must have, e.g. "Hempstead".
        public var value: String

        /// A field match.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// One page of results.
    public struct Page: Sendable, Hashable, Codable {
        /// Meetings per page (at least 1).
        public var size: Int
        /// The page, counting from 1.
        public var number: Int

        /// A page; `number` counts from 1.
        public init(size: Int, number: Int = 1) {
            self.size = size
            self.number = number
        }
    }

    /// Which meetings by publication.
    public enum PublishedStatus: Int, Sendable, Hashable, Codable, CaseIterable {
        /// Only published meetings (`advanced_published=1`).
        case published = 1
        /// Published and unpublished (`advanced_published=0`).
        case both = 0
        /// Only unpublished meetings (`advanced_published=-1`).
        case unpublished = -1
    }

    /// The sorts the server knows by name (`sort_key`).
    public enum SortAlias: String, Sendable, Hashable, Codable, CaseIterable {
        /// By weekday, then start time.
        case weekday
        /// By start time.
        case time
        /// By town.
        case town
        /// By state, then town.
        case state
        /// By weekday, then state.
        case weekdayState = "weekday_state"
    }
}
