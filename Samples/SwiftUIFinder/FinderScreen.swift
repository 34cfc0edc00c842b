#if canImport(SwiftUI) && canImport(MapKit)
import BMLTKit
import MapKit
import SwiftUI

/// A finder screen: the map of the nearest meetings over the list of today's, a progress indicator while either
/// search runs, and the error. Each view reads its own query of the one model.
struct FinderScreen: View {
    @State private var model: FinderModel

    init(model: FinderModel) {
        _model = State(initialValue: model)
    }

    var body: some View {
        VStack(spacing: 0) {
            if let error = model.error {
                Text(error.localizedDescription).foregroundStyle(.red).padding()
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

/// The screen on the embedded demo server: the previews need no network.
struct FinderScreen_Previews: PreviewProvider {
    static var previews: some View {
        FinderScreen(model: .demo())
    }
}
#endif
