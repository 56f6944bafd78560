/// The short form of a demangled Swift name that reports show:
/// `ZlibStream.compress(_:ending:into:)` from `swift_demangle`'s
/// `FileSqueezerCore.ZlibStream.compress(_: Swift.UnsafeRawBufferPointer,
/// ending: Swift.Bool, into: inout FileSqueezerCore.ByteBuffer) throws -> ()`.
///
/// `swift_demangle` is public only with flags 0, the full form; the short
/// one (the toolchain's "simplified" options, what `swift demangle
/// --simplified` and the `Runtime` module print) is read back from it here:
/// no module names, private discriminators or extension contexts, argument
/// labels without types, no result or `throws`, no `where` clauses;
/// `specialized`, `partial apply for`, `closure #1 in`, `X for` value
/// witnesses. It walks the text once, counting brackets, so a type's own
/// parentheses or commas never end a name early. Text it does not recognise
/// keeps its words and loses only what follows its first name.
enum DemangledNameSimplifier {
    static func simplified(_ full: String) -> String {
        var text = full
        if let suffix = text.firstRange(of: " with unmangled suffix ") { text = String(text[..<suffix.lowerBound]) }
        text = removingContextNoise(text)
        return simplify(Substring(text))
    }

    /// One entity with what comes before it (`static`, `closure #2 … in`,
    /// `partial apply forwarder for`, specializations, resume partials).
    private static func simplify(_ full: Substring) -> String {
        var rest = full
        var out = ""
        while !rest.isEmpty {
            if let after = rest.dropping("merged ") {
                rest = after  // the simplified form does not say a body was shared
            } else if let after = rest.dropping("partial apply forwarder for ") {
                out += "partial apply for "
                rest = after
            } else if let after = resumePartial(rest) {
                rest = after  // an async function's later part is still that function
            } else if let after = specialization(rest) {
                if !out.hasSuffix("specialized ") { out += "specialized " }  // one word for nested specializations
                rest = after
            } else if let (word, after) = valueWitness(rest) {
                out += "\(word) for "
                rest = after
            } else if let after = rest.dropping("protocol witness for ") {
                return out + "protocol witness for " + protocolWitness(after)
            } else if let (head, after) = outlinedValueOperation(rest) {
                return out + head + typeText(after)
            } else if let (head, after) = witnessTableAccessor(rest) {
                return out + head + typeText(after)
            } else if let after = rest.dropping("reabstraction thunk helper ") {
                return out + "thunk for " + thunk(after)
            } else if let (head, after) = keptPrefix(rest) {
                out += head
                rest = after
            } else if let (head, after) = localContext(rest) {
                out += head
                rest = after
            } else {
                break
            }
        }
        return out + entity(rest)
    }

    // MARK: - Prefixes

    private static let keptPrefixes = [
        "static ", "@objc ", "@nonobjc ", "dispatch thunk of ", "variable initialization expression of ",
        "one-time initialization function for ", "type metadata accessor for ", "type metadata completion function for ",
        "type metadata instantiation function for ", "property wrapper backing initializer of ",
        "property wrapper init from projected value of ", "lazy cache variable for type metadata for ",
        "key path getter for ", "key path setter for ", "key path equality operator for ", "key path hash function for ",
    ]

    private static func keptPrefix(_ text: Substring) -> (String, Substring)? {
        for prefix in keptPrefixes {
            if let after = text.dropping(prefix) { return (prefix, after) }
        }
        // `default argument 2 of `
        if let after = text.dropping("default argument "), let of = after.firstRange(of: " of "),
            !after[..<of.lowerBound].isEmpty, after[..<of.lowerBound].allSatisfy(\.isNumber)
        {
            return (String(text[..<of.upperBound]), after[of.upperBound...])
        }
        return nil
    }

    /// `(3) suspend resume partial function for ` / `(1) await resume partial function for `.
    private static func resumePartial(_ text: Substring) -> Substring? {
        guard text.first == "(", let close = text.firstIndex(of: ")") else { return nil }
        let after = text[text.index(after: close)...]
        return after.dropping(" suspend resume partial function for ") ?? after.dropping(" await resume partial function for ")
    }

    /// `generic specialization <…> of `, `function signature specialization <…> of `, …
    private static func specialization(_ text: Substring) -> Substring? {
        guard let keyword = text.firstRange(of: "specialization <") else { return nil }
        // Only lower-case words before it (`generic partial `), not a name that contains the word.
        let words = text[..<keyword.lowerBound]
        guard words.allSatisfy({ $0 == " " || $0 == "-" || ($0.isLetter && $0.isLowercase) }) else { return nil }
        // Not bracket matching: the demangler leaves a closure-propagation
        // parameter's `[` open (`<Arg[1] = [Closure Propagated : …, Argument Types : [Int]> of`).
        guard let end = text[keyword.upperBound...].firstRange(of: "> of ") else { return nil }
        return text[end.upperBound...]
    }

    /// `destroy value witness for ` → `destroy`.
    private static func valueWitness(_ text: Substring) -> (Substring, Substring)? {
        guard let keyword = text.firstRange(of: " value witness for ") else { return nil }
        let word = text[..<keyword.lowerBound]
        guard !word.isEmpty, word.allSatisfy({ $0.isLetter }) else { return nil }
        return (word, text[keyword.upperBound...])
    }

    /// `outlined init with copy of `, `outlined destroy of `: code the
    /// optimizer moved out of a function, for one type.
    private static func outlinedValueOperation(_ text: Substring) -> (String, Substring)? {
        guard let after = text.dropping("outlined "), let of = after.firstRange(of: " of "),
            after[..<of.lowerBound].allSatisfy({ $0 == " " || ($0.isLetter && $0.isLowercase) })
        else { return nil }
        return (String(text[..<of.upperBound]), after[of.upperBound...])
    }

    private static let witnessTableAccessors = [
        "base witness table accessor for ", "lazy protocol witness table accessor for type ",
        "instantiation function for generic protocol witness table for ",
        "associated type witness table accessor for ", "protocol witness table accessor for ",
    ]

    private static func witnessTableAccessor(_ text: Substring) -> (String, Substring)? {
        for prefix in witnessTableAccessors {
            guard let after = text.dropping(prefix) else { continue }
            // `… in Type : Protocol in Module`: the conformance's module and protocol go.
            var end = after.endIndex
            var index = after.startIndex
            while let colon = Brackets.firstTopLevel(" : ", in: after, from: index) {
                end = colon.lowerBound
                index = colon.upperBound
            }
            return (prefix, after[..<end])
        }
        return nil
    }

    /// `closure #2 (A) -> B in ` → `closure #2 in `; a local function
    /// `stop #1 (A) -> B in ` → `stop #1 (_:) in `; `$defer #1 <A>() -> () in `.
    private static func localContext(_ text: Substring) -> (String, Substring)? {
        guard let hash = text.firstRange(of: " #") else { return nil }
        let name = text[..<hash.lowerBound]
        let isClosure = name == "closure" || name == "implicit closure"
        guard isClosure || (!name.isEmpty && !name.contains(where: { " (<.:".contains($0) })) else { return nil }
        var index = hash.upperBound
        while index < text.endIndex, text[index].isNumber { index = text.index(after: index) }
        guard index > hash.upperBound, index < text.endIndex, text[index] == " " else { return nil }
        let head = text[..<index]
        if let after = text[index...].dropping(" in ") { return ("\(head) in ", after) }  // a local type
        let typeStart = text.index(after: index)
        guard let inRange = Brackets.firstTopLevel(" in ", in: text, from: typeStart) else { return nil }
        let after = text[inRange.upperBound...]
        if isClosure {
            return ("\(head) in ", after)
        }
        // A local function keeps its generic parameters and argument labels.
        var type = text[typeStart..<inRange.lowerBound]
        var generics = ""
        while type.first == "<", let close = Brackets.matching(in: type, from: type.startIndex) {
            generics += withoutWhereClause(type[...close])
            type = type[type.index(after: close)...]
        }
        let labels = type.first == "(" ? argumentLabels(type) : ""
        return ("\(head) \(generics)\(labels) in ", after)
    }

    // MARK: - Entities

    /// `FileSqueezerCore.ZlibStream.compress(_: …) throws -> ()` → `ZlibStream.compress(_:)`.
    private static func entity(_ text: Substring) -> String {
        var index = text.startIndex
        var depth = 0
        var components: [Substring] = []
        var componentStart = index
        while index < text.endIndex {
            let character = text[index]
            if depth == 0, character == " ", let operatorEnd = operatorFixity(text[index...]) {
                index = operatorEnd  // `== infix(…)`
                continue
            }
            if depth == 0, character == "(" || character == " " { break }
            if depth == 0, character == "." {
                components.append(text[componentStart..<index])
                componentStart = text.index(after: index)
            }
            depth += Brackets.change(character, in: text, at: index)
            index = text.index(after: index)
        }
        components.append(text[componentStart..<index])
        if components.count > 1 { components.removeFirst() }  // the module
        var name = components.map(withoutWhereClause).joined(separator: ".")
        if index < text.endIndex, text[index] == "(" {
            name += argumentLabels(text[index...])
        } else if text[index...].hasPrefix(" (") {
            name += " " + argumentLabels(text[text.index(after: index)...])  // `configuration@Sendable (process:all:)`
        }
        return name
    }

    private static func operatorFixity(_ text: Substring) -> Substring.Index? {
        for fixity in [" infix(", " prefix(", " postfix(", " infix<", " prefix<", " postfix<"] where text.hasPrefix(fixity) {
            return text.index(text.startIndex, offsetBy: fixity.count - 1)
        }
        return nil
    }

    /// `Hashable.hash(into:) in conformance FileOutcome.CodingKeys`, without `: Swift.Hashable in Module`.
    private static func protocolWitness(_ text: Substring) -> String {
        guard let conformance = Brackets.firstTopLevel(" in conformance ", in: text, from: text.startIndex) else {
            return simplify(text)
        }
        let type = text[conformance.upperBound...]
        let end = Brackets.firstTopLevel(" : ", in: type, from: type.startIndex)?.lowerBound ?? type.endIndex
        return simplify(text[..<conformance.lowerBound]) + " in conformance " + typeText(type[..<end])
    }

    /// `<A> from @callee_guaranteed (@in_guaranteed Swift.Int) -> () to …` → the `from` type.
    private static func thunk(_ text: Substring) -> String {
        guard let from = Brackets.firstTopLevel("from ", in: text, from: text.startIndex) else { return String(text) }
        let type = text[from.upperBound...]
        let end = Brackets.firstTopLevel(" to ", in: type, from: type.startIndex)?.lowerBound ?? type.endIndex
        return typeText(type[..<end])
    }

    /// `(_: Swift.Int, ending: Swift.Bool)` (up to its closing parenthesis) → `(_:ending:)`.
    private static func argumentLabels(_ text: Substring) -> String {
        guard let close = Brackets.matching(in: text, from: text.startIndex) else { return "" }
        let inside = text[text.index(after: text.startIndex)..<close]
        guard !inside.allSatisfy({ $0 == " " }) else { return "()" }
        let labels = Brackets.splitTopLevel(inside, at: ",").map { part -> Substring in
            let part = part.drop(while: { $0 == " " })
            guard let colon = part.firstIndex(of: ":"), part.index(after: colon) < part.endIndex,
                part[part.index(after: colon)] == " "
            else { return "_" }
            let label = part[..<colon]
            return label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "`" }) ? label : "_"
        }
        return "(" + labels.map { "\($0):" }.joined() + ")"
    }

    /// `run<A where A: Sendable>` → `run<A>`, `Sequence< where A.Element: P>` → `Sequence<>`.
    private static func withoutWhereClause(_ component: Substring) -> String {
        guard let open = component.firstIndex(of: "<"), let clause = component[open...].firstRange(of: " where ") ?? component[open...].firstRange(of: "<where ")
        else { return String(component) }
        let keepEnd = component[clause.lowerBound] == "<" ? component.index(after: clause.lowerBound) : clause.lowerBound
        guard let close = Brackets.matching(in: component, from: open) else { return String(component[..<keepEnd]) + ">" }
        return String(component[..<keepEnd]) + String(component[close...])
    }

    /// `(Foo in _6B2C…)` → `Foo` (a private discriminator) and `(extension in Module):` → nothing.
    private static func removingContextNoise(_ text: String) -> String {
        var text = text
        while let range = text.firstRange(of: "(extension in ") {
            guard let colon = text[range.upperBound...].firstRange(of: "):") else { break }
            text.removeSubrange(range.lowerBound..<colon.upperBound)
        }
        while let range = text.firstRange(of: "(in _"), let close = text[range.upperBound...].firstRange(of: ").") {
            text.removeSubrange(range.lowerBound..<close.upperBound)  // a private initializer's discriminator
        }
        var out = ""
        var rest = Substring(text)
        while let keyword = rest.firstRange(of: " in _") {
            let before = rest[..<keyword.lowerBound]
            let hexEnd = rest[keyword.upperBound...].firstIndex(where: { !$0.isHexDigit }) ?? rest.endIndex
            guard let open = before.lastIndex(of: "("), !before[open...].contains(" "), hexEnd < rest.endIndex, rest[hexEnd] == ")"
            else {
                out += rest[..<keyword.upperBound]
                rest = rest[keyword.upperBound...]
                continue
            }
            out += rest[..<open] + rest[rest.index(after: open)..<keyword.lowerBound]
            rest = rest[rest.index(after: hexEnd)...]
        }
        return out + rest
    }
}
