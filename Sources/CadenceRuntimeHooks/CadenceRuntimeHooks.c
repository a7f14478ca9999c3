#include "CadenceRuntimeHooks.h"
#include <pthread.h>
#include <stddef.h>

// The Swift runtime's enqueue hooks, as include/swift/Runtime/Concurrency.h declares them (Swift 5.9 to 6.3): a
// process-wide function pointer that, when set, the runtime calls instead of enqueueing a job itself, handing it the
// job and the runtime's own enqueue to fall back on. Both use the Swift calling convention.
#define CADENCE_SWIFT_CC __attribute__((swiftcall))
typedef CADENCE_SWIFT_CC void (*CadenceEnqueueOriginal)(void *_Nonnull job);
typedef CADENCE_SWIFT_CC void (*CadenceEnqueueHook)(void *_Nonnull job, CadenceEnqueueOriginal _Nonnull original);

extern CadenceEnqueueHook _Nullable swift_task_enqueueGlobal_hook;
extern CadenceEnqueueHook _Nullable swift_task_enqueueMainExecutor_hook;

static CadenceJobRouter cadenceRouter;
static CadenceEnqueueHook cadencePreviousGlobalHook;
static CadenceEnqueueHook cadencePreviousMainHook;
static pthread_once_t cadenceInstallOnce = PTHREAD_ONCE_INIT;

// Marks the thread that drains a session. A thread-local, not a task-local: the runtime calls the hooks on the
// thread that enqueues, often with no task of the session current (a continuation resumed by the drainer itself).
static _Thread_local void *cadenceThreadSession;

static CADENCE_SWIFT_CC void cadenceEnqueueGlobal(void *_Nonnull job, CadenceEnqueueOriginal _Nonnull original) {
    if (cadenceRouter(job, false)) return;
    if (cadencePreviousGlobalHook) cadencePreviousGlobalHook(job, original);
    else original(job);
}

static CADENCE_SWIFT_CC void cadenceEnqueueMain(void *_Nonnull job, CadenceEnqueueOriginal _Nonnull original) {
    if (cadenceRouter(job, true)) return;
    if (cadencePreviousMainHook) cadencePreviousMainHook(job, original);
    else original(job);
}

static CadenceJobRouter cadencePendingRouter;

static void cadenceInstall(void) {
    cadenceRouter = cadencePendingRouter;
    cadencePreviousGlobalHook = swift_task_enqueueGlobal_hook;
    cadencePreviousMainHook = swift_task_enqueueMainExecutor_hook;
    swift_task_enqueueGlobal_hook = cadenceEnqueueGlobal;
    swift_task_enqueueMainExecutor_hook = cadenceEnqueueMain;
}

void cadence_install_enqueue_router(CadenceJobRouter _Nonnull router) {
    cadencePendingRouter = router;
    pthread_once(&cadenceInstallOnce, cadenceInstall);
}

void *_Nullable cadence_thread_session(void) {
    return cadenceThreadSession;
}

void *_Nullable cadence_set_thread_session(void *_Nullable session) {
    void *previous = cadenceThreadSession;
    cadenceThreadSession = session;
    return previous;
}
