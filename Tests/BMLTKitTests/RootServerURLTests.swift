import Foundation
import Testing
@testable import BMLTKit

@Suite("Root server URL rules")
struct RootServerURLTests {
    @Test("pasted suffixes, slashes, queries and case are normalised", arguments: [
        ("https://example.org/main_server", "https://example.org/main_server"),
        ("https://example.org/main_server/", "https://example.org/main_server"),
        ("https://example.org/main_server///", "https://example.org/main_server"),
        ("  https://Example.ORG/main_server  ", "https://example.org/main_server"),
        ("https://example.org/main_server/client_interface/json/?switcher=GetServerInfo", "https://example.org/main_server"),
        ("https://example.org/main_server/client_interface/json/", "https://example.org/main_server"),
        ("https://example.org/main_server/local_server/server_admin/json.php", "https://example.org/main_server"),
        ("https://example.org/main_server/local_server/server_admin/json.php?admin_action=login", "https://example.org/main_server"),
        ("https://example.org/main_server/api/v1/meetings", "https://example.org/main_server"),
        ("https://example.org//main_server//client_interface", "https://example.org/main_server"),
        ("https://example.org", "https://example.org"),
        ("https://example.org:8443/bmlt/main_server/#top", "https://example.org:8443/bmlt/main_server"),
        ("HTTPS://example.org/Main_Server/CLIENT_INTERFACE/json", "https://example.org/Main_Server"),
    ])
    func normalises(input: String, expected: String) throws {
        let url = try RootServerURL.normalize(URL(string: input.trimmingCharacters(in: .whitespaces))!, allowsInsecureHTTP: false)
        #expect(url.absoluteString == expected)
    }

    @Test("http is refused for other hosts unless allowed")
    func refusesInsecureHTTP() throws {
        #expect(throws: BMLTError.insecureURLRefused(host: "example.org")) {
            try RootServerURL.normalize(URL(string: "http://example.org/main_server")!, allowsInsecureHTTP: false)
        }
        let allowed = try RootServerURL.normalize(URL(string: "http://example.org/main_server")!, allowsInsecureHTTP: true)
        #expect(allowed.absoluteString == "http://example.org/main_server")
    }

    // Only URL text: nothing binds or connects to 127.1.2.3 (which macOS's lo0 would refuse).
    @Test("http is always allowed to loopback", arguments: ["127.0.0.1", "127.1.2.3", "localhost", "[::1]"])  // portability: address only
    func allowsLoopback(host: String) throws {
        let url = try RootServerURL.normalize(URL(string: "http://\(host):8000/main_server/")!, allowsInsecureHTTP: false)
        #expect(url.absoluteString == "http://\(host):8000/main_server")
    }

    @Test("not a web address is an invalid URL", arguments: ["ftp://example.org/main_server", "example.org/main_server", "https:///x", "mailto:a@b.c"])
    func rejectsNonWebURLs(text: String) {
        #expect(throws: BMLTError.self) {
            try RootServerURL.normalize(URL(string: text)!, allowsInsecureHTTP: false)
        }
    }

    @Test("query values keep + & = and non-ASCII text")
    func encodesQueryValues() {
        let url = RootServerURL.url(root: URL(string: "https://example.org/main_server")!, path: "client_interface/json/",
                                    query: [URLQueryItem(name: "SearchString", value: "a+b & c=d é"),
                                            URLQueryItem(name: "services[]", value: "5")])
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)!.queryItems!
        #expect(items.first { $0.name == "SearchString" }?.value == "a+b & c=d é")
        #expect(url.absoluteString.contains("services%5B%5D=5"))
        #expect(items.first { $0.name == "services[]" }?.value == "5")
        #expect(url.absoluteString.contains("a%2Bb%20%26%20c%3Dd%20%C3%A9"))
    }

    @Test("a connection with an unusable URL reports it on the first call")
    @MainActor func invalidURLFailsValidation() async {
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: URL(string: "http://example.org/main_server")!,
                                        configuration: BMLTConfiguration(notificationCenter: NotificationCenter(), eventMonitors: [recorder]))
        await #expect(throws: BMLTError.insecureURLRefused(host: "example.org")) { try await connection.validate() }
        #expect(recorder.names == ["progress.didStart", "server.validated", "error", "progress.didStop"])
        #expect(connection.lastError == .insecureURLRefused(host: "example.org"))
    }
}

/// The request URL put together as text gives exactly what `URLComponents` gives.
@Suite("Request URLs built as text")
struct RequestURLTextTests {
    @Test("the same URL as URLComponents for plain, ported, escaped, IPv6, user-info and odd roots and queries")
    func sameAsComponents() {
        let roots = ["https://example.org/main_server", "http://127.0.0.1:8000/main_server", "https://example.org",
                     "https://example.org/a%20b/main_server", "http://[::1]:8080/root", "https://user@example.org/x",
                     "https://example.org/main_server/", "https://example.org/m?x=1", "https://example.org/m#f",
                     "https://bücher.example/main_server", "https://example.org/ma%C3%B1ana"]
        let paths = ["client_interface/json/", "api/v1/meetings/12", "local_server/server_admin/json.php", "GetLangs.php"]
        let queries: [[URLQueryItem]] = [
            [],
            [URLQueryItem(name: "switcher", value: "GetSearchResults")],
            [URLQueryItem(name: "services[]", value: "1"), URLQueryItem(name: "SearchString", value: "Café & Co = 100% #1+2 ñ"),
             URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "weekdays", value: "-1,2"), URLQueryItem(name: "", value: "")],
        ]
        var checked = 0
        for text in roots {
            guard let root = URL(string: text) else { continue }
            for path in paths {
                for query in queries {
                    let url = RootServerURL.url(root: root, path: path, query: query)
                    let expected = RootServerURL.viaComponents(root: root, path: path, query: query)
                    #expect(url.absoluteString == expected.absoluteString, "\(text) + \(path)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 100)
    }

    @Test("remembered request URLs are the ones RootServerURL builds, for every root, the first time and the next, past the capacity too")
    func rememberedURLs() {
        let roots = ["https://example.org/main_server", "http://127.0.0.1:8000/main_server", "https://example.org/m?x=1",
                     "https://example.org/main_server/", "http://[::1]:8080/root", "https://example.org/a%20b/main_server"]
        let paths = ["client_interface/json/", "api/v1/meetings/12", "GetLangs.php", "odd path/é"]
        let queries: [[URLQueryItem]] = [[], [URLQueryItem(name: "switcher", value: "GetFormats")],
                                         [URLQueryItem(name: "SearchString", value: "Café & Co"), URLQueryItem(name: "flag", value: nil)]]
        let urls = RequestURLs(capacity: 5)
        var checked = 0
        for _ in 0..<2 {
            for text in roots {
                let root = URL(string: text)!
                for path in paths {
                    for query in queries {
                        let expected = RootServerURL.url(root: root, path: path, query: query).absoluteString
                        #expect(urls.url(root: root, path: path, query: query).absoluteString == expected, "\(text) + \(path)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 144)
    }

    @Test("query encoding byte by byte gives what addingPercentEncoding gives for the same allowed set")
    func encodingMatchesFoundation() {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~,:/")
        var texts = ["", "GetSearchResults", "services[]", "a+b & c=d é", "100% #1", "-._~,:/", "Café 🇩🇪 ñ 中文 \u{0}\t\n",
                     "weekdays=-1,2", "\"quoted\" 'single' <tag>?", "%41", String(repeating: "ü", count: 40)]
        // Every single byte of ASCII, and random mixes of ASCII, Latin, CJK and emoji.
        texts += (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        var generator = SystemRandomNumberGenerator()
        let pool = Array("aZ09 -._~,:/+&=#%?[]é中🙂\u{7F}\u{1}")
        for _ in 0..<500 {
            texts.append(String((0..<Int.random(in: 0...12, using: &generator)).map { _ in pool.randomElement(using: &generator)! }))
        }
        for text in texts {
            #expect(RootServerURL.encode(text) == text.addingPercentEncoding(withAllowedCharacters: allowed), "\(text.debugDescription)")
        }
    }
}
