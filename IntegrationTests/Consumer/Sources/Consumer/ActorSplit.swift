import ConcurrencyToolkit

/// The state a screen shows, on the main actor as a user's model is.
@MainActor final class ProgressModel {
    var itemsDone = 0
    var perFile: [String: Int] = [:]
}

/// A log kept in its own actor, fed in batches.
actor LogStore {
    private(set) var lines: [String] = []
    func append(_ batch: [String]) { lines += batch }
}

/// The actor-split helpers from a `@MainActor` function: progress from many
/// tasks reaches the model at a bounded rate, the newest value last.
@MainActor
func checkActorSplit() async {
    let model = ProgressModel()
    // No `@MainActor` on the handlers: written in a @MainActor function, they
    // take its isolation, as a `Task { }` closure does, in every language mode.
    let progress = ThrottledProgress<Int>(interval: .milliseconds(5)) { done in
        model.itemsDone = done
    }
    let perFile = KeyedThrottledProgress<String, Int>(interval: .milliseconds(5)) { changed in
        model.perFile.merge(changed) { _, newest in newest }
    }
    await Array(0..<40).concurrentForEach(maxConcurrency: 4) { number in
        perFile.report(number, for: "file-\(number % 4)")
        progress.report(number)
    }
    progress.report(100)
    await progress.finish()
    await perFile.finish()
    check(model.itemsDone == 100, "the newest progress value is delivered last, got \(model.itemsDone)")
    check(model.perFile.count == 4, "one entry per key, got \(model.perFile)")

    let store = LogStore()
    let log = BatchingReporter<String>(interval: .milliseconds(5), capacity: 1_000) { batch in
        await store.append(batch)
    }
    for number in 0..<200 { _ = log.report("line \(number)") }
    await log.finish()
    let lines = await store.lines
    check(lines == (0..<200).map { "line \($0)" }, "every line once, in order; got \(lines.count) lines")
    print("consumer (\(consumerMode)): progress reached the main actor; 200 log lines arrived in order")
}
