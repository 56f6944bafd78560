/// The text-level tools of `DemangledNameSimplifier`: bracket counting and
/// module names in type text.
extension DemangledNameSimplifier {
    /// Type text without module names: `Swift.Array<FileSqueezerCore.Plan>` → `Array<Plan>`.
    /// The first part of every qualified name is its module, except a
    /// generic parameter's (`A.Element`, `A1.Index`).
    static func typeText(_ text: Substring) -> String {
        let text = Substring(withoutWhereClauses(Substring(sugared(text))))
        var out = ""
        var afterGenericParameter = false
        var index = text.startIndex
        var previous: Character = " "
        while index < text.endIndex {
            let character = text[index]
            // A word after a dot is a member, except after a generic parameter
            // (`A.Swift.Sequence.Element`: the protocol's module).
            guard isIdentifier(character), !isIdentifier(previous), previous != "." || afterGenericParameter else {
                out.append(character)
                previous = character
                if character != "." { afterGenericParameter = false }
                index = text.index(after: index)
                continue
            }
            let end = text[index...].firstIndex(where: { !isIdentifier($0) }) ?? text.endIndex
            let word = text[index..<end]
            let isGenericParameter = word.first!.isUppercase && word.dropFirst().allSatisfy(\.isNumber) || word.allSatisfy(\.isUppercase)
            let isModule = !isGenericParameter && (previous != "." || afterGenericParameter)
            if end < text.endIndex, text[end] == ".", isModule {
                index = text.index(after: end)  // a module name and its dot
                previous = "."
                afterGenericParameter = false
                continue
            }
            afterGenericParameter = isGenericParameter
            out += word
            previous = word.last!
            index = end
        }
        return out
    }

    /// `<A where A: Equatable> [A]` → `<A> [A]`.
    static func withoutWhereClauses(_ text: Substring) -> String {
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "<", Brackets.change(character, in: text, at: index) == 1, let close = Brackets.matching(in: text, from: index) {
                let inside = text[text.index(after: index)..<close]
                let clause = inside.hasPrefix("where ") ? inside.startIndex : Brackets.firstTopLevel(" where ", in: inside, from: inside.startIndex)?.lowerBound
                out += "<" + withoutWhereClauses(inside[..<(clause ?? inside.endIndex)]) + ">"
                index = text.index(after: close)
                continue
            }
            out.append(character)
            index = text.index(after: index)
        }
        return out
    }

    /// `swift_demangle` spells `Swift.Array<A>`, `Swift.Dictionary<A, B>` and
    /// `Swift.Optional<A>` out; reports show `[A]`, `[A : B]` and `A?`.
    static func sugared(_ text: Substring) -> String {
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            let startsWord = index == text.startIndex || !isIdentifier(text[text.index(before: index)]) && text[text.index(before: index)] != "."
            if startsWord, let sugar = ["Swift.Array<", "Swift.Dictionary<", "Swift.Optional<"].first(where: { rest.hasPrefix($0) }) {
                let open = text.index(index, offsetBy: sugar.count - 1)
                if let close = Brackets.matching(in: text, from: open) {
                    let inner = sugared(text[text.index(after: open)..<close])
                    let parts = Brackets.splitTopLevel(Substring(inner), at: ",")
                    switch sugar {
                    case "Swift.Array<": out += "[\(inner)]"
                    case "Swift.Dictionary<" where parts.count == 2:
                        out += "[\(parts[0]) : \(parts[1].drop(while: { $0 == " " }))]"
                    case "Swift.Optional<":
                        out += Brackets.firstTopLevel(" ", in: Substring(inner), from: inner.startIndex) == nil ? "\(inner)?" : "(\(inner))?"
                    default: out += text[index...close]
                    }
                    index = text.index(after: close)
                    continue
                }
            }
            out.append(text[index])
            index = text.index(after: index)
        }
        return out
    }

    private static func isIdentifier(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "$"
    }
}

/// Bracket counting over demangled text: `(`, `[`, `<`, `{` open, and
/// their partners close, except the `>` of an arrow `->`.
enum Brackets {
    static func change(_ character: Character, in text: Substring, at index: Substring.Index) -> Int {
        switch character {
        case "(", "[", "{": return 1
        case ")", "]", "}": return -1
        case "<": return isInOperatorName(text, at: index) ? 0 : 1
        case ">":
            if index > text.startIndex && text[text.index(before: index)] == "-" { return 0 }
            return isInOperatorName(text, at: index) ? 0 : -1
        default: return 0
        }
    }

    /// Whether the `<` or `>` at `index` is part of an operator's name
    /// (`Comparable.<= infix(_:_:)`, `>> infix<A>`), not a bracket.
    private static func isInOperatorName(_ text: Substring, at index: Substring.Index) -> Bool {
        let operatorCharacters = "=-+!*%<>&|^~?/."
        let rest = text[index...].drop(while: { operatorCharacters.contains($0) })
        guard rest.hasPrefix(" infix") || rest.hasPrefix(" prefix") || rest.hasPrefix(" postfix") else { return false }
        // The name starts a component (`Comparable.<=`, `Comparable...<`), so
        // the `>` that closes `Array<A where …>.==` is a bracket.
        var start = index
        while start > text.startIndex, operatorCharacters.contains(text[text.index(before: start)]) { start = text.index(before: start) }
        return start == text.startIndex || text[start] == "." || text[text.index(before: start)] == " "
    }

    /// The index of the bracket that closes the one at `open`.
    static func matching(in text: Substring, from open: Substring.Index) -> Substring.Index? {
        var depth = 0
        var index = open
        while index < text.endIndex {
            depth += change(text[index], in: text, at: index)
            if depth == 0 { return index }
            index = text.index(after: index)
        }
        return nil
    }

    /// The first occurrence of `needle` outside every bracket, from `start`.
    static func firstTopLevel(_ needle: String, in text: Substring, from start: Substring.Index) -> Range<Substring.Index>? {
        var depth = 0
        var index = start
        while index < text.endIndex {
            if depth == 0, text[index...].hasPrefix(needle) { return index..<text.index(index, offsetBy: needle.count) }
            depth += change(text[index], in: text, at: index)
            index = text.index(after: index)
        }
        return nil
    }

    static func splitTopLevel(_ text: Substring, at separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var start = text.startIndex
        var index = start
        while index < text.endIndex {
            if depth == 0, text[index] == separator {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
            depth += change(text[index], in: text, at: index)
            index = text.index(after: index)
        }
        parts.append(text[start...])
        return parts
    }
}

extension Substring {
    func dropping(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
