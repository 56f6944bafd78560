import FileSqueezerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// All logic lives in FileSqueezerCore, where the tests can reach it.
exit(await FileSqueezerCommand.main(Array(CommandLine.arguments.dropFirst())))
