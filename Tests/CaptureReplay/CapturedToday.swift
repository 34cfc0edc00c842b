import Foundation

/// A capture replayed on any date: what the captured server would answer if it were asked now.
///
/// A reply that carries no date of its own is served as captured. A 3.x/4.x login or refresh carries one:
/// `expires_at = time() + 60 * config('sanctum.expiration')` (bmlt-server
/// `src/app/Http/Controllers/Admin/TokenController.php`, `createToken`), so a captured token replayed a week later has
/// expired, and BMLTKit rightly refreshes it before the next request — the replay would then test the calendar. Served
/// today, `expires_at` is moved by the time since the capture's login: the token lives as long as the captured one did,
/// counted from now.
///
/// The captured servers' tokens lived 7 days (`sanctum.expiration` = 10,080 minutes): 3.1.2's login, in the 3.1.2
/// captures, expires at 1795946955, and the change record of the edit made right after it (`200-GetChanges-after-edits`)
/// is dated 1795342179, 24 s after 1795946955 − 604,800.
///
/// ```swift
/// let login = CapturedToday.served("rootserver-3x", "101-auth-token-serveradmin.json")   // expires_at: now + 7 days
/// ```
public enum CapturedToday {
    /// The captured servers' token lifetime: 7 days.
    public static let tokenLifetime: TimeInterval = 7 * 86_400

    /// A capture's bytes as the server would serve them at `now`: every `"expires_at":N` moved by the time since the
    /// folder's login was captured; anything else as captured (empty when missing).
    public static func served(_ folder: String, _ file: String, now: Date = Date()) -> Data {
        served(FixtureCaptures.body(folder, file), folder: folder, now: now)
    }

    /// `data` (a reply of `folder`'s server) as that server would serve it at `now`.
    public static func served(_ data: Data, folder: String, now: Date = Date()) -> Data {
        guard let text = String(data: data, encoding: .utf8), text.contains(key), let moment = loginMoment(folder) else { return data }
        let shift = Int(now.timeIntervalSince1970.rounded()) - moment
        return Data(shifted(text, by: shift).utf8)
    }

    /// When `folder`'s server administrator logged in, by the server's clock (its login's `expires_at` − the lifetime).
    public static func loginMoment(_ folder: String) -> Int? {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: FixtureCaptures.root.appendingPathComponent(folder).path)) ?? []
        guard let login = files.sorted().first(where: { $0.contains("auth-token-serveradmin") }),
              let object = try? JSONSerialization.jsonObject(with: FixtureCaptures.body(folder, login)) as? [String: Any],
              let expires = (object["expires_at"] as? NSNumber)?.intValue else { return nil }
        return expires - Int(tokenLifetime)
    }

    private static let key = "\"expires_at\":"

    /// `text` with the number after every `"expires_at":` moved by `shift` seconds (the bytes around it as they were).
    static func shifted(_ text: String, by shift: Int) -> String {
        var out = ""
        var rest = Substring(text)
        while let found = rest.range(of: key) {
            out += rest[..<found.upperBound]
            rest = rest[found.upperBound...]
            let digits = rest.prefix { $0.isNumber }
            if let value = Int(digits) {
                out += String(value + shift)
                rest = rest.dropFirst(digits.count)
            }
        }
        return out + rest
    }
}
