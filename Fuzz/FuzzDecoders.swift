// libFuzzer entry point over BMLTKit's decoders. Built by Fuzz/run (not by `swift build`): the library's
// sources are compiled into the same module so the internal decoders are reachable.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    FuzzTargets.run(data)
    return 0
}

enum FuzzTargets {
    /// Feeds the bytes to every decoder entry point. Any outcome but a crash (or a sanitizer report) is fine:
    /// each must either decode or throw a `BMLTError`.
    static func run(_ data: Data) {
        let reply = HTTPReply(data: data, statusCode: 200, headers: [:], url: nil)
        _ = try? JSONScanner.parse(data)
        if let value = try? WireValue.parse(data, what: .request) {
            _ = try? WireServerInfo.decode(value)
            _ = try? WireFormat.decodeList(value)
            _ = try? WireServiceBody.decodeList(value)
            _ = try? WireLanguages.decode(value)
            touch(value)
        }
        _ = try? WireReply.json(reply, what: .request)
        for status in [401, 404, 422, 500] {
            _ = try? WireReply.checkStatus(HTTPReply(data: data, statusCode: status, headers: [:], url: nil))
        }
        _ = try? WireContactReply.decode(reply)
        let text = String(decoding: data.prefix(256), as: UTF8.self)
        _ = WireTime.timeOfDay(text)
        _ = WireTime.duration(text)
        _ = WireServerInfo.versionInt(from: text)
        _ = WireURL.parse(text)
        _ = WireContactReply.isAcceptableSender(text)
        FuzzReadAdminTargets.run(data)
        FuzzExtraTargets.run(data)
        FuzzJoinTargets.run(data)
    }

    /// Every lenient accessor on every node.
    static func touch(_ value: WireValue) {
        _ = (value.string, value.rawString, value.int, value.double, value.bool, value.list)
        switch value {
        case .array(let elements): elements.prefix(64).forEach(touch)
        case .object(let members): members.values.prefix(64).forEach(touch)
        default: break
        }
    }
}
