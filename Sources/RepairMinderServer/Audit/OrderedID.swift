import Foundation
import Synchronization

/// Identifiers that sort in the order they were made (within one process; across instances,
/// by wall clock): 16 hex digits of nanoseconds since 1970, 8 of a per-process counter, then 8
/// random ones. The activity log orders events of the same instant by them, so "newest first"
/// is the order they were written even when the clock does not move between two events.
enum OrderedID {
    private static let counter = Atomic<UInt32>(0)

    static func next() -> String {
        let nanoseconds = UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000_000))
        let sequence = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let random = UInt32.random(in: .min ... .max)
        return hex(nanoseconds, 16) + hex(UInt64(sequence), 8) + "-" + hex(UInt64(random), 8)
    }

    private static func hex(_ value: UInt64, _ digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
