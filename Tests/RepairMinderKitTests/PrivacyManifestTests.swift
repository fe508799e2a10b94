import Foundation
import Testing

/// The SDK's and the screens' privacy manifests (`PrivacyInfo.xcprivacy`, App Store review)
/// against their sources: every required-reason API the sources use is declared with a reason,
/// and nothing is declared that the sources do not use (issue 52, item 3).
@Suite struct PrivacyManifestTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Apple's required-reason API categories ("Describing use of required reason API"), each
    /// with the names that use it in Swift.
    static let categories: [(category: String, uses: String)] = [
        ("NSPrivacyAccessedAPICategoryUserDefaults", #"\bUserDefaults\b|\bNSUserDefaults\b"#),
        ("NSPrivacyAccessedAPICategoryFileTimestamp",
         #"\bcreationDate\b|\bmodificationDate\b|\bcontentModificationDate|\bcreationDateKey\b|\bgetattrlist\b|\bf?l?stat\(|\bfileModificationDate\b"#),
        ("NSPrivacyAccessedAPICategorySystemBootTime", #"\bsystemUptime\b|\bmach_absolute_time\b"#),
        ("NSPrivacyAccessedAPICategoryDiskSpace", #"volume(?:Available|Total)Capacity|systemFreeSize|\bsystemSize\b|\bf?statv?fs\("#),
        ("NSPrivacyAccessedAPICategoryActiveKeyboards", #"\bactiveInputModes\b"#),
    ]

    /// The modules that ship a manifest, and their sources.
    static let modules = ["Sources/RepairMinderKit", "Apps/Sources/RepairMinderUI"]

    /// The categories `folder`'s Swift sources use, outside comments. Simple word boundaries:
    /// Unicode's would take `processInfo.systemUptime` as one word.
    static func used(in folder: URL) throws -> Set<String> {
        var found = Set<String>()
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let code = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for (category, uses) in categories where code.contains(try Regex(uses).wordBoundaryKind(.simple)) { found.insert(category) }
        }
        return found
    }

    /// The manifest's declared categories, each with its reasons.
    static func declared(in folder: URL) throws -> [String: [String]] {
        let data = try Data(contentsOf: folder.appendingPathComponent("PrivacyInfo.xcprivacy"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        #expect((plist["NSPrivacyTrackingDomains"] as? [String])?.isEmpty == true)
        let types = try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: types.compactMap { entry in
            (entry["NSPrivacyAccessedAPIType"] as? String).map { ($0, entry["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? []) }
        })
    }

    @Test(arguments: modules)
    func everyRequiredReasonAPIIsDeclaredWithAReason(module: String) throws {
        let folder = Self.root.appendingPathComponent(module)
        let used = try Self.used(in: folder), declared = try Self.declared(in: folder)
        #expect(used.subtracting(declared.keys).sorted() == [], "used in \(module) but not declared in its PrivacyInfo.xcprivacy")
        #expect(Set(declared.keys).subtracting(used).sorted() == [], "declared in \(module)'s manifest but not used")
        for (category, reasons) in declared {
            #expect(!reasons.isEmpty && reasons.allSatisfy { $0.wholeMatch(of: /[0-9A-F]{4}\.[0-9]/) != nil }, "\(category): \(reasons)")
        }
    }

    /// A planted use is found: the scan is not blind.
    @Test func aPlantedUseIsFound() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("privacy-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "let up = ProcessInfo.processInfo.systemUptime\n// UserDefaults in a comment is no use\n"
            .write(to: folder.appendingPathComponent("Planted.swift"), atomically: true, encoding: .utf8)
        let found = try Self.used(in: folder)
        #expect(found == ["NSPrivacyAccessedAPICategorySystemBootTime"], "\(found)")
    }
}
