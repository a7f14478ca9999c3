#ifndef CADENCE_TESTING_LOAD_H
#define CADENCE_TESTING_LOAD_H

/// CadenceTesting's load-time setup, written in Swift (`Reporting/CombineRuleReporting.swift`): installs the handler
/// that reports a broken Combine rule into the running test. This module's constructor calls it when the image that
/// links CadenceTesting is loaded, before any test runs, so that linking CadenceTesting — not whether an `expect` has
/// run yet — decides whether a broken rule can be reported instead of stopping the process.
void cadence_testing_did_load(void);

#endif
