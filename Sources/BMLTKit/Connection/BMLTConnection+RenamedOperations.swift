import Foundation

/// The `async` names used before one rule named every pair (see "One vocabulary" in the Administration article):
/// a fire-and-forget action is its verb (`save`, `deleteMeeting`, `logout`), its `async` form the same name +
/// `AndWait`; a fire-and-forget read is `fetch` + the `async` name (`fetchFormats` / `formats`). Each old name
/// forwards to its new one and does exactly what it does (the same operation, notifications and store updates).
extension BMLTConnection {
    /// Renamed `saveAndWait(_:options:)`.
    /// ```swift
    /// let saved = try await connection.saveAndWait(draft)   // was: saveMeeting(draft)
    /// ```
    @available(*, deprecated, renamed: "saveAndWait(_:options:)")
    public func saveMeeting(_ draft: BMLTMeetingDraft, options: BMLTSaveOptions = BMLTSaveOptions()) async throws -> BMLTSaveResult {
        try await saveAndWait(draft, options: options)
    }

    /// Renamed `deleteMeetingAndWait(id:)`.
    /// ```swift
    /// try await connection.deleteMeetingAndWait(id: 42)     // was: removeMeeting(id: 42)
    /// ```
    @available(*, deprecated, renamed: "deleteMeetingAndWait(id:)")
    public func removeMeeting(id: Int) async throws {
        try await deleteMeetingAndWait(id: id)
    }

    /// Renamed `restoreDeletedMeetingAndWait(_:)`.
    /// ```swift
    /// let meeting = try await connection.restoreDeletedMeetingAndWait(deletion)   // was: restoreMeeting(from: deletion)
    /// ```
    @available(*, deprecated, renamed: "restoreDeletedMeetingAndWait(_:)")
    public func restoreMeeting(from deletion: BMLTChange) async throws -> BMLTMeeting {
        try await restoreDeletedMeetingAndWait(deletion)
    }

    /// Renamed `rollbackAndWait(meetingID:toBefore:)`.
    /// ```swift
    /// _ = try await connection.rollbackAndWait(meetingID: 42, toBefore: change)   // was: rollBackMeeting(id:toBefore:)
    /// ```
    @available(*, deprecated, renamed: "rollbackAndWait(meetingID:toBefore:)")
    public func rollBackMeeting(id meetingID: Int, toBefore change: BMLTChange) async throws -> BMLTSaveResult {
        try await rollbackAndWait(meetingID: meetingID, toBefore: change)
    }

    /// Renamed `logoutAndWait()`.
    /// ```swift
    /// try await connection.logoutAndWait()                  // was: logOut()
    /// ```
    @available(*, deprecated, renamed: "logoutAndWait()")
    public func logOut() async throws {
        try await logoutAndWait()
    }

    /// Renamed `fetchPermissions()`.
    /// ```swift
    /// connection.fetchPermissions()                         // was: refreshPermissions()
    /// ```
    @available(*, deprecated, renamed: "fetchPermissions()")
    @discardableResult
    public func refreshPermissions() -> BMLTRequest {
        fetchPermissions()
    }

    /// Renamed `sendMessageAndWait(toContactOf:from:body:)`.
    /// ```swift
    /// try await connection.sendMessageAndWait(toContactOf: meeting, from: "me@example.org", body: "Hello")
    /// ```
    @available(*, deprecated, renamed: "sendMessageAndWait(toContactOf:from:body:)")
    public func messageContact(of meeting: BMLTMeeting, from sender: String, body: String) async throws {
        try await sendMessageAndWait(toContactOf: meeting, from: sender, body: body)
    }

    /// Renamed `performAndWait(_:)`.
    /// ```swift
    /// let result = try await connection.performAndWait(.users)   // was: serverAdmin(.users)
    /// ```
    @available(*, deprecated, renamed: "performAndWait(_:)")
    public func serverAdmin(_ action: BMLTServerAdminAction) async throws -> BMLTServerAdminResult {
        try await performAndWait(action)
    }
}
