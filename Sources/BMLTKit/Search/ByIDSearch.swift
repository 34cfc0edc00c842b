import Foundation

/// A search by meeting id that one plain request does not answer as 3.x and 4.x do:
///
/// - on 2.x, where `meeting_ids[]` is the whole search (`LegacyByID`): what the meeting decides is completed here;
///   what it cannot decide is asked of the server without the ids, and the meetings asked for are kept;
/// - more ids than a request line holds (`RequestLine`; a server's 414 too): the ids go in several requests, each
///   completed as above, merged in the server's order — the order of `ListSkeleton`, the ids of every meeting the
///   other criteria find, read beside them — and without duplicates; a page is cut from the whole.
enum ByIDSearch {
    /// A search as asked: the criteria, the extent, the server's distance unit, and how to read (`fresh`: past every
    /// cache; `bare`: `data_field_key` without the keys BMLTKit adds).
    struct Ask: Sendable {
        var criteria: BMLTSearchCriteria
        var extent: BMLTSearchExtent
        var units: BMLTDistanceUnit
        var fresh: Bool
        var bare: Bool

        func query(_ criteria: BMLTSearchCriteria) -> [URLQueryItem] {
            WireSearchQuery.items(criteria, extent: extent, distanceUnits: units, bareKeys: bare)
        }
    }

    /// The server's generation as its order tells it, from the validation or (before it) `GetServerInfo`; `nil` when
    /// that cannot be read.
    static func generation(_ context: OperationContext) async throws(BMLTError) -> ServerOrder? {
        if let info = context.serverInfo { return ServerOrder(info) }
        do {
            return ServerOrder(try await context.requireServerInfo())
        } catch .cancelled {
            throw .cancelled
        } catch {
            return nil
        }
    }

    /// The answer to a search by id when one plain request would not give it (`nil`: send `query` as it is).
    static func answer(_ ask: Ask, query: [URLQueryItem], _ context: OperationContext) async throws(BMLTError) -> BMLTSearchResults? {
        let criteria = ask.criteria
        let url = context.transport.urls.url(root: context.root, path: "client_interface/json/",
                                             query: [URLQueryItem(name: "switcher", value: "GetSearchResults")] + query)
        let tooLong = RequestLine.length(of: url) > RequestLine.limit
        let known = context.serverInfo.map(ServerOrder.init)
        if !tooLong, known == .sql { return nil }   // a validated 3.x or 4.x: the plain search (its meetings stream)
        if !tooLong, known == nil, LegacyByID.undecidable(criteria) == nil,
           LegacyByID.asking(criteria, bare: ask.bare).added.isEmpty {
            // Not validated, and nothing to ask beside the criteria: 3.x and 4.x answer with exactly the meetings the
            // criteria find (completing them changes nothing), 2.x with every one named. Exact either way, without
            // asking GetServerInfo first.
            guard LegacyByID.needsCompletion(criteria) else { return nil }
            return try await completedOnce(ask, asked: criteria, added: [], generation: nil, context)
        }
        let generation = try await generation(context)
        // A cached delivery cannot tell a 2.x answer to complete from a 3.x one without the server's generation.
        if generation == nil, context.isCacheOnly { throw BMLTError.notFound(message: "not in the response cache") }
        let legacy = generation == .legacy
        if legacy, let why = LegacyByID.undecidable(criteria) {
            return try await withoutIDs(ask, because: why, context)
        }
        if tooLong { return try await split(ask, generation: generation, runs: 0, context) }
        guard legacy, LegacyByID.needsCompletion(criteria) else { return nil }
        let (asked, added) = LegacyByID.asking(criteria, bare: ask.bare)
        return try await completedOnce(ask, asked: asked, added: added, generation: generation, context)
    }

    /// One request of `asked`, completed (a 414 asks in parts instead).
    private static func completedOnce(_ ask: Ask, asked: BMLTSearchCriteria, added: Set<String>, generation: ServerOrder?,
                                      _ context: OperationContext) async throws(BMLTError) -> BMLTSearchResults {
        do {
            let results = try await SearchRequest.send(ask.query(asked), criteria: asked, fresh: ask.fresh, context)
            return complete(results, ask.criteria, added: added, lenient: generation == nil)
        } catch let error where RequestLine.isTooLong(error) && ask.criteria.meetingIDs.count > 1 {
            var order = generation
            if order == nil { order = try await self.generation(context) }
            return try await split(ask, generation: order, runs: 2, context)
        }
    }

    /// 2.x's answer completed: the meetings the criteria find, without the fields only the completion asked for
    /// (`lenient` when the generation is not known: `LegacyByID.complete`).
    private static func complete(_ results: BMLTSearchResults, _ criteria: BMLTSearchCriteria,
                                 added: Set<String>, lenient: Bool = false) -> BMLTSearchResults {
        LegacyByID.complete(results, criteria, added: added, order: .legacy, lenient: lenient)
    }

    /// 2.x with a criterion the meeting cannot decide: the criteria asked without the ids (the server applies every
    /// other one), and the meetings asked for kept in its order; a page cut from them.
    private static func withoutIDs(_ ask: Ask, because why: String, _ context: OperationContext) async throws(BMLTError) -> BMLTSearchResults {
        var asked = ask.criteria
        asked.meetingIDs = []
        asked.page = nil
        let results = try await SearchRequest.send(ask.query(asked), criteria: asked, fresh: ask.fresh, context)
        let kept = LegacyByID.keeping(ask.criteria.meetingIDs, of: results, page: ask.criteria.page, order: .legacy)
        context.transport.log.note("root server 2.x answers meeting_ids[] alone, ignoring \(why): asked without the ids, "
                                   + "\(kept.meetings.count) of the \(results.meetings.count) meetings found were asked for")
        return kept
    }

    /// The ids in runs that fit a request line (at least `runs` of them), each asked and completed, merged.
    static func split(_ ask: Ask, generation: ServerOrder?, runs minimum: Int, _ context: OperationContext) async throws(BMLTError) -> BMLTSearchResults {
        let legacy = generation == .legacy
        let (asked, added) = legacy && LegacyByID.needsCompletion(ask.criteria) ? LegacyByID.asking(ask.criteria, bare: ask.bare) : (ask.criteria, [])
        var template = asked
        template.meetingIDs = []
        template.page = nil
        var seen = Set<Int>()
        let ids = ask.criteria.meetingIDs.filter { seen.insert($0).inserted }
        var runs = self.runs(ids, template: template, ask: ask, context)
        if runs.count < minimum, ids.count >= minimum {
            let size = (ids.count + minimum - 1) / minimum
            runs = stride(from: 0, to: ids.count, by: size).map { Array(ids[$0..<min(ids.count, $0 + size)]) }
        }
        // The server's order (the ids of the list the other criteria make) is read beside the parts, not after them.
        async let skeleton = skeletonIDs(ask, context)
        let parts = try await fetch(runs, template: template, ask: ask, context)
        var merged = BMLTSearchResults()
        var byID: [Int: BMLTMeeting] = [:]
        var listed: [Int] = []
        var formats: [BMLTFormat] = []
        var formatIDs = Set<Int>()
        for part in parts {
            let done = legacy ? complete(part, ask.criteria, added: added) : part
            for meeting in done.meetings where byID[meeting.id] == nil {
                byID[meeting.id] = meeting
                listed.append(meeting.id)
            }
            for format in done.formats where formatIDs.insert(format.id).inserted { formats.append(format) }
            merged.skippedFormats += done.skippedFormats
            merged.bodyBytes = (merged.bodyBytes ?? 0) + (done.bodyBytes ?? 0)
            if let date = done.serverDate { merged.serverDate = min(merged.serverDate ?? date, date) }
        }
        let order = ask.extent == .formatsOnly ? listed : try serverOrder(of: listed, byID: byID, skeleton: await skeleton, context)
        var meetings = order.compactMap { byID[$0] }
        if meetings.count < listed.count {
            context.transport.log.note("\(listed.count - meetings.count) meetings asked for by id are not in the server's list "
                                       + "for the other criteria: left out")
        }
        if let page = ask.criteria.page { meetings = LegacyByID.slice(meetings, page) }
        merged.meetings = meetings
        let sorting = generation ?? .sql
        switch ask.extent {
        case .meetingsAndFormats: merged.formats = sorting.usedFormats(of: meetings, from: formats)
        case .formatsOnly: merged.formats = sorting == .sql ? formats.sorted { $0.id < $1.id } : formats
        case .meetingsOnly: break
        }
        context.transport.log.note("a search of \(ids.count) meeting ids asked in \(parts.count) requests "
                                   + "(each request line at most \(RequestLine.limit) bytes): \(meetings.count) meetings")
        return merged
    }

    /// `ids` in runs whose request lines, `template` asked with each, fit `RequestLine.limit`.
    static func runs(_ ids: [Int], template: BMLTSearchCriteria, ask: Ask, _ context: OperationContext) -> [[Int]] {
        var bare = template
        bare.meetingIDs = []
        let base = RequestLine.length(of: context.transport.urls.url(
            root: context.root, path: "client_interface/json/",
            query: [URLQueryItem(name: "switcher", value: "GetSearchResults")] + ask.query(bare)))
        return RequestLine.chunks(ids, base: base)
    }

    /// How many runs are asked at once (a volunteer's server is not sent ten searches together).
    static let runsInFlight = 4

    /// Each run asked with `template`, `runsInFlight` at a time, the answers in the runs' order; a run the server finds
    /// too long is halved and asked again when `halving` (otherwise its 414 is thrown). The first failure cancels the
    /// runs still asked and is thrown.
    static func fetch(_ runs: [[Int]], template: BMLTSearchCriteria, ask: Ask, halving: Bool = true,
                      _ context: OperationContext) async throws(BMLTError) -> [BMLTSearchResults] {
        let outcomes = await withTaskGroup(of: (Int, Result<[BMLTSearchResults], BMLTError>).self) { group in
            var waiting = runs.enumerated().makeIterator()
            for _ in 0..<runsInFlight {
                guard let (index, run) = waiting.next() else { break }
                group.addTask { (index, await fetchRun(run, template: template, ask: ask, halving: halving, context)) }
            }
            var outcomes: [(Int, Result<[BMLTSearchResults], BMLTError>)] = []
            while let outcome = await group.next() {
                outcomes.append(outcome)
                if case .failure = outcome.1 {
                    group.cancelAll()
                    break
                }
                if let (index, run) = waiting.next() {
                    group.addTask { (index, await fetchRun(run, template: template, ask: ask, halving: halving, context)) }
                }
            }
            return outcomes.sorted { $0.0 < $1.0 }
        }
        var parts: [BMLTSearchResults] = []
        for (_, outcome) in outcomes {
            switch outcome {
            case .success(let results): parts += results
            case .failure(let error): throw error
            }
        }
        return parts
    }

    private static func fetchRun(_ run: [Int], template: BMLTSearchCriteria, ask: Ask, halving: Bool,
                                 _ context: OperationContext) async -> Result<[BMLTSearchResults], BMLTError> {
        var asked = template
        asked.meetingIDs = run
        do {
            return .success([try await SearchRequest.send(ask.query(asked), criteria: asked, fresh: ask.fresh, context)])
        } catch let error where halving && RequestLine.isTooLong(error) && run.count > 1 {
            let half = run.count / 2
            let first = await fetchRun(Array(run[..<half]), template: template, ask: ask, halving: halving, context)
            guard case .success(let head) = first else { return first }
            let second = await fetchRun(Array(run[half...]), template: template, ask: ask, halving: halving, context)
            guard case .success(let tail) = second else { return second }
            return .success(head + tail)
        } catch {
            return .failure(error)
        }
    }

    /// The ids of the list the other criteria make, in the server's order (`ListSkeleton`); `nil` when there is no
    /// order to read (formats only) or an aggregator lists nothing for them without the ids.
    private static func skeletonIDs(_ ask: Ask, _ context: OperationContext) async -> Result<[Int]?, BMLTError> {
        guard ask.extent != .formatsOnly else { return .success(nil) }
        var others = ask.criteria
        others.meetingIDs = []
        others.page = nil
        do {
            return .success(try await ListSkeleton.read(others, fresh: ask.fresh, context).meetings.map(\.id))
        } catch .invalidArgument {
            return .success(nil)
        } catch {
            return .failure(error)
        }
    }

    /// The server's order of the meetings found: among the skeleton's ids those found. An aggregator asked for no
    /// narrowing filter but the ids answers nothing: its meetings are then put in the order every generation sorts on
    /// first (weekday, start, duration), ties as they came.
    private static func serverOrder(of listed: [Int], byID: [Int: BMLTMeeting], skeleton: Result<[Int]?, BMLTError>,
                                    _ context: OperationContext) throws(BMLTError) -> [Int] {
        guard !listed.isEmpty else { return listed }
        switch skeleton {
        case .failure(let error): throw error
        case .success(let ids?): return ids.filter { byID[$0] != nil }
        case .success(nil): break
        }
        context.transport.log.note("the aggregator lists nothing for these criteria without the ids: "
                                   + "\(listed.count) meetings put in weekday, start and duration order")
        let keyed = ServerOrder.sql
        return listed.enumerated().sorted { lhs, rhs in
            let left = byID[lhs.element].flatMap(keyed.key), right = byID[rhs.element].flatMap(keyed.key)
            switch (left, right) {
            case let (left?, right?) where left != right: return left < right
            default: return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}
