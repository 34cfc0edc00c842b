import Foundation

extension BMLTError {
    /// What was being read or done when a reply could not be read, or what the server cannot do.
    ///
    /// A struct with a static member per subject, not an enum: BMLTKit names a new subject in a minor release (one
    /// more `static let`) without breaking an app's `switch`. Match the subjects you care about by name — `case
    /// .meetingSearch:` and `case .meeting(id: 42):` compile as before (`~=` of `Equatable`) — and the rest with
    /// `default`; read ``id`` or ``fieldKey`` instead of binding a payload, and ``name`` for a stable identifier.
    /// ```swift
    /// if case .malformedResponse(let what, _) = error {
    ///     switch what {
    ///     case .meetingSearch: print("the search results")
    ///     case .fieldValues(key: "location_municipality"): print("the towns")
    ///     default: print(what.name, what.id ?? 0, what.fieldKey ?? "")   // e.g. "meeting 42"
    ///     }
    /// }
    /// ```
    public struct Subject: Sendable, Hashable, CustomStringConvertible {
        /// The key of its phrase in the string tables (`subject.<name>`), with one `%@` for `id` or `fieldKey`.
        let key: String
        /// The id of the item it names (`meeting(id:)`, `format(id:)`, `serviceBody(id:)`, `serviceBodyEditors(id:)`,
        /// `user(id:)`, `rootServer(id:)`); `nil` for the others.
        /// ```swift
        /// if let id = BMLTError.Subject.format(id: 56).id { print("format", id) }
        /// ```
        public let id: Int?
        /// The field key of `fieldValues(key:)`; `nil` for the others.
        /// ```swift
        /// print(BMLTError.Subject.fieldValues(key: "location_municipality").fieldKey ?? "")
        /// ```
        public let fieldKey: String?

        /// `key`: the full string-table key, literal (`.ci/strings` checks that English has it).
        init(_ key: String, id: Int? = nil, fieldKey: String? = nil) {
            self.key = key
            self.id = id
            self.fieldKey = fieldKey
        }

        /// The subject's stable name, the same in every release and language (`"meetingSearch"`, `"meeting"`, …).
        /// ```swift
        /// print(BMLTError.Subject.meeting(id: 42).name)   // meeting
        /// ```
        public var name: String { String(key.dropFirst("subject.".count)) }

        /// The English phrase, e.g. "the meeting search results".
        /// ```swift
        /// print(BMLTError.Subject.meetingSearch)   // the meeting search results
        /// ```
        public var description: String { phrase(in: "en") }

        func phrase(in language: String) -> String {
            let argument = fieldKey ?? id.map { String($0) }
            return StringTables.text(key, argument.map { [$0] } ?? [], language: language)
        }

        // Adding a subject: one line here, `static let name = Subject("subject.<name>")` (or a `static func` for one
        // that names an item), plus its English phrase in en.lproj and the eleven other tables. `public` only if an
        // app needs to name it; the library's own routing subjects stay internal (apps still read their `name`).

        /// `GetServerInfo`, read at validation.
        public static let serverInfo = Subject("subject.serverInfo")
        /// A meeting search's meetings.
        public static let meetingSearch = Subject("subject.meetingSearch")
        /// The formats sent with a meeting search's meetings.
        public static let searchFormats = Subject("subject.searchFormats")
        /// The formats a search's meetings use (`GetFormats`).
        public static let usedFormats = Subject("subject.usedFormats")
        /// The format list.
        public static let formats = Subject("subject.formats")
        /// The service body list.
        public static let serviceBodies = Subject("subject.serviceBodies")
        /// The change list.
        public static let changes = Subject("subject.changes")
        /// Change lists and deleted meetings (refused on an aggregator).
        public static let changesAndDeletedMeetings = Subject("subject.changesAndDeletedMeetings")
        /// A meeting's changes (refused on an aggregator).
        public static let meetingChanges = Subject("subject.meetingChanges")
        /// The server's language list.
        public static let languages = Subject("subject.languages")
        /// The field keys (`GetFieldKeys`).
        public static let fieldKeys = Subject("subject.fieldKeys")
        /// The values of a field (`GetFieldValues`).
        public static func fieldValues(key: String) -> Subject { Subject("subject.fieldValues", fieldKey: key) }
        /// The coverage area.
        public static let coverageArea = Subject("subject.coverageArea")
        /// The NAWS export.
        public static let nawsExport = Subject("subject.nawsExport")
        /// An aggregator's root servers.
        public static let rootServers = Subject("subject.rootServers")
        /// One of an aggregator's root servers.
        public static func rootServer(id: Int) -> Subject { Subject("subject.rootServer", id: id) }
        /// Another root server's server info (read through an aggregator).
        public static let rootServerInfo = Subject("subject.rootServerInfo")
        /// A message to a meeting's contact.
        public static let contactMessage = Subject("subject.contactMessage")
        /// The login.
        public static let login = Subject("subject.login")
        /// The login token.
        public static let loginToken = Subject("subject.loginToken")
        /// The renewal of the login token.
        public static let tokenRefresh = Subject("subject.tokenRefresh")
        /// The logout.
        public static let logout = Subject("subject.logout")
        /// The logged-in user.
        public static let loggedInUser = Subject("subject.loggedInUser")
        /// The logged-in user's permissions.
        public static let permissions = Subject("subject.permissions")
        /// The user list.
        public static let users = Subject("subject.users")
        /// The server settings.
        public static let serverSettings = Subject("subject.serverSettings")
        /// The HTTP request itself.
        public static let request = Subject("subject.request")
        /// A meeting, by id.
        public static func meeting(id: Int) -> Subject { Subject("subject.meeting", id: id) }
        /// A format, by id.
        public static func format(id: Int) -> Subject { Subject("subject.format", id: id) }
        /// A service body, by id.
        public static func serviceBody(id: Int) -> Subject { Subject("subject.serviceBody", id: id) }
        /// The editors of a service body.
        public static func serviceBodyEditors(id: Int) -> Subject { Subject("subject.serviceBodyEditors", id: id) }
        /// A user, by id.
        public static func user(id: Int) -> Subject { Subject("subject.user", id: id) }
        /// A meeting just created.
        public static let newMeeting = Subject("subject.newMeeting")
        /// A meeting just saved.
        public static let savedMeeting = Subject("subject.savedMeeting")
        /// A meeting's deletion.
        public static let meetingDeletion = Subject("subject.meetingDeletion")
        /// A deleted meeting just restored.
        public static let restoredMeeting = Subject("subject.restoredMeeting")
        /// A meeting's rollback.
        public static let meetingRollback = Subject("subject.meetingRollback")
        /// A format just created.
        public static let newFormat = Subject("subject.newFormat")
        /// A service body just created.
        public static let newServiceBody = Subject("subject.newServiceBody")
        /// A user just created.
        public static let newUser = Subject("subject.newUser")
        /// A server administration call.
        public static let serverAdministration = Subject("subject.serverAdministration")

        // The library's routing subjects: what an administration operation asks the gateway for. They reach apps
        // inside `unsupported(.administration(_:serverVersion:))`, `.aggregatorWrite(_:)`, …, read by `name`.

        /// The meetings of a service body (an administrator's list, published or not).
        static func serviceBodyMeetings(id: Int) -> Subject { Subject("subject.serviceBodyMeetings", id: id) }
        /// Administration (the login).
        static let administration = Subject("subject.administration")
        /// Logging out.
        static let loggingOut = Subject("subject.loggingOut")
        /// Reading the logged-in user's permissions.
        static let readingPermissions = Subject("subject.readingPermissions")
        /// Server administration (formats, service bodies, users, settings).
        static let serverAdministrationAccess = Subject("subject.serverAdministrationAccess")
        /// Creating meetings (an action the server may not allow).
        static let creatingMeetings = Subject("subject.creatingMeetings")
        /// Saving meetings.
        static let savingMeetings = Subject("subject.savingMeetings")
        /// Deleting meetings.
        static let deletingMeetings = Subject("subject.deletingMeetings")
        /// Restoring deleted meetings.
        static let restoringMeetings = Subject("subject.restoringMeetings")
        /// Rolling meetings back.
        static let rollingBackMeetings = Subject("subject.rollingBackMeetings")
        /// Server administration changes (formats, service bodies, users).
        static let serverAdministrationChanges = Subject("subject.serverAdministrationChanges")
    }
}
