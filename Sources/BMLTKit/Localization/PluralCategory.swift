/// CLDR's plural categories of a whole number in the twelve table languages (the integer rules of CLDR 44): a plural
/// sentence has one key per category its language uses (`key#one`, `key#few`, `key#many`, `key#other`).
enum PluralCategory: String, CaseIterable {
    case one, few, many, other

    /// The categories a language's table must hold for every plural key (`.ci/strings` checks them).
    static func required(for language: String) -> [PluralCategory] {
        switch language {
        case "pl", "ru": return [.one, .few, .many]
        default: return [.one, .other]
        }
    }

    /// The category of `count` in `language`.
    static func of(_ count: Int, in language: String) -> PluralCategory {
        let n = count.magnitude
        switch language {
        case "fr", "pt", "fa":                    // 0 and 1 are singular ("i = 0,1"; fa: "i = 0 or n = 1")
            return n <= 1 ? .one : .other
        case "ru":
            if n % 10 == 1 && n % 100 != 11 { return .one }
            if (2...4).contains(n % 10) && !(12...14).contains(n % 100) { return .few }
            return .many
        case "pl":
            if n == 1 { return .one }
            if (2...4).contains(n % 10) && !(12...14).contains(n % 100) { return .few }
            return .many
        default:                                   // da, de, el, en, es, it, sv
            return n == 1 ? .one : .other
        }
    }
}
