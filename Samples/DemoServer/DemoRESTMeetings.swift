import Foundation

/// `/api/v1/meetings` and `/api/v1/meetings/{id}[/changes]`: the REST meeting shape, validation and the writes
/// (which show up in the semantic reads and in GetChanges).
enum DemoRESTMeetings {
    /// Data fields as top-level REST keys (everything but the name and the custom fields), in template order.
    static let restDataKeys = DemoFields.dataKeys.filter { $0 != "meeting_name" && !DemoFields.customKeys.contains($0) }

    static func route(_ request: DemoRequest, _ path: [String], _ caller: DemoRESTRoutes.Caller, _ store: DemoStore) -> DemoResponse {
        let method = request.method
        if path.count == 1 {
            switch method {
            case "GET", "HEAD": return list(request.query, store.snapshot)
            case "POST": return create(request, caller, store)
            default: return DemoRESTRoutes.notAllowed(method, path, "GET, HEAD, POST")
            }
        }
        guard let id = Int(path[1]) else { return .prettyMessage("Not Found", status: 404) }
        if path.count == 3 {
            guard method == "GET" || method == "HEAD" else { return DemoRESTRoutes.notAllowed(method, path, "GET, HEAD") }
            let set = store.snapshot
            guard set.meetings[id] != nil else { return .prettyMessage("Not Found", status: 404) }
            let changes = set.changes.filter { $0.meetingID == id }.sorted { ($0.date, $0.id) > ($1.date, $1.id) }
            return .json(.array(changes.map { c in
                .object([("dateString", .string(DemoText.changeDate(c.date))),
                         ("userName", .string(set.user(c.userID)?.displayName ?? "")),
                         ("serviceBodyName", .string(set.serviceBody(c.serviceBodyID)?.name ?? "")),
                         ("details", .array(DemoRender.details(c, set).map(DemoJSON.string)))])
            }))
        }
        switch method {
        case "GET", "HEAD":
            guard let m = store.snapshot.meetings[id] else { return .prettyMessage("Not Found", status: 404) }
            return .json(json(m))
        case "PUT", "PATCH": return update(id, request, partial: method == "PATCH", caller, store)
        case "DELETE":
            return store.mutate { set in
                guard let m = set.meetings.removeValue(forKey: id) else { return .prettyMessage("Not Found", status: 404) }
                set.deletedMeetings[id] = m
                record(&set, .delete, m, before: m, after: nil, user: caller.user.id)
                return .empty(204)
            }
        default: return DemoRESTRoutes.notAllowed(method, path, "GET, HEAD, PUT, PATCH, DELETE")
        }
    }

    // MARK: Shape

    /// A meeting in the REST shape: camelCase, real types, day 0–6, "HH:MM", formatIds without VM/HY/TC.
    static func json(_ m: DemoMeeting) -> DemoJSON {
        let nullable = DemoRESTRoutes.nullable
        var pairs: [(String, DemoJSON)] = [
            ("id", .int(m.id)), ("serviceBodyId", .int(m.serviceBodyID)),
            ("formatIds", .array(m.formatIDs.filter { !DemoCatalog.ID.implied.contains($0) }.sorted().map(DemoJSON.int))),
            ("venueType", .int(m.venueType)), ("temporarilyVirtual", .bool(m.formatIDs.contains(DemoCatalog.ID.temporarilyClosed))),
            ("day", .int(m.weekday - 1)), ("startTime", .string(DemoText.hm(m.startMinutes))),
            ("duration", .string(DemoText.hm(m.durationMinutes))), ("timeZone", nullable(m.timeZone)),
            ("latitude", .double(m.latitude)), ("longitude", .double(m.longitude)), ("published", .bool(m.published)),
            ("email", nullable(m.email)), ("worldId", nullable(m.worldID)), ("name", nullable(m.name)),
        ]
        pairs += restDataKeys.map { ($0, nullable(m[field: $0])) }
        pairs.append(("customFields", .object(DemoFields.customKeys.sorted().map { ($0, nullable(m[field: $0])) })))
        return .object(pairs)
    }

    // MARK: List

    private static func list(_ q: DemoQuery, _ set: DemoDataSet) -> DemoResponse {
        var meetings = set.sortedMeetings
        let days = q.list("days").map { Int($0) }
        if days.contains(where: { $0 == nil || !(0...6).contains($0!) }) {
            return DemoRESTRoutes.invalid([("days", ["The days must be between 0 and 6."])])
        }
        if let search = q.string("searchString"), search.count < 3 {
            return DemoRESTRoutes.invalid([("searchString", ["The search string field must be at least 3 characters."])])
        }
        let ids = Set(q.list("meetingIds").compactMap { Int($0) })
        if !ids.isEmpty { meetings = meetings.filter { ids.contains($0.id) } }
        if !days.isEmpty { meetings = meetings.filter { days.contains($0.weekday - 1) } }
        let bodies = Set(q.list("serviceBodyIds").compactMap { Int($0) })
        if !bodies.isEmpty { meetings = meetings.filter { bodies.contains($0.serviceBodyID) } }
        if let text = q.string("searchString") {
            meetings = meetings.filter { m in
                DemoSearchFilter.textKeys.contains { m[field: $0].range(of: text, options: .caseInsensitive) != nil }
            }
        }
        return .json(.array(meetings.map(json)))
    }

    // MARK: Writes

    private static func create(_ request: DemoRequest, _ caller: DemoRESTRoutes.Caller, _ store: DemoStore) -> DemoResponse {
        guard let body = DemoRESTRoutes.bodyObject(request) else {
            return DemoRESTRoutes.invalid([("name", ["The name field is required."])])
        }
        return store.mutate { set in
            switch DemoRESTValidation.meeting(from: body, id: set.nextMeetingID, lang: "en", set) {
            case let .failure(errors): return DemoRESTRoutes.invalid(errors.list)
            case let .success(m):
                set.nextMeetingID += 1
                set.meetings[m.id] = m
                record(&set, .new, m, before: nil, after: m, user: caller.user.id)
                return .json(json(m), status: 201)
            }
        }
    }

    private static func update(_ id: Int, _ request: DemoRequest, partial: Bool, _ caller: DemoRESTRoutes.Caller,
                               _ store: DemoStore) -> DemoResponse {
        let body = DemoRESTRoutes.bodyObject(request) ?? .object([])
        return store.mutate { set in
            guard let old = set.meetings[id] else { return .prettyMessage("Not Found", status: 404) }
            var payload = body
            if partial, case let .object(stored) = json(old), case let .object(given) = body {
                // PATCH: start from the stored meeting, overlay what was sent (customFields merged key by key).
                var merged = stored
                for (key, value) in given {
                    if key == "customFields", case let .object(oldCustom)? = old.restCustom, case let .object(newCustom) = value {
                        let kept = oldCustom.filter { pair in !newCustom.contains { $0.0 == pair.0 } }
                        merged.removeAll { $0.0 == key }
                        merged.append((key, .object(kept + newCustom)))
                    } else {
                        merged.removeAll { $0.0 == key }
                        merged.append((key, value))
                    }
                }
                payload = .object(merged)
            }
            switch DemoRESTValidation.meeting(from: payload, id: id, lang: old.lang, set) {
            case let .failure(errors): return DemoRESTRoutes.invalid(errors.list)
            case var .success(m):
                m.worldID = payload.has("worldId") ? m.worldID : old.worldID
                set.meetings[id] = m
                if DemoRender.snapshot(old, set) != DemoRender.snapshot(m, set) {
                    record(&set, .change, m, before: old, after: m, user: caller.user.id)
                }
                return .empty(204)
            }
        }
    }

    private static func record(_ set: inout DemoDataSet, _ kind: DemoChange.Kind, _ m: DemoMeeting,
                               before: DemoMeeting?, after: DemoMeeting?, user: Int) {
        set.changes.append(DemoChange(id: set.nextChangeID, date: Date(), kind: kind, meetingID: m.id, userID: user,
                                      serviceBodyID: m.serviceBodyID, before: before, after: after))
        set.nextChangeID += 1
    }
}

private extension DemoMeeting {
    var restCustom: DemoJSON? { DemoRESTMeetings.json(self)["customFields"] }
}
