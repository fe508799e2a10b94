/// Declaration-only stand-in of Network for type-checking the screens on Linux (StandIns/README.md).
@_exported import Foundation

/// Stops: a stand-in is for the compiler, never for running.
@usableFromInline func standIn(_ function: StaticString = #function) -> Never {
    fatalError("\(function) is a declaration-only stand-in of Apple's Network (Linux type-checking)")
}
