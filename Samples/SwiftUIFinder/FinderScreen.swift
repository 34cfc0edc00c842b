#if canImport(SwiftUI) && canImport(MapKit)
import BMLTKit
import MapKit
import SwiftUI

/// A finder screen: the map of the nearest meetings over the list of today's, a progress indicator while either
/// search runs, and the error in the view's language. Each view reads its own query of the one model.
struct FinderScreen: View {
    @State private var model: FinderModel
    /// The view's locale: the app's, or the one a preview or a parent view sets with `.environment(\.locale, …)`.
    @Environment(\.locale) private var locale

    init(model: FinderModel) {
        _model = State(initialValue: model)
    }

    var body: some View {
        VStack(spacing: 0) {
            if let sentence = model.errorSentence(in: locale) {
                Text(sentence).foregroundStyle(.red).padding()
            }
            Map {
                ForEach(model.pins) { pin in
                    Marker(pin.name, coordinate: CLLocationCoordinate2D(latitude: pin.coordinate.latitude,
                                                                        longitude: pin.coordinate.longitude))
                }
            }
            List(model.list.meetings) { meeting in
                Text(meeting.name)
            }
        }
        .overlay {
            if model.isLoading { ProgressView() }
        }
        .task { await model.refresh() }
    }
}

/// The screen on the embedded demo server, and offline in Spanish (the error banner in the preview's locale): the
/// previews need no network.
struct FinderScreen_Previews: PreviewProvider {
    static var previews: some View {
        Group {
            FinderScreen(model: .demo())
            FinderScreen(model: .offline())
                .environment(\.locale, Locale(identifier: "es"))
                .previewDisplayName("Sin conexión (es)")
        }
    }
}
#endif
