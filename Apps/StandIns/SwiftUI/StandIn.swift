/// Declaration-only stand-in of SwiftUI for type-checking the screens on Linux (StandIns/README.md).
@_exported import Combine
@_exported import Foundation
@_exported import Observation
import UIKit

/// Stops: a stand-in is for the compiler, never for running.
@usableFromInline func standIn(_ function: StaticString = #function) -> Never {
    fatalError("\(function) is a declaration-only stand-in of Apple's SwiftUI (Linux type-checking)")
}
