import Foundation

/// A field value a root server wrote as a prompt and a value joined by `#@-@#` (`"Bus Lines#@-@#Q66"`).
///
/// Root server 2.x writes every non-standard field of a search result (`bus_lines`, `train_lines`, `zone`, the
/// contacts, custom fields) as `prompt#@-@#value`, and `observer_only#@-@#prompt#@-@#value` for a hidden field
/// shown to an observer (`simple_other_fields=1` turns this off). Its admin page saved such text back, so
/// databases carried to 3.x and 4.x hold it (even doubled, `Bus Lines#@-@#Bus Lines#@-@#…`), and those servers
/// return stored values as they are. BMLTKit puts the value in the typed field (`busLines`) or in
/// `extraFields`, and keeps the prompt and the server's exact text here, in `BMLTMeeting.fieldPrompts`.
/// An unchanged field is written back as the exact text the server sent; an edited one as the new value alone,
/// as the server's own editors write it.
/// ```swift
/// if let prompted = meeting.fieldPrompts["bus_lines"] {
///     print(prompted.prompt, ":", prompted.value)      // "Bus Lines : Q66"
/// }
/// ```
public struct BMLTPromptedValue: Sendable, Hashable, Codable {
    /// The prompt, e.g. "Bus Lines" or "ÖPNV" (the part before the last `#@-@#`).
    public var prompt: String
    /// The value, without the prompt (the part after the last `#@-@#`, trimmed).
    public var value: String
    /// The text exactly as the server sent it.
    public var wireText: String
    /// Whether the server marked the field `observer_only` (a hidden field shown to a logged-in observer).
    public var isObserverOnly: Bool

    /// A prompted value.
    /// ```swift
    /// let bus = BMLTPromptedValue(prompt: "Bus Lines", value: "Q66", wireText: "Bus Lines#@-@#Q66")
    /// ```
    public init(prompt: String, value: String, wireText: String, isObserverOnly: Bool = false) {
        self.prompt = prompt
        self.value = value
        self.wireText = wireText
        self.isObserverOnly = isObserverOnly
    }

    /// The separator root servers write between a prompt and a value.
    /// ```swift
    /// let raw = "Bus Lines" + BMLTPromptedValue.separator + "Q66"
    /// ```
    public static let separator = "#@-@#"

    /// The prompt and value of `text`, or `nil` when it holds no separator. The value is what follows the last
    /// separator (servers strip earlier ones the same way), the prompt what comes just before it.
    /// ```swift
    /// BMLTPromptedValue(parsing: "ÖPNV#@-@#U1, U8")?.value   // "U1, U8"
    /// ```
    public init?(parsing text: String) {
        guard Self.mayHoldSeparator(text) else { return nil }
        // The parts are found in the UTF-8 bytes (no `NSString`): decoding meets these by the hundred.
        let found: (first: String, prompt: String, value: String, count: Int)? = {
            var text = text
            return text.withUTF8 { bytes in
                var starts: [Int] = []           // byte offset of each separator
                var index = 0
                while index + 5 <= bytes.count {
                    if bytes[index] == 0x23, bytes[index + 1] == 0x40, bytes[index + 2] == 0x2D, bytes[index + 3] == 0x40,
                       bytes[index + 4] == 0x23 {
                        starts.append(index)
                        index += 5
                    } else {
                        index += 1
                    }
                }
                guard let last = starts.last else { return nil }
                func part(_ from: Int, _ to: Int) -> String {
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
                }
                let promptStart = starts.count >= 2 ? starts[starts.count - 2] + 5 : 0
                return (part(0, starts[0]), part(promptStart, last), part(last + 5, bytes.count), starts.count + 1)
            }
        }()
        guard let found else { return nil }
        self.init(prompt: Self.trimmed(found.prompt), value: Self.trimmed(found.value), wireText: text,
                  isObserverOnly: found.count >= 3 && found.first.trimmedSpaces == "observer_only")
    }

    /// Without white space or line breaks at the ends (the plain case without `NSString`).
    private static func trimmed(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return text }
        if first.isASCII, last.isASCII, first.value > 0x20, last.value > 0x20 { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A quick test for a `#` byte, so most values are never searched for the whole separator.
    static func mayHoldSeparator(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0x23, bytes.count) != nil
        } ?? text.utf8.contains(0x23)
    }
}

extension BMLTMeeting {
    /// The fields the server wrote as `prompt#@-@#value`, by wire key (`"bus_lines"`, a custom field's key): the
    /// prompt, the value and the exact text. Empty for most meetings. The typed field (or `extraFields`) holds
    /// the value alone.
    /// ```swift
    /// for (key, prompted) in meeting.fieldPrompts { print(key, prompted.prompt, prompted.value) }
    /// ```
    public var fieldPrompts: [String: BMLTPromptedValue] {
        get { promptStorage ?? [:] }
        set { promptStorage = newValue.isEmpty ? nil : newValue }
    }

    /// The prompt the server wrote before a field's value (`"Bus Lines"` for `bus_lines`), if it wrote one.
    /// ```swift
    /// let label = meeting.prompt(for: "bus_lines") ?? "Bus lines"
    /// ```
    public func prompt(for key: String) -> String? { promptStorage?[key]?.prompt }

    /// Records `text` for `key`: a prompted value keeps its prompt and returns the value alone (`nil` when the
    /// value is empty); any other text clears an earlier prompt for the key and is returned as it is.
    mutating func takePrompt(_ key: String, _ text: String?) -> String? {
        guard let text, let prompted = BMLTPromptedValue(parsing: text) else {
            if promptStorage != nil { promptStorage![key] = nil; if promptStorage!.isEmpty { promptStorage = nil } }
            return text
        }
        if promptStorage == nil { promptStorage = [:] }
        promptStorage![key] = prompted
        return prompted.value.isEmpty ? nil : prompted.value
    }
}
