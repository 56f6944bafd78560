import FileSqueezerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// First, before anything can start a thread: every thread inherits the
// blocked signals, so an early Ctrl-C waits for the app instead of being lost.
FileSqueezerCommand.blockSignalsBeforeAnyThreadStarts()
// All logic lives in FileSqueezerCore, where the tests can reach it.
// The arguments as bytes (a FOLDER need not be UTF-8), not CommandLine.arguments.
exit(await FileSqueezerCommand.main(FileSqueezerCommand.rawArguments()))
