import Foundation

/// The REST admin API `<root>/api/v1/...`.
enum DemoRESTRoutes {
    static func route(_ request: DemoRequest, _ store: DemoStore) -> DemoResponse {
        DemoResponse.prettyMessage("", status: 404)
    }
}
