import Testing
import TestSupport

/// Every test that starts the binary, one at a time: each run compresses on
/// all cores, and running them side by side would starve the timing-sensitive
/// tests of the other suites that share the machine (and this process).
@Suite(.serialized)
enum EndToEnd {}
