// What every test file of the package imports besides Testing, once: a test
// file says `import TestSupport` and has Foundation and the C library too.
@_exported import Foundation
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif
