// Each check is one part of the toolkit used the way a user writes it; a
// failed check stops the program with a message, so CI fails.
print("consumer (\(consumerMode)): starting")
await checkContinuations()
await checkContinuationMigration()
try await checkBlocking()
await checkActorSplit()
try await checkDiagnostics()
print("consumer (\(consumerMode)): all checks passed")
