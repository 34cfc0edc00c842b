import Foundation

/// The fixed parts of the demo data set: formats, service bodies, users and the towns of the fictional
/// "Cedar Lakes" metro area. Every name here is invented for this project.
enum DemoCatalog {
    typealias T = DemoFormat.Translation

    static func format(_ id: Int, _ world: String, _ type: String, en: (String, String, String), es: (String, String, String)) -> DemoFormat {
        DemoFormat(id: id, worldID: world, typeCode: type,
                   translations: ["en": T(key: en.0, name: en.1, description: en.2), "es": T(key: es.0, name: es.1, description: es.2)])
    }

    /// Format ids with a fixed meaning in the generator and the REST layer.
    enum ID {
        static let beginners = 1, basicText = 2, closed = 3, discussion = 4, spanish = 5, itWorks = 6, justForToday = 7
        static let open = 8, speaker = 9, stepStudy = 10, wheelchair = 11, nonSmoking = 12, women = 13, men = 14
        static let childrenWelcome = 15, hybrid = 16, virtual = 17, temporarilyClosed = 18, guidingPrinciples = 19
        static let rotating = 20
        /// Formats the REST API leaves out of `formatIds` (implied by venueType / temporarilyVirtual).
        static let implied: Set<Int> = [hybrid, virtual, temporarilyClosed]
    }

    static let formats: [DemoFormat] = [
        format(1, "BEG", "FC3", en: ("B", "Beginners", "This demo meeting focuses on the needs of newcomers."),
               es: ("PR", "Principiantes", "Esta reunión de demostración se centra en los recién llegados.")),
        format(2, "BT", "FC1", en: ("BT", "Basic Text", "Discussion of the Basic Text."),
               es: ("TB", "Texto Básico", "Discusión del Texto Básico.")),
        format(3, "CLOSED", "O", en: ("C", "Closed", "Closed to non-addicts."),
               es: ("CE", "Cerrada", "Cerrada a los no adictos.")),
        format(4, "DISC", "FC1", en: ("D", "Discussion", "Members share in turn on a topic."),
               es: ("DI", "Discusión", "Los miembros comparten sobre un tema.")),
        format(5, "LANG", "LANG", en: ("ES", "Spanish", "This meeting is held in Spanish."),
               es: ("ES", "Español", "Esta reunión se realiza en español.")),
        format(6, "IW", "FC1", en: ("IW", "It Works", "Study of It Works: How and Why."),
               es: ("FU", "Funciona", "Estudio de Funciona: cómo y por qué.")),
        format(7, "JFT", "FC1", en: ("JT", "Just for Today", "Reading from the daily meditation book."),
               es: ("SH", "Sólo por Hoy", "Lectura del libro de meditaciones diarias.")),
        format(8, "OPEN", "O", en: ("O", "Open", "Open to addicts and non-addicts alike."),
               es: ("A", "Abierta", "Abierta a adictos y no adictos por igual.")),
        format(9, "SPK", "FC1", en: ("SP", "Speaker", "One member shares their story."),
               es: ("OR", "Orador", "Un miembro comparte su historia.")),
        format(10, "STEP", "FC1", en: ("ST", "Step Study", "Study of the Twelve Steps."),
               es: ("PA", "Estudio de Pasos", "Estudio de los Doce Pasos.")),
        format(11, "WCHR", "FC2", en: ("WC", "Wheelchair", "Wheelchair accessible."),
               es: ("SR", "Silla de Ruedas", "Accesible en silla de ruedas.")),
        format(12, "NS", "FC3", en: ("NS", "Non-Smoking", "Smoking is not allowed."),
               es: ("NF", "No Fumar", "No se permite fumar.")),
        format(13, "W", "FC3", en: ("W", "Women", "Women only."), es: ("M", "Mujeres", "Sólo mujeres.")),
        format(14, "M", "FC3", en: ("M", "Men", "Men only."), es: ("H", "Hombres", "Sólo hombres.")),
        format(15, "CW", "FC3", en: ("CW", "Children Welcome", "Well-behaved children are welcome."),
               es: ("NB", "Niños Bienvenidos", "Los niños son bienvenidos.")),
        format(16, "HYBR", "FC2", en: ("HY", "Hybrid", "Meets in person and online at the same time."),
               es: ("HI", "Híbrida", "Se reúne en persona y en línea a la vez.")),
        format(17, "VM", "FC2", en: ("VM", "Virtual Meeting", "Meets online."),
               es: ("VM", "Reunión Virtual", "Se reúne en línea.")),
        format(18, "TC", "FC2", en: ("TC", "Temporarily Closed", "The facility is temporarily closed; meeting online for now."),
               es: ("TC", "Cerrada Temporalmente", "El local está cerrado temporalmente; por ahora en línea.")),
        format(19, "GP", "FC1", en: ("GP", "Guiding Principles", "Study of the Traditions book. (Unused in the demo data.)"),
               es: ("PG", "Principios Guía", "Estudio del libro de las Tradiciones.")),
        format(20, "", "FC1", en: ("RF", "Rotating Format", "The format changes from week to week."),
               es: ("FR", "Formato Rotativo", "El formato cambia cada semana.")),
    ]

    static let users: [DemoUser] = [
        DemoUser(id: 1, username: BMLTDemoServer.adminUsername, type: "admin", displayName: "Demo Server Administrator",
                 description: "The demo administrator (demo data only).", email: "", ownerID: nil,
                 password: BMLTDemoServer.adminPassword),
        DemoUser(id: 2, username: "northshore-admin", type: "serviceBodyAdmin", displayName: "Northshore Demo Region Administrator",
                 description: "", email: "", ownerID: 1, password: nil),
        DemoUser(id: 3, username: "riverbend-admin", type: "serviceBodyAdmin", displayName: "Riverbend Demo Region Administrator",
                 description: "", email: "", ownerID: 1, password: nil),
        DemoUser(id: 4, username: "demo-observer", type: "observer", displayName: "Demo Helpline Observer",
                 description: "", email: "", ownerID: 1, password: nil),
    ]

    static func body(_ id: Int, _ parent: Int, _ name: String, _ type: String, _ world: String, admin: Int, _ description: String) -> DemoServiceBody {
        let slug = name.lowercased().split(separator: " ").first.map(String.init) ?? "demo"
        return DemoServiceBody(id: id, parentID: parent, name: name, description: description, type: type,
                               url: "https://\(slug).demo.bmlt.invalid/", helpline: "555-01\(String(format: "%02d", id % 100))",
                               worldID: world, adminUserID: admin, assignedUserIDs: admin == 1 ? [4] : [admin, 4])
    }

    static let serviceBodies: [DemoServiceBody] = [
        body(1, 0, "Cedar Lakes Demo Zone", "ZF", "ZF900", admin: 1, "Demo data: the zone of the fictional Cedar Lakes metro area."),
        body(2, 1, "Northshore Demo Region", "RS", "RG901", admin: 2, "Demo data: the northern half of Cedar Lakes."),
        body(3, 1, "Riverbend Demo Region", "RS", "RG902", admin: 3, "Demo data: the southern half of Cedar Lakes."),
        body(1001, 2, "Harbor Area Service", "AS", "AR90101", admin: 2, "Demo data: Harbor Point and the lakefront."),
        body(1002, 2, "Cedar Falls Area Service", "AS", "AR90102", admin: 2, "Demo data: Cedar Falls and its suburbs."),
        body(1003, 2, "Maple Grove Area Service", "AS", "AR90103", admin: 2, "Demo data: Maple Grove and Pine Hollow."),
        body(1004, 2, "Lakeview Area Service", "AS", "AR90104", admin: 2, "Demo data: Lakeview and Gull Harbor."),
        body(1005, 3, "Riverbend Central Area", "AS", "AR90205", admin: 3, "Demo data: downtown Riverbend."),
        body(1006, 3, "Stonebridge Area Service", "AS", "AR90206", admin: 3, "Demo data: Stonebridge and Millbrook."),
        body(1007, 3, "Willow Creek Area Service", "AS", "AR90207", admin: 3, "Demo data: Willow Creek and Fairhaven."),
        body(1008, 3, "Prairie Hills Area Service", "AS", "AR90208", admin: 3, "Demo data: the Prairie Hills towns."),
        body(1009, 1, "Cedar Lakes Online Area", "AS", "AR90009", admin: 1, "Demo data: virtual meetings of the whole zone."),
    ]

    /// A town of the demo metro area: centre, county, state, zip prefix, neighbourhoods.
    struct Town: Sendable {
        var name: String
        var county: String
        var province: String
        var zip: Int
        var latitude: Double
        var longitude: Double
        var neighborhoods: [String]
    }

    /// Towns per area (service body id). The metro centre is about 44.98 N, -93.27 W; towns spread over ~50 km.
    static let towns: [Int: [Town]] = [
        1001: [Town(name: "Harbor Point", county: "Lakeshore", province: "NL", zip: 55801, latitude: 45.152, longitude: -93.301, neighborhoods: ["Old Port", "Dockside"]),
               Town(name: "Gull Harbor", county: "Lakeshore", province: "NL", zip: 55803, latitude: 45.171, longitude: -93.218, neighborhoods: ["Lighthouse", ""])],
        1002: [Town(name: "Cedar Falls", county: "Cedar", province: "NL", zip: 55810, latitude: 45.091, longitude: -93.402, neighborhoods: ["Millrace", "Upper Falls", ""]),
               Town(name: "Birchwood", county: "Cedar", province: "NL", zip: 55812, latitude: 45.062, longitude: -93.455, neighborhoods: [""])],
        1003: [Town(name: "Maple Grove Junction", county: "Cedar", province: "NL", zip: 55820, latitude: 45.118, longitude: -93.118, neighborhoods: ["Station Square", ""]),
               Town(name: "Pine Hollow", county: "Cedar", province: "NL", zip: 55822, latitude: 45.143, longitude: -93.062, neighborhoods: [""])],
        1004: [Town(name: "Lakeview", county: "Lakeshore", province: "NL", zip: 55830, latitude: 45.048, longitude: -93.201, neighborhoods: ["Bayside", "North Beach"]),
               Town(name: "Elm Bluff", county: "Lakeshore", province: "NL", zip: 55832, latitude: 45.021, longitude: -93.142, neighborhoods: [""])],
        1005: [Town(name: "Riverbend", county: "Riverside", province: "SR", zip: 55901, latitude: 44.978, longitude: -93.265, neighborhoods: ["Downtown", "Warehouse District", "Riverfront", "Old Town"])],
        1006: [Town(name: "Stonebridge", county: "Riverside", province: "SR", zip: 55910, latitude: 44.921, longitude: -93.398, neighborhoods: ["Quarry Hill", ""]),
               Town(name: "Millbrook", county: "Riverside", province: "SR", zip: 55912, latitude: 44.889, longitude: -93.451, neighborhoods: [""])],
        1007: [Town(name: "Willow Creek", county: "Prairie", province: "SR", zip: 55920, latitude: 44.902, longitude: -93.161, neighborhoods: ["Creekside", ""]),
               Town(name: "Fairhaven", county: "Prairie", province: "SR", zip: 55922, latitude: 44.867, longitude: -93.098, neighborhoods: [""])],
        1008: [Town(name: "Prairie Hills", county: "Prairie", province: "SR", zip: 55930, latitude: 44.812, longitude: -93.252, neighborhoods: ["Sunrise", ""]),
               Town(name: "Oak Meadow", county: "Prairie", province: "SR", zip: 55932, latitude: 44.795, longitude: -93.334, neighborhoods: [""])],
        1009: [Town(name: "Riverbend", county: "Riverside", province: "SR", zip: 55901, latitude: 44.978, longitude: -93.265, neighborhoods: [""])],
    ]

    static let streets = ["Main St", "Lake Ave", "Cedar Rd", "Harbor Blvd", "Maple St", "Oak St", "Birch Ln", "River Rd",
                          "Elm St", "Prairie Ave", "Mill St", "Church St", "Park Ave", "Station Rd", "Willow Way", "Bluff Dr"]
    static let venues = ["St. Brendan's Church", "Community Center", "Public Library, Room B", "Grace Fellowship Hall",
                         "Unity Church", "Senior Center", "Memorial Hospital, Conference Room 2", "YMCA", "Friends Meeting House",
                         "Parish Hall", "Recovery Clubhouse", "Union Hall"]
    static let nameStarts = ["Hope", "Serenity", "Freedom", "New Beginnings", "Clean and Serene", "Just for Today",
                             "Miracles Happen", "Back to Basics", "Keep Coming Back", "Surrender", "Spiritual Awakening",
                             "Lifeline", "Sunrise Recovery", "Lunch Bunch", "Night Owls", "Steps to Freedom", "Gratitude",
                             "Came to Believe", "Open Arms", "Never Alone"]
}
