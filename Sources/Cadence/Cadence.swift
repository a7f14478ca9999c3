// On Apple platforms Cadence's Combine-named API is Combine's own: a user's Combine publishers, subscribers and
// schedulers and Cadence's additions are one world. Everywhere else Cadence supplies its own implementation, in the
// files guarded by `#if !canImport(Combine)`.
#if canImport(Combine)
@_exported import Combine
#endif
