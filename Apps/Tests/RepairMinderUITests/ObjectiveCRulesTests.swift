import Foundation
import SwiftParser
import SwiftSyntax
import Testing

/// Rules Apple's compiler enforces for Objective-C, which the stand-ins cannot express: Linux has
/// no Objective-C, so the stand-ins' Objective-C protocols are plain Swift protocols and the
/// compiler here takes what Xcode refuses (issue 52, item 1: `AuthorizationSession` was a generic
/// class adopting the passkey delegate protocols in extensions, and did not build in Xcode).
/// Checked on the screens' syntax trees (swift-syntax), each finding named by file and line:
///
/// 1. a generic class adopts an Objective-C protocol in its own declaration, never in an
///    extension ("conformance of generic class to @objc protocol cannot be in an extension");
/// 2. an extension of a generic class has no `@objc` member, written or implied by implementing
///    a requirement of an Objective-C protocol the class adopts ("extensions of generic classes
///    cannot contain '@objc' members"), and a generic class has no written `@objc` member;
/// 3. only a class that inherits from `NSObject` adopts an Objective-C protocol ("non-class type
///    cannot conform to class protocol", "cannot declare conformance to 'NSObjectProtocol' in
///    Swift").
///
/// The stand-ins mark Objective-C protocols as Apple's headers make them: they refine
/// `NSObjectProtocol` (directly or through another), as every `@protocol` Apple declares with
/// `<NSObject>` does; `DelegateMethodNamesTests` reads the same marker.
@Suite struct ObjectiveCRulesTests {
    @Test func theScreensKeepTheObjectiveCRules() throws {
        let findings = try Self.findings(in: Self.files(under: "Sources/RepairMinderUI"))
        #expect(findings == [], "\(findings)")
    }

    /// The mistake Xcode found, planted: a generic class with the delegate in an extension.
    @Test func refusesTheGenericDelegateXcodeRefused() throws {
        let planted = """
            import AuthenticationServices

            final class Session<Answer: Sendable>: NSObject {}

            extension Session: ASAuthorizationControllerDelegate {
                func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
            }
            """
        #expect(
            try Self.findings(in: ["Planted.swift": planted]) == [
                "Planted.swift:5: the generic class Session adopts the Objective-C protocol ASAuthorizationControllerDelegate in an extension",
                "Planted.swift:6: authorizationController(controller:didCompleteWithError:) is @objc (a requirement of ASAuthorizationControllerDelegate) in an extension of the generic class Session",
            ])
    }

    @Test func refusesADelegateThatIsNoNSObject() throws {
        let planted = """
            import UserNotifications

            struct Notifications: UNUserNotificationCenterDelegate {}

            final class Plain {}
            extension Plain: UNUserNotificationCenterDelegate {}

            final class Fine: NSObject {}
            extension Fine: UNUserNotificationCenterDelegate {}

            final class Generic<T>: NSObject {
                @objc func tapped() {}
            }
            """
        #expect(
            try Self.findings(in: ["Planted.swift": planted]) == [
                "Planted.swift:3: Notifications adopts the Objective-C protocol UNUserNotificationCenterDelegate but is no class that inherits from NSObject",
                "Planted.swift:6: Plain adopts the Objective-C protocol UNUserNotificationCenterDelegate but is no class that inherits from NSObject",
                "Planted.swift:12: tapped() is @objc in the generic class Generic",
            ])
    }

    // MARK: The check

    /// The Swift files under `folder` (relative to `Apps/`), by path relative to it.
    static func files(under folder: String) throws -> [String: String] {
        let root = SwiftSourceText.appsRoot.appendingPathComponent(folder)
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files[relative] = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
        }
        return files
    }

    /// What the stand-ins declare: each Objective-C protocol with its requirements' names, and
    /// each class with its superclass.
    struct Declarations {
        var protocols: [String: (inherits: [String], requirements: Set<String>)] = [:]
        var superclasses: [String: String] = ["NSObject": ""]

        /// Protocols refining `NSObjectProtocol`, through any number of others.
        var objectiveCProtocols: [String: Set<String>] {
            var marked: [String: Set<String>] = [:]
            func isObjectiveC(_ name: String, _ seen: Set<String> = []) -> Bool {
                name == "NSObjectProtocol" || (!seen.contains(name) && (protocols[name]?.inherits.contains { isObjectiveC($0, seen.union([name])) } ?? false))
            }
            for (name, declaration) in protocols where isObjectiveC(name) { marked[name] = declaration.requirements }
            return marked
        }

        /// Whether `name` is `NSObject` or inherits from it.
        func inheritsFromNSObject(_ name: String) -> Bool {
            var current: String? = name, steps = 0
            while let type = current, steps < 50 {
                if type == "NSObject" { return true }
                current = superclasses[type]
                steps += 1
            }
            return false
        }
    }

    static let standIns: Declarations = {
        var declarations = Declarations()
        let files = (try? Self.files(under: "StandIns")) ?? [:]
        for source in files.values { DeclarationCollector.collect(Parser.parse(source: source), into: &declarations) }
        return declarations
    }()

    /// "file:line: what is wrong" for each breach of the rules in `files`, in file and line order.
    static func findings(in files: [String: String]) throws -> [String] {
        var declarations = standIns
        let trees = files.mapValues { Parser.parse(source: $0) }
        // The screens' own classes may be superclasses too.
        for tree in trees.values { DeclarationCollector.collect(tree, into: &declarations) }
        let objectiveC = declarations.objectiveCProtocols
        let types = trees.mapValues { tree in
            let collector = TypeCollector(viewMode: .sourceAccurate)
            collector.walk(tree)
            return collector.types
        }
        // The screens' generic classes, and every protocol each type adopts wherever it says so.
        let generics = Set(types.values.joined().filter { $0.kind == .class && $0.isGeneric }.map(\.name))
        let adopted = types.values.joined().reduce(into: [String: Set<String>]()) { $0[$1.name, default: []].formUnion($1.inherited) }
        var findings: [(file: String, line: Int, text: String)] = []
        for (file, tree) in trees {
            let converter = SourceLocationConverter(fileName: file, tree: tree)
            func line(_ node: some SyntaxProtocol) -> Int { node.startLocation(converter: converter, afterLeadingTrivia: true).line }
            for type in types[file] ?? [] {
                for name in type.inherited where objectiveC[name] != nil {
                    if type.kind == .extension, generics.contains(type.name) {
                        findings.append((file, line(type.node), "the generic class \(type.name) adopts the Objective-C protocol \(name) in an extension"))
                    }
                    let isClass = type.kind == .class || (type.kind == .extension && declarations.superclasses[type.name] != nil)
                    if !isClass || !declarations.inheritsFromNSObject(type.name) {
                        findings.append((file, line(type.node), "\(type.name) adopts the Objective-C protocol \(name) but is no class that inherits from NSObject"))
                    }
                }
                guard generics.contains(type.name) else { continue }
                let requirements = (adopted[type.name] ?? []).sorted().compactMap { name in objectiveC[name].map { (protocol: name, names: $0) } }
                for function in type.functions {
                    if function.hasObjCAttribute {
                        let place = type.kind == .extension ? "in an extension of" : "in"
                        findings.append((file, line(function.node), "\(function.name) is @objc \(place) the generic class \(type.name)"))
                    } else if type.kind == .extension, let owner = requirements.first(where: { $0.names.contains(function.name) }) {
                        findings.append(
                            (file, line(function.node),
                             "\(function.name) is @objc (a requirement of \(owner.protocol)) in an extension of the generic class \(type.name)"))
                    }
                }
            }
        }
        return findings.sorted { ($0.file, $0.line, $0.text) < ($1.file, $1.line, $1.text) }.map { "\($0.file):\($0.line): \($0.text)" }
    }
}

/// A function's name as Swift spells a selector-like reference: `f(label:other:)`.
private func fullName(_ function: FunctionDeclSyntax) -> String {
    function.name.text + "(" + function.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined() + ")"
}

/// Protocols with their requirements, and classes with their superclass.
private final class DeclarationCollector: SyntaxVisitor {
    var declarations: ObjectiveCRulesTests.Declarations

    init(_ declarations: ObjectiveCRulesTests.Declarations) {
        self.declarations = declarations
        super.init(viewMode: .sourceAccurate)
    }

    static func collect(_ tree: SourceFileSyntax, into declarations: inout ObjectiveCRulesTests.Declarations) {
        let collector = DeclarationCollector(declarations)
        collector.walk(tree)
        declarations = collector.declarations
    }

    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        let requirements = node.memberBlock.members.compactMap { $0.decl.as(FunctionDeclSyntax.self) }.map(fullName)
        declarations.protocols[node.name.text] = (inheritedNames(node.inheritanceClause), Set(requirements))
        return .skipChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        if let first = inheritedNames(node.inheritanceClause).first { declarations.superclasses[node.name.text] = first }
        return .visitChildren
    }
}

/// Every class, struct, enum, actor and extension of a file: its name, kind, adopted types and functions.
private final class TypeCollector: SyntaxVisitor {
    enum Kind { case `class`, other, `extension` }
    struct Function {
        let name: String
        let hasObjCAttribute: Bool
        let node: FunctionDeclSyntax
    }
    struct TypeDeclaration {
        let name: String
        let kind: Kind
        let isGeneric: Bool
        let inherited: [String]
        let functions: [Function]
        let node: Syntax
    }
    var types: [TypeDeclaration] = []

    private func record(
        _ node: some DeclSyntaxProtocol, name: String, kind: Kind, isGeneric: Bool, inheritance: InheritanceClauseSyntax?,
        members: MemberBlockSyntax
    ) {
        let functions = members.members.compactMap { $0.decl.as(FunctionDeclSyntax.self) }.map { function in
            Function(
                name: fullName(function),
                hasObjCAttribute: function.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "objc" },
                node: function)
        }
        types.append(TypeDeclaration(name: name, kind: kind, isGeneric: isGeneric, inherited: inheritedNames(inheritance), functions: functions, node: Syntax(node)))
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, name: node.name.text, kind: .class, isGeneric: node.genericParameterClause != nil, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { recordOther(node) }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { recordOther(node) }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { recordOther(node) }

    /// A struct, enum or actor: never an Objective-C type.
    private func recordOther(_ node: some DeclGroupSyntax & NamedDeclSyntax & WithGenericParametersSyntax) -> SyntaxVisitorContinueKind {
        record(node, name: node.name.text, kind: .other, isGeneric: node.genericParameterClause != nil, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        // `extension Outer.Inner`: the last name is the class's.
        let name = node.extendedType.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
        record(node, name: name, kind: .extension, isGeneric: false, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }
}

/// The names an inheritance clause lists (`NSObject`, `Sendable`; `@preconcurrency P` is `P`).
private func inheritedNames(_ clause: InheritanceClauseSyntax?) -> [String] {
    clause?.inheritedTypes.map { inherited in
        let type = inherited.type.as(AttributedTypeSyntax.self)?.baseType ?? inherited.type
        return type.trimmedDescription.split(separator: ".").last.map(String.init) ?? type.trimmedDescription
    } ?? []
}
