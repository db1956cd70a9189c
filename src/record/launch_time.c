/* launch_time: CUPTI activity buffers (the sample activity_trace_async's flow: request/complete
 * callbacks, cuptiActivityEnable, cuptiActivityFlushAll) reduced to finding one kernel record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/cupti_api.h"
#include "record/launch_time.h"

#define BUFFER_SIZE (1u << 20)
#define MAX_IDS 8

static uint32_t chosen_id[MAX_IDS];
static size_t nchosen;
static uint64_t duration_ns;
static bool found;

/* CUPTI asks for a buffer to fill with records. */
static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUFFER_SIZE);
    *size = *buffer ? BUFFER_SIZE : 0;
    *max_records = 0;
}

/* CUPTI hands back a filled buffer: keep the chosen launch's kernel duration. */
static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *rec = NULL;
    while (cupti_api.cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        for (size_t i = 0; i < nchosen; i++)
            if (k->correlationId == chosen_id[i] && k->end > k->start) {
                duration_ns = k->end - k->start;
                found = true;
            }
    }
    free(buffer);
}

bool launch_time_start(char *why, size_t n)
{
    if (!cupti_api_load(why, n))
        return false;
    CUptiResult r = cupti_api.cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r == CUPTI_SUCCESS)
        r = cupti_api.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (r != CUPTI_SUCCESS) {
        snprintf(why, n, "CUPTI kernel timing unavailable: %s", cupti_api_error(r));
        return false;
    }
    return true;
}

void launch_time_note(uint32_t correlation_id)
{
    if (nchosen < MAX_IDS)
        chosen_id[nchosen++] = correlation_id;
}

bool launch_time_end(CUcontext ctx, uint64_t *ns, char *why, size_t n)
{
    CUcontext prev = NULL;
    bool pushed = cupti_driver.ctx_push(ctx) == CUDA_SUCCESS;
    CUresult cr = cupti_driver.ctx_synchronize();
    if (pushed)
        cupti_driver.ctx_pop(&prev);
    if (cr != CUDA_SUCCESS) {
        snprintf(why, n, "the launch failed in the timing run (CUDA error %d)", (int)cr);
        return false;
    }
    CUptiResult r = cupti_api.cuptiActivityFlushAll(1);
    if (r != CUPTI_SUCCESS) {
        snprintf(why, n, "CUPTI kernel timing flush failed: %s", cupti_api_error(r));
        return false;
    }
    if (!found) {
        snprintf(why, n, "CUPTI delivered no kernel record for the launch");
        return false;
    }
    *ns = duration_ns;
    return true;
}
