import FileSqueezerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Before anything opens a descriptor: a standard stream the caller closed
// (`file-squeezer DIR >&- 2>&-`) gets /dev/null, as coreutils' stdopen does.
// Otherwise the next descriptor opened (the signal pipe, a file) takes its
// number and receives the app's output. Opened against the grain (stdout and
// stderr read-only), so a write to a closed stdout still fails: an output
// error, exit 1, as when any write to it fails.
for standard: Int32 in 0...2 where fcntl(standard, F_GETFD) == -1 {
    // open gives the lowest free number: this one, as those below are open now.
    guard open("/dev/null", standard == 0 ? O_WRONLY : O_RDONLY) == standard else {
        let message = "file-squeezer: descriptor \(standard) is closed and /dev/null cannot be opened in its place\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(1)
    }
}
// Then, before anything can start a thread: every thread inherits the
// blocked signals, so an early Ctrl-C waits for the app instead of being lost.
FileSqueezerCommand.blockSignalsBeforeAnyThreadStarts()
// All logic lives in FileSqueezerCore, where the tests can reach it.
// The arguments as bytes (a FOLDER need not be UTF-8), not CommandLine.arguments.
exit(await FileSqueezerCommand.main(FileSqueezerCommand.rawArguments()))
