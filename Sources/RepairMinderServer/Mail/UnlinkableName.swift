import Foundation

extension String {
    /// A name someone chose (a shop's, a person's) as a mail shows it without letting it become a
    /// link: mail clients link text that looks like an address (`evil.example`, `https://…`,
    /// `someone@evil.example`), and a shop must not put a link of its choosing in mail the
    /// platform sends. A dot between letters or digits becomes a one-dot leader (U+2024), `@` a
    /// full-width one (U+FF20) and the colon of `://` a modifier colon (U+A789): the name reads
    /// the same, and no client finds an address in it.
    var unlinkable: String {
        var result = ""
        let characters = Array(self)
        for (index, character) in characters.enumerated() {
            let before = index > 0 ? characters[index - 1] : nil, after = index + 1 < characters.count ? characters[index + 1] : nil
            switch character {
            case "." where before?.isLetterOrDigit == true && after?.isLetterOrDigit == true: result.append("\u{2024}")
            case "@": result.append("\u{FF20}")
            case ":" where after == "/": result.append("\u{A789}")
            default: result.append(character)
            }
        }
        return result
    }
}

extension Character {
    fileprivate var isLetterOrDigit: Bool { isLetter || isNumber }
}
