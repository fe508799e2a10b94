/// The settings on a command line (`--port 9000`, `--port=9000`), by key; checked against the
/// settings the command takes, so a misspelt flag is refused with the nearest name.
public enum SettingsCommandLine {
    /// The text each `--key` of `arguments` gives, the last one winning (as ArgumentParser's
    /// options do); a secret's `--<key>-file` is taken too.
    /// Arguments that are not settings (`seed`'s file) come back apart, in order.
    public static func parse(_ arguments: [String], settings: [Setting]) throws -> (values: [String: String], positionals: [String]) {
        let keys = Set(settings.flatMap(\.keys))
        var values: [String: String] = [:]
        var positionals: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--"), argument.count > 2 else {
                // A command's own argument, given among the settings (`seed --data-dir D file.json`).
                positionals.append(argument)
                index += 1
                continue
            }
            let name = argument.dropFirst(2)
            let key = String(name.prefix(while: { $0 != "=" }))
            guard keys.contains(key) else {
                throw SettingsError("unknown option --\(key)\(suggestion(for: key, among: Array(keys), prefix: "--"))", isUsageError: true)
            }
            if key.count < name.count {
                values[key] = String(name.dropFirst(key.count + 1))
                index += 1
            } else {
                guard index + 1 < arguments.count else { throw SettingsError("--\(key) needs a value", isUsageError: true) }
                values[key] = arguments[index + 1]
                index += 2
            }
        }
        return (values, positionals)
    }

    /// "; did you mean --port?" when a known name is a small edit away from `name`.
    static func suggestion(for name: String, among names: [String], prefix: String = "") -> String {
        let nearest = names.map { ($0, editDistance(name, $0)) }.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
        guard let nearest, nearest.1 <= max(2, name.count / 4) else { return "" }
        return "; did you mean \(prefix)\(nearest.0)?"
    }

    /// Levenshtein distance.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
