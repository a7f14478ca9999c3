#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CadenceRuntimeHooks.h"
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

// The Swift runtime's enqueue hooks, as include/swift/Runtime/Concurrency.h declares them (Swift 5.9 to 6.3): a
// process-wide function pointer that, when set, the runtime calls instead of enqueueing a job itself, handing it the
// job and the runtime's own enqueue to fall back on. Both use the Swift calling convention. Everything from the runtime
// is linked weakly: a runtime without it leaves the address null, and Cadence then routes nothing.
#define CADENCE_SWIFT_CC __attribute__((swiftcall))
typedef CADENCE_SWIFT_CC void (*CadenceEnqueueOriginal)(void *_Nonnull job);
typedef CADENCE_SWIFT_CC void (*CadenceEnqueueHook)(void *_Nonnull job, CadenceEnqueueOriginal _Nonnull original);

extern CadenceEnqueueHook _Nullable swift_task_enqueueGlobal_hook __attribute__((weak));
extern CadenceEnqueueHook _Nullable swift_task_enqueueMainExecutor_hook __attribute__((weak));
extern CADENCE_SWIFT_CC uint64_t swift_task_getJobTaskId(void *_Nonnull job) __attribute__((weak));
extern CADENCE_SWIFT_CC void *_Nullable swift_task_getCurrent(void) __attribute__((weak));
extern CADENCE_SWIFT_CC void swift_task_cancel(void *_Nonnull task) __attribute__((weak));
extern CADENCE_SWIFT_CC void swift_task_enqueueGlobal(void *_Nonnull job) __attribute__((weak));
// Only its presence is asked: the runtime of `Task.immediate` (Swift 6.2) runs a task nested inside the running one
// and gives the outer task back as the current one after it.
extern CADENCE_SWIFT_CC void swift_task_immediate(void) __attribute__((weak));

static CadenceJobRouter cadenceRouter;
static CadenceJobRouter cadencePendingRouter;
static CadenceEnqueueHook cadencePreviousGlobalHook;
static CadenceEnqueueHook cadencePreviousMainHook;
static pthread_once_t cadenceInstallOnce = PTHREAD_ONCE_INIT;
static bool cadenceInstalled;

// Marks the thread that drains a session. A thread-local, not a task-local: the runtime calls the hooks on the
// thread that enqueues, often with no task of the session current (a continuation resumed by the drainer itself).
static _Thread_local void *cadenceThreadSession;

// Whether this thread is inside Cadence's global hook: a hook Cadence chained that itself chains to Cadence's (one
// installed on top of Cadence's, then found in its place by the next session) would otherwise call the two forever.
static _Thread_local bool cadenceInGlobalHook;

static CADENCE_SWIFT_CC void cadenceEnqueueGlobal(void *_Nonnull job, CadenceEnqueueOriginal _Nonnull original) {
    if (cadenceInGlobalHook) {
        original(job);
        return;
    }
    if (cadenceRouter(job, false)) return;
    // Read atomically: a session starting on another thread may chain a new hook meanwhile.
    CadenceEnqueueHook previous = __atomic_load_n(&cadencePreviousGlobalHook, __ATOMIC_ACQUIRE);
    if (!previous) {
        original(job);
        return;
    }
    cadenceInGlobalHook = true;
    previous(job, original);
    cadenceInGlobalHook = false;
}

static CADENCE_SWIFT_CC void cadenceEnqueueMain(void *_Nonnull job, CadenceEnqueueOriginal _Nonnull original) {
    if (cadenceRouter(job, true)) return;
    if (cadencePreviousMainHook) cadencePreviousMainHook(job, original);
    else original(job);
}

static void cadenceInstall(void) {
    if (!&swift_task_enqueueGlobal_hook || !&swift_task_enqueueMainExecutor_hook) return;
    cadenceRouter = cadencePendingRouter;
    cadencePreviousMainHook = swift_task_enqueueMainExecutor_hook;
    swift_task_enqueueMainExecutor_hook = cadenceEnqueueMain;
    cadenceInstalled = true;
}

// The global enqueue hook is Cadence's only while a session runs or a clock made outside one is alive: other libraries
// own it too (swift-concurrency-extras' `withMainSerialExecutor` sets it, and when it ends puts back its own hook if
// it found any hook at all), so Cadence takes it when the first holder comes, chaining the hook it finds, and gives
// that one back when the last goes. Only a session finding its hook replaced is told: a clock's holding spans a whole
// test, inside which such a scope is the test's own business.
static pthread_mutex_t cadenceGlobalHookLock = PTHREAD_MUTEX_INITIALIZER;
static int cadenceGlobalHookHolders;
static int cadenceGlobalHookSessionHolders;

void *_Nullable cadence_acquire_global_hook(bool bySession) {
    if (!cadenceInstalled) return NULL;
    pthread_mutex_lock(&cadenceGlobalHookLock);
    void *replaced = NULL;
    CadenceEnqueueHook current = swift_task_enqueueGlobal_hook;
    if (current != cadenceEnqueueGlobal) {
        if (bySession && cadenceGlobalHookSessionHolders > 0) replaced = (void *)current;
        __atomic_store_n(&cadencePreviousGlobalHook, current, __ATOMIC_RELEASE);
        swift_task_enqueueGlobal_hook = cadenceEnqueueGlobal;
    }
    cadenceGlobalHookHolders += 1;
    if (bySession) cadenceGlobalHookSessionHolders += 1;
    pthread_mutex_unlock(&cadenceGlobalHookLock);
    return replaced;
}

void *_Nullable cadence_release_global_hook(bool bySession) {
    if (!cadenceInstalled) return NULL;
    pthread_mutex_lock(&cadenceGlobalHookLock);
    void *replaced = NULL;
    cadenceGlobalHookHolders -= 1;
    if (bySession) cadenceGlobalHookSessionHolders -= 1;
    CadenceEnqueueHook current = swift_task_enqueueGlobal_hook;
    // The last session to end tells of a replaced hook, whether or not a clock still holds Cadence's.
    if (bySession && cadenceGlobalHookSessionHolders == 0 && current != cadenceEnqueueGlobal) {
        replaced = (void *)current;
    }
    // The hook Cadence chained stays readable: a job being enqueued on another thread may still be on its way.
    if (cadenceGlobalHookHolders == 0 && current == cadenceEnqueueGlobal) {
        swift_task_enqueueGlobal_hook = cadencePreviousGlobalHook;
    }
    pthread_mutex_unlock(&cadenceGlobalHookLock);
    return replaced;
}

bool cadence_global_hook_chains_another(void) {
    return __atomic_load_n(&cadencePreviousGlobalHook, __ATOMIC_ACQUIRE) != NULL;
}

const char *_Nullable cadence_symbol_name(const void *_Nonnull address) {
    Dl_info info;
    if (!dladdr(address, &info) || !info.dli_sname) return NULL;
    return info.dli_sname;
}

bool cadence_install_enqueue_router(CadenceJobRouter _Nonnull router) {
    cadencePendingRouter = router;
    pthread_once(&cadenceInstallOnce, cadenceInstall);
    return cadenceInstalled;
}

void cadence_enqueue_global(void *_Nonnull job) {
    swift_task_enqueueGlobal(job);
}

static _Thread_local bool cadenceIsSessionThread;

bool cadence_is_session_thread(void) {
    return cadenceIsSessionThread;
}

void cadence_mark_session_thread(void) {
    cadenceIsSessionThread = true;
}

void *_Nullable cadence_thread_session(void) {
    return cadenceThreadSession;
}

void *_Nullable cadence_set_thread_session(void *_Nullable session) {
    void *previous = cadenceThreadSession;
    cadenceThreadSession = session;
    return previous;
}

// A job's kind is the low byte of its flags, which follow the heap object's header (two words) and the scheduler's
// two private words, as `swift/ABI/Task.h` lays a `Job` out. The kinds are `swift/ABI/MetadataValues.h`'s `JobKind`:
// 0 is a task; 195 (`NullaryContinuation`, the fourth kind private to the runtime) is the job that `Task.yield()`
// creates to resume the task that yields.
enum { CadenceJobKindTask = 0, CadenceJobKindNullaryContinuation = 195 };

static uint8_t cadenceJobKind(const void *_Nonnull job) {
    const uint32_t flags = *(const uint32_t *)((const char *)job + 4 * sizeof(void *));
    return (uint8_t)(flags & 0xFF);
}

uint64_t cadence_job_task_id(void *_Nonnull job) {
    if (!swift_task_getJobTaskId || cadenceJobKind(job) != CadenceJobKindTask) return 0;
    return swift_task_getJobTaskId(job);
}

uint64_t cadence_current_task_id(void) {
    if (!swift_task_getCurrent || !swift_task_getJobTaskId) return 0;
    void *task = swift_task_getCurrent();
    return task ? swift_task_getJobTaskId(task) : 0;
}

void *_Nullable cadence_job_resumed_task(void *_Nonnull job) {
    switch (cadenceJobKind(job)) {
    case CadenceJobKindTask:
        return job;
    case CadenceJobKindNullaryContinuation:
        return swift_task_getCurrent ? swift_task_getCurrent() : NULL;
    default:
        return NULL;
    }
}

void cadence_cancel_task(void *_Nonnull task) {
    if (swift_task_cancel) swift_task_cancel(task);
}

// The heap object's reference counting, C calling convention as `swift/Runtime/HeapObject.h` declares it: a task is a
// heap object, and a reference keeps it valid (not running) for `cadence_cancel_task` after it may have finished.
extern void *_Nullable swift_retain(void *_Nullable object) __attribute__((weak));
extern void swift_release(void *_Nullable object) __attribute__((weak));

void *_Nullable cadence_retain_current_task(void) {
    if (!swift_task_getCurrent || !swift_retain || !swift_release) return NULL;
    void *task = swift_task_getCurrent();
    if (task) swift_retain(task);
    return task;
}

void cadence_release_task(void *_Nonnull task) {
    swift_release(task);
}

// The main-executor hooks: the runtime asks `swift_task_getMainExecutor` for the main actor's executor whenever code
// hops to the main actor or a task is created on it, and `swift_task_isMainExecutor` whether an executor is the main
// one. Swift 6.2 and later enqueue a main-actor job straight on the main dispatch queue, past the enqueue hook above;
// answering with an executor of Cadence's own brings those jobs to Cadence too.
typedef CADENCE_SWIFT_CC CadenceExecutorRef (*CadenceGetMainOriginal)(void);
typedef CADENCE_SWIFT_CC CadenceExecutorRef (*CadenceGetMainHook)(CadenceGetMainOriginal _Nonnull original);
typedef CADENCE_SWIFT_CC bool (*CadenceIsMainOriginal)(CadenceExecutorRef executor);
typedef CADENCE_SWIFT_CC bool (*CadenceIsMainHook)(CadenceExecutorRef executor, CadenceIsMainOriginal _Nonnull original);

extern CadenceGetMainHook _Nullable swift_task_getMainExecutor_hook __attribute__((weak));
extern CadenceIsMainHook _Nullable swift_task_isMainExecutor_hook __attribute__((weak));

static CadenceExecutorRef cadenceMainExecutor;

extern CADENCE_SWIFT_CC void swift_job_run(void *_Nonnull job, CadenceExecutorRef executor) __attribute__((weak));

extern CADENCE_SWIFT_CC CadenceExecutorRef swift_task_getCurrentExecutor(void) __attribute__((weak));

CadenceExecutorRef cadence_current_executor(void) {
    if (swift_task_getCurrentExecutor) return swift_task_getCurrentExecutor();
    CadenceExecutorRef none = { NULL, 0 };
    return none;
}

extern CADENCE_SWIFT_CC bool swift_task_isMainExecutor(CadenceExecutorRef executor) __attribute__((weak));

bool cadence_is_main_executor(CadenceExecutorRef executor) {
    // Without the entry point, no executor can be told to be the main one: an unknown one is taken to be it.
    if (!swift_task_isMainExecutor) return true;
    return swift_task_isMainExecutor(executor);
}

bool cadence_can_run_jobs(void) {
    return swift_job_run && swift_task_getJobTaskId && swift_task_getCurrent && swift_task_cancel
        && swift_task_enqueueGlobal;
}

bool cadence_can_run_jobs_nested(void) {
    return cadence_can_run_jobs() && swift_task_immediate;
}

void cadence_run_job_on_generic_executor(void *_Nonnull job) {
    // The generic executor is the null reference.
    CadenceExecutorRef generic = { NULL, 0 };
    swift_job_run(job, generic);
}
static CadenceGetMainHook cadencePreviousGetMainHook;
static CadenceIsMainHook cadencePreviousIsMainHook;
static pthread_once_t cadenceMainOnce = PTHREAD_ONCE_INIT;
static bool cadenceMainInstalled;
static CadenceExecutorRef cadencePendingMainExecutor;

static CADENCE_SWIFT_CC CadenceExecutorRef cadenceGetMain(CadenceGetMainOriginal _Nonnull original) {
    (void)original;
    return cadenceMainExecutor;
}

static CADENCE_SWIFT_CC bool cadenceIsMain(CadenceExecutorRef executor, CadenceIsMainOriginal _Nonnull original) {
    if (executor.identity == cadenceMainExecutor.identity) return true;
    if (cadencePreviousIsMainHook) return cadencePreviousIsMainHook(executor, original);
    return original(executor);
}

static void cadenceInstallMain(void) {
    if (!&swift_task_getMainExecutor_hook || !&swift_task_isMainExecutor_hook) return;
    cadenceMainExecutor = cadencePendingMainExecutor;
    cadencePreviousGetMainHook = swift_task_getMainExecutor_hook;
    cadencePreviousIsMainHook = swift_task_isMainExecutor_hook;
    swift_task_isMainExecutor_hook = cadenceIsMain;
    swift_task_getMainExecutor_hook = cadenceGetMain;
    cadenceMainInstalled = true;
}

bool cadence_install_main_executor(CadenceExecutorRef executor) {
    cadencePendingMainExecutor = executor;
    pthread_once(&cadenceMainOnce, cadenceInstallMain);
    return cadenceMainInstalled;
}

intptr_t cadence_atomic_load(const intptr_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}

bool cadence_atomic_compare_exchange(intptr_t *_Nonnull word, intptr_t expected, intptr_t value) {
    return __atomic_compare_exchange_n(word, &expected, value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

void cadence_spin_pause(void) {
    sched_yield();
}
