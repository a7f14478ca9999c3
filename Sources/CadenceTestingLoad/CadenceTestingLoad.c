#include "CadenceTestingLoad.h"

// Runs when the image that links CadenceTesting (a test bundle, a test executable) is loaded, before its `main` and
// before any test: Swift has no load-time code of its own, so this C constructor hands over to CadenceTesting.
__attribute__((constructor)) static void cadence_testing_load(void) {
    cadence_testing_did_load();
}
