/// A growable run of bytes that deflate writes into directly.
///
/// ```swift
/// let output = ByteBuffer(capacity: 1 << 20)
/// try deflater.compress(chunk, ending: .none, into: output)
/// try writeAll(descriptor, output.bytes)
/// output.removeAll()
/// ```
///
/// Owned by one thread at a time: a segment's job fills it, then hands it
/// to the file's writer through that file's lock (hence `@unchecked Sendable`).
final class ByteBuffer: @unchecked Sendable {
    private(set) var capacity: Int
    private var storage: UnsafeMutableRawPointer
    /// Bytes in use, from the start.
    var count = 0
    /// Counts this buffer while it exists (a segment's output, see ``SegmentWindow/peakOutputs``).
    private let counted: LiveCount?

    init(capacity: Int, counted: LiveCount? = nil) {
        self.capacity = max(capacity, 64)
        storage = .allocate(byteCount: self.capacity, alignment: 16)
        self.counted = counted
        counted?.increment()
    }

    deinit {
        storage.deallocate()
        counted?.decrement()
    }

    /// The bytes in use.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// The space after the bytes in use.
    var freeSpace: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: storage + count, count: capacity - count)
    }

    /// Makes room for at least `minimumFree` more bytes, at least doubling
    /// the capacity when it grows.
    func reserve(minimumFree: Int) {
        guard capacity - count < minimumFree else { return }
        let grown = max(capacity * 2, count + minimumFree)
        let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
        moved.copyMemory(from: storage, byteCount: count)
        storage.deallocate()
        storage = moved
        capacity = grown
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(minimumFree: bytes.count)
        guard let base = bytes.baseAddress else { return }
        (storage + count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    /// Forgets the bytes, keeping the capacity.
    func removeAll() { count = 0 }
}
