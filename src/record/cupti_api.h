/* cupti_api: CUPTI's entry points for the measuring passes of the injection library (the SASS
 * metrics count and the clean timing), resolved with dlopen/dlsym when a pass starts so that the
 * library loads into a program on a machine without CUPTI and says why it measured nothing.
 * Runs inside the recorded program; the types come from the toolkit's CUPTI headers.
 * Ownership: one process-wide table, filled once by cupti_api_load and never unloaded. */
#ifndef BANKSCOPE_RECORD_CUPTI_API_H
#define BANKSCOPE_RECORD_CUPTI_API_H

#include <stdbool.h>
#include <stddef.h>

#include <cupti.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#define CUPTI_API_FUNCS(X)                                                                                             \
    X(cuptiGetResultString)                                                                                            \
    X(cuptiSubscribe)                                                                                                  \
    X(cuptiEnableDomain)                                                                                               \
    X(cuptiEnableCallback)                                                                                             \
    X(cuptiActivityRegisterCallbacks)                                                                                  \
    X(cuptiActivityEnable)                                                                                             \
    X(cuptiActivityFlushAll)                                                                                           \
    X(cuptiActivityGetNextRecord)                                                                                      \
    X(cuptiProfilerInitialize)                                                                                         \
    X(cuptiProfilerDeviceSupported)                                                                                    \
    X(cuptiDeviceGetChipName)                                                                                          \
    X(cuptiSassMetricsGetProperties)                                                                                   \
    X(cuptiSassMetricsSetConfig)                                                                                       \
    X(cuptiSassMetricsUnsetConfig)                                                                                     \
    X(cuptiSassMetricsEnable)                                                                                          \
    X(cuptiSassMetricsDisable)                                                                                         \
    X(cuptiSassMetricsGetDataProperties)                                                                               \
    X(cuptiSassMetricsFlushData)                                                                                       \
    X(cuptiGetCubinCrc)                                                                                                \
    X(cuptiGetSassToSourceCorrelation)

typedef struct {
#define CUPTI_API_FIELD(f) __typeof__(&f) f;
    CUPTI_API_FUNCS(CUPTI_API_FIELD)
#undef CUPTI_API_FIELD
} cupti_api_table;

/* The table, valid after cupti_api_load returned true. */
extern cupti_api_table cupti_api;

/* The few driver entry points the measuring passes call, from the libcuda.so.1 the program has
 * already loaded (the library is never linked against the driver). */
typedef struct {
    CUresult (*ctx_synchronize)(void);
    CUresult (*ctx_push)(CUcontext);
    CUresult (*ctx_pop)(CUcontext *);
    CUresult (*ctx_get_device)(CUdevice *);
    CUresult (*device_get_name)(char *, int, CUdevice);
    CUresult (*device_get_attribute)(int *, CUdevice_attribute, CUdevice);
} cupti_driver_table;

/* Valid after cupti_api_load returned true. */
extern cupti_driver_table cupti_driver;

/* Loads libcupti (the toolkit major version's soname, first from $BANKSCOPE_CUPTI_DIR, then the
 * toolkit folders, then the library path) and resolves every entry, and the driver's entries
 * above; false with a reason. */
bool cupti_api_load(char *why, size_t n);

/* "CUPTI_ERROR_..." text of a result (its number when CUPTI is not loaded). */
const char *cupti_api_error(CUptiResult r);

#endif
