/// What a meeting search asks the server to return.
public enum BMLTSearchExtent: Sendable, Hashable, Codable, CaseIterable {
    /// The meetings only: `.bmltMeetingSearchResults`.
    case meetingsOnly
    /// Only the formats the matching meetings use (`get_formats_only`): `.bmltFormatSearchResults`.
    case formatsOnly
    /// The meetings and the formats they use (`get_used_formats`): `.bmltMeetingSearchResults`, then
    /// `.bmltFormatSearchResults`.
    case meetingsAndFormats
}
