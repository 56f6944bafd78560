/// Which machine code the decoders read. They are compiled for every
/// architecture and take the set as a parameter, so the arm64 decoding is
/// tested on an x86-64 machine (and the other way round) on made-up bytes.
enum InstructionSet: Sendable {
    case x86_64
    case arm64
    case unknown

    /// The code this process runs.
    static var host: InstructionSet {
        #if arch(x86_64)
        return .x86_64
        #elseif arch(arm64)
        return .arm64
        #else
        return .unknown
        #endif
    }
}
