import Foundation

/// The ids of the meetings a search finds now, in the server's order, for a few bytes a meeting: the same
/// `GetSearchResults` with `data_field_key=id_bigint` alone (`{"id_bigint":"2339"}`, about 21 bytes a meeting against
/// about 1,100 for the whole meeting: `rootserver/json_GetSearchResults_all.json`). `data_field_key` only chooses the
/// fields written (2.16.6 `csv.php`, 3.x/4.x `MeetingResource`): which meetings come, and in what order, is the
/// search's own — whatever the server's `default_sort_key`, its week's first day or its order of ties.
///
/// A refresh reads it to know which meetings the list holds now and where (`MeetingRefresh`), a search of more ids than
/// a request holds to merge its parts (`ByIDSearch`). It goes through the same search path, so on 2.x a list by id is
/// completed as every search by id is.
enum ListSkeleton {
    /// The skeleton of `criteria` (its meetings carry their ids, and the `extraKeys` asked beside). `fresh`: past
    /// every cache.
    static func read(_ criteria: BMLTSearchCriteria, extraKeys: [String] = [], fresh: Bool,
                     _ context: OperationContext) async throws(BMLTError) -> BMLTSearchResults {
        var asked = criteria
        asked.dataFieldKeys = ["id_bigint"] + extraKeys
        return try await BMLTConnection.searchOnce(asked, extent: .meetingsOnly, context, fresh: fresh, bare: true)
    }
}
