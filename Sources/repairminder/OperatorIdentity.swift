import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who is running an operator command, as the audit trail names them: the OS account of the
/// effective user (what `whoami` prints), else `$USER`, else the numeric uid. Under sudo the
/// person behind it is added, since "root" alone says nothing about who approved a shop.
enum OperatorIdentity {
    static var current: String {
        let environment = ProcessInfo.processInfo.environment
        let uid = geteuid()
        var name = environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "uid \(uid)"
        if let entry = getpwuid(uid), let account = entry.pointee.pw_name {
            name = String(cString: account)
        }
        if uid == 0, let person = environment["SUDO_USER"], !person.isEmpty, person != name {
            return "\(name) (sudo by \(person))"
        }
        return name
    }
}
