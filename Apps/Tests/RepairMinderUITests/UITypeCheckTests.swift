#if os(Linux)
import Foundation
import Testing

/// The screens compile on Linux against declaration-only stand-ins of SwiftUI and the other
/// Apple frameworks (StandIns/README.md). These tests show that the stand-ins catch mistakes:
/// each plants one mistake in a copy of `Sources/RepairMinderUI` and expects the compiler,
/// with the modules `swift build` made, to refuse the screens with the expected diagnostic.
/// The copy's `#available(iOS …)` / `@available(iOS …)` also check the stand-ins' availability
/// domains up to that version (`AvailabilityDomains`), which are dynamic here, so an API newer
/// than the deployment target is refused outside its `if #available`, as Xcode refuses it.
@Suite(.serialized) struct UITypeCheckTests {
    /// The unchanged screens type-check without a warning. Warnings count: Apple marks much of
    /// SwiftUI `@preconcurrency`, which turns Swift 6's data-race errors into warnings.
    @Test func theScreensTypeCheck() throws {
        let result = try Self.typeCheckScreens()
        #expect(result.status == 0, "\(result.output)")
    }

    /// The mistake issue 28 found: a generic model's method passed where `CodeField` wants a
    /// `@MainActor` closure (which Swift 6 makes `@Sendable`).
    @Test func refusesANonSendableMethodWhereAMainActorClosureIsWanted() throws {
        let result = try Self.typeCheckScreens(
            in: "Components/EmailCodeView.swift",
            replacing: #"CodeField(title: "6-digit code", code: model.code) { await model.codeChanged($0) }"#,
            with: #"CodeField(title: "6-digit code", code: model.code, onChange: model.codeChanged)"#)
        #expect(result.status != 0)
        #expect(result.output.contains("converting non-Sendable function value to '@MainActor @Sendable (String) async -> Void'"), "\(result.output)")
    }

    /// A modifier called with the wrong argument type: a `Bool` where `sheet` takes a `Binding<Bool>`.
    @Test func refusesAWrongModifierSignature() throws {
        let result = try Self.typeCheckScreens(
            in: "RepairMinderRootView.swift",
            replacing: ".sheet(isPresented: .constant(app.screen == .customerCompanySelection))",
            with: ".sheet(isPresented: app.screen == .customerCompanySelection)")
        #expect(result.status != 0)
        #expect(result.output.contains("cannot convert value of type 'Bool' to expected argument type 'Binding<Bool>'"), "\(result.output)")
    }

    /// A view's state changed off the main actor: views are main-actor isolated, as in Apple's SDK.
    @Test func refusesAMainActorViolation() throws {
        let result = try Self.typeCheckScreens(
            in: "Staff/QuarantineView.swift", replacing: "Task {\n                        isChecking = true",
            with: "Task.detached {\n                        isChecking = true")
        #expect(result.status != 0)
        #expect(result.output.contains("main actor-isolated property 'isChecking' can not be mutated from"), "\(result.output)")
    }

    // MARK: - Apple's declarations (issue 41)

    /// An iOS 18 API (`ASAuthorizationError.Code.matchedExcludedCredential`) used without its
    /// `if #available(iOS 18, *)`: the deployment target is iOS 17 (Package.swift).
    @Test func refusesAnIOS18APIWithoutAvailabilityCheck() throws {
        let result = try Self.typeCheckScreens(
            in: "Platform/AuthorizationSession.swift",
            replacing: "if #available(iOS 18.0, macOS 15.0, *), error.code == .matchedExcludedCredential {",
            with: "if error.code == .matchedExcludedCredential {")
        #expect(result.status != 0)
        #expect(result.output.contains("'matchedExcludedCredential' is only available in iOS_18_0"), "\(result.output)")
    }

    /// An iOS 17.4 API (`excludedCredentials`) used without its `if #available(iOS 17.4, *)`.
    @Test func refusesAnIOS17_4APIWithoutAvailabilityCheck() throws {
        let result = try Self.typeCheckScreens(
            in: "Platform/PlatformPasskeyAuthenticator.swift",
            replacing: "if #available(iOS 17.4, macOS 14.4, *) {", with: "do {")
        #expect(result.status != 0)
        #expect(result.output.contains("'excludedCredentials' is only available in iOS_17_4"), "\(result.output)")
    }

    /// An `@available(iOS 18, *)` declaration may use the iOS 18 API unguarded: the check is
    /// Apple's version order, not a ban.
    @Test func acceptsAnIOS18APIInAnIOS18Declaration() throws {
        let result = try Self.typeCheckScreens(
            in: "Platform/AuthorizationSession.swift",
            replacing: "extension PasskeyRequestEnd {\n    /// How a controller's error ended the request.",
            with: """
                extension PasskeyRequestEnd {
                    @available(iOS 18.0, macOS 15.0, *)
                    static func isAlreadyRegistered(_ error: ASAuthorizationError) -> Bool { error.code == .matchedExcludedCredential }
                    /// How a controller's error ended the request.
                """)
        #expect(result.status == 0, "\(result.output)")
    }

    /// The delegate conformance written for a nonisolated `ASAuthorizationControllerDelegate`
    /// (`@preconcurrency`, as before issue 41): Apple's protocol is `@MainActor`, so Xcode warns
    /// that the attribute does nothing, and warnings are refused.
    @Test func refusesAPreconcurrencyConformanceToAMainActorDelegate() throws {
        let result = try Self.typeCheckScreens(
            in: "Platform/AuthorizationSession.swift",
            replacing: "extension AuthorizationSession: ASAuthorizationControllerDelegate {",
            with: "extension AuthorizationSession: @preconcurrency ASAuthorizationControllerDelegate {")
        #expect(result.status != 0)
        #expect(result.output.contains("'@preconcurrency' on conformance to 'ASAuthorizationControllerDelegate' has no effect"), "\(result.output)")
    }

    /// A delegate conformance isolated to something other than the main actor (an actor of its
    /// own): Apple calls the delegate on the main actor, so its methods cannot live elsewhere.
    @Test func refusesANonMainActorDelegate() throws {
        let result = try Self.typeCheckScreens(
            in: "Platform/AuthorizationSession.swift",
            replacing: "extension PasskeyRequestEnd {",
            with: """
                actor ElsewhereDelegate: ASAuthorizationControllerPresentationContextProviding {
                    let window: ASPresentationAnchor
                    init(window: ASPresentationAnchor) { self.window = window }
                    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { window }
                }

                extension PasskeyRequestEnd {
                """)
        #expect(result.status != 0)
        #expect(result.output.contains("actor 'ElsewhereDelegate' cannot conform to global-actor-isolated protocol 'ASAuthorizationControllerPresentationContextProviding'"), "\(result.output)")
    }

    /// Apple's assertion `signature` is `Data!`: bound to a name without `if let`, it is a
    /// `Data?`, which the screens may not use as `Data` (with the old `Data` stand-in this
    /// compiled). Where the compiler forces it silently (`assertion.signature.base64URLEncoded()`)
    /// `ImplicitlyUnwrappedUseTests` refuses it.
    @Test func refusesAnImplicitlyUnwrappedSignatureUsedAsData() throws {
        let result = try Self.typeCheckScreens(
            in: "Platform/PlatformPasskeyAuthenticator.swift",
            replacing: """
                let authenticatorData = assertion.rawAuthenticatorData, let signature = assertion.signature,
                                    let userID = assertion.userID
                                else { throw PasskeyError.failed("the authenticator gave no signature") }
                """,
            with: """
                let authenticatorData = assertion.rawAuthenticatorData, let userID = assertion.userID
                                else { throw PasskeyError.failed("the authenticator gave no signature") }
                                let signature = assertion.signature
                """)
        #expect(result.status != 0)
        #expect(
            result.output.contains("value of optional type 'Data?' must be unwrapped to refer to member 'base64URLEncoded'"),
            "\(result.output)")
    }

    // MARK: - Harness

    struct Outcome {
        let status: Int32
        let output: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The build's module directory (beside this test binary), where the stand-ins and the SDK's
    /// modules are.
    static func modulesDirectory() throws -> URL {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = binary.deletingLastPathComponent()
        for _ in 0..<3 {
            let modules = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: modules.appendingPathComponent("SwiftUI.swiftmodule").path) { return modules }
            directory.deleteLastPathComponent()
        }
        throw TypeCheckProblem("no SwiftUI stand-in module near \(binary.path): run `swift build --package-path Apps --build-tests` first")
    }

    /// Type-checks a copy of the screens, with `old` replaced by `new` in `file` when given.
    static func typeCheckScreens(in file: String? = nil, replacing old: String = "", with new: String = "") throws -> Outcome {
        let sources = packageRoot.appendingPathComponent("Sources/RepairMinderUI")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("ui-typecheck-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: sources.path)
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            var text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            if relative == file {
                guard text.components(separatedBy: old).count == 2 else { throw TypeCheckProblem("\(relative) no longer has the line to change") }
                text = text.replacingOccurrences(of: old, with: new)
            }
            text = try AvailabilityDomains.current().addingDomainChecks(to: text)
            let target = copy.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: target, atomically: true, encoding: .utf8)
            files.append(target.path)
        }
        let modules = try modulesDirectory()
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-module-name", "RepairMinderUI", "-D", "SWIFTUI_STAND_IN",
            "-I", modules.path, "-module-cache-path", copy.appendingPathComponent("cache").path,
            // The stand-ins' availability domains, dynamic here (StandIns/StandInAvailability).
            "-enable-experimental-feature", "CustomAvailability", "-Xcc", "-DSTAND_IN_STRICT_AVAILABILITY",
            "-I", AvailabilityDomains.includeDirectory.path,
        ] + files
        let output = Pipe()
        compiler.standardOutput = output
        compiler.standardError = output
        try compiler.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        compiler.waitUntilExit()
        return Outcome(status: compiler.terminationStatus, output: text)
    }

    struct TypeCheckProblem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
#endif
