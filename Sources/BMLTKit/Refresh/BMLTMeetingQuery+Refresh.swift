import Foundation

/// A `BMLTMeetingQuery`'s refresh after a complete one, with the same criteria and no nearby search, reads only what
/// changed (`meetings(matching:updating:)`): a pull-to-refresh brings a few kilobytes. Its meetings come whole at the
/// end (no batches: what changed is a handful); its notifications are a search's (one `.bmltMeetingSearchResults`
/// with the whole list); whatever the change log cannot answer is downloaded whole, as that call does.
extension BMLTMeetingQuery {
    /// The results the next refresh brings up to date: the last complete refresh's, when its criteria are today's and
    /// they can be brought up to date at all (a server time and an origin: a reply without a `Date` header cannot). A
    /// refresh that would download whole anyway takes the batched path instead, so its meetings stream in.
    func updatable() -> BMLTSearchResults? {
        guard nearby == nil, let base = refreshBase, base.criteria == criteria,
              base.results.serverDate != nil, base.results.origin != nil else { return nil }
        return base.results
    }

    /// Brings `previous` up to date as refresh number `mine`.
    func update(_ previous: BMLTSearchResults, on connection: BMLTConnection,
                mine: Int) async -> Result<BMLTSearchResults, BMLTError> {
        let asked = criteria
        let operation = BMLTConnection.meetingRefresh(asked, extent: .meetingsAndFormats, previous: previous, feedsStore: false)
        let (request, task) = connection.launch(operation)
        began(request)
        let outcome = await withTaskCancellationHandler { await task.value } onCancel: { request.cancel() }
        return keep(outcome, of: asked, mine: mine)
    }

    /// Keeps a complete refresh's results (of the latest refresh only) for the next one to bring up to date.
    func keep(_ outcome: Result<BMLTSearchResults, BMLTError>, of criteria: BMLTSearchCriteria,
              mine: Int) -> Result<BMLTSearchResults, BMLTError> {
        if generation == mine, case .success(let results) = outcome { refreshBase = (criteria, results) }
        return outcome
    }
}
