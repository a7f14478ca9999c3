// On Apple platforms Cadence's Combine-named API is Combine's own: a user's Combine publishers, subscribers and
// schedulers and Cadence's additions are one world. Everywhere else it is the stand-in, the `CadenceCombine` module.
// This is the one place the two worlds meet: every other file of Cadence is written against the names alone.
// `CadenceSupport` gives users `FailureReporter`, the one channel for every problem Cadence reports.
@_exported import CadenceSupport

#if canImport(Combine)
@_exported import Combine
#else
@_exported import CadenceCombine
#endif
