#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// Demangling through the functions the process has loaded anyway:
/// `swift_demangle`, which libswiftCore exports as public API (flags 0: the
/// full form, which `DemangledNameSimplifier` shortens), and the C++
/// runtime's `__cxa_demangle` (libstdc++, which libswiftCore links on
/// Linux). Both are found with `dlsym`, so nothing new is loaded; when one
/// is missing, names stay as they are.
enum SwiftDemangling {
    private typealias SwiftDemangle = @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
    ) -> UnsafeMutablePointer<CChar>?
    private typealias CxxDemangle = @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int32>?
    ) -> UnsafeMutablePointer<CChar>?

    // Addresses, not function values: a C function pointer is not Sendable.
    private static let swiftDemangleAddress = UInt(bitPattern: dlsym(nil, "swift_demangle"))
    private static let cxxDemangleAddress = UInt(bitPattern: dlsym(nil, "__cxa_demangle"))

    /// The name a report shows for the symbol `raw`: a Swift symbol
    /// demangled and simplified (`ZlibStream.compress(_:ending:into:)`), a
    /// C++ one demangled, a C one as it is.
    static func function(forSymbol raw: String) -> String {
        if isSwiftSymbol(raw) {
            return demangledSwift(raw).map(DemangledNameSimplifier.simplified) ?? raw
        }
        if raw.hasPrefix("_Z") { return demangledCxx(raw) ?? raw }
        return raw
    }

    static func isSwiftSymbol(_ raw: String) -> Bool {
        raw.hasPrefix("$s") || raw.hasPrefix("$e") || raw.hasPrefix("_$s") || raw.hasPrefix("$S") || raw.hasPrefix("_T0")
    }

    /// `swift_demangle`'s full form, or nil when it cannot demangle `raw`.
    static func demangledSwift(_ raw: String) -> String? {
        guard let address = UnsafeRawPointer(bitPattern: swiftDemangleAddress) else { return nil }
        let demangle = unsafeBitCast(address, to: SwiftDemangle.self)
        return raw.withCString { name in
            // flags must be 0; the result is malloc'ed and ours to free.
            guard let result = demangle(name, strlen(name), nil, nil, 0) else { return nil }
            defer { free(result) }
            return String(cString: result)
        }
    }

    static func demangledCxx(_ raw: String) -> String? {
        guard let address = UnsafeRawPointer(bitPattern: cxxDemangleAddress) else { return nil }
        let demangle = unsafeBitCast(address, to: CxxDemangle.self)
        return raw.withCString { name in
            var status: Int32 = -1
            guard let result = demangle(name, nil, nil, &status) else { return nil }
            defer { free(result) }
            return status == 0 ? String(cString: result) : nil
        }
    }
}
#endif
