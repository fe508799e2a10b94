import Foundation
import RepairMinderModels

/// The decoder the SDK reads every answer with (Repair Minder's and REKI's), tolerant of what a
/// server newer than the app, or the backend's own inconsistencies (seed 004), may send:
///
/// - a `WireEnum` value this version does not know decodes as `.unknown(raw)` (a new role or
///   company status must not fail every sign-in of it);
/// - a key is found in camelCase or snake_case whichever spelling the model declares
///   (`companyId` or `company_id`): the words are compared without case and underscores,
///   the exact spelling first. Dictionary keys and `JSONValue` members stay as sent;
/// - optional fields may be `null` or absent, and unknown keys are ignored (as any decoder).
///
/// The server's request decoding stays strict: it uses a plain `JSONDecoder`.
public enum ResponseDecoder {
    /// `data` decoded as `type`.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let tree = try JSONDecoder().decode(JSONTree.self, from: data)
        return try T(from: EitherCaseDecoder(tree, userInfo: [.acceptsUnknownWireValues: true]))
    }
}
