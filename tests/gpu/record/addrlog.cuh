/* addrlog: how the record test programs print the shared-memory addresses they compute, for
 * comparison with what `bankscope record` captures. ADDR_LOG(p) on the same source line as the
 * access to *p logs (line, linear thread index, shared-window offset of p) for the threads of
 * block LOG_BLOCK (0,0,0 unless the program sets it); the host prints each as
 * "addr LINE TID OFFSET" after the launch (addrlog_print; nothing when ADDRLOG_QUIET is set). Only block (0,0,0)'s launch that
 * addrlog_arm armed logs. */
#pragma once
#include <cstdio>
#include <cstdlib>

#define ADDRLOG_MAX (1 << 20)
struct addrlog {
    unsigned n;
    unsigned armed;
    unsigned line[ADDRLOG_MAX], tid[ADDRLOG_MAX], addr[ADDRLOG_MAX];
};
__device__ addrlog *g_addrlog;

__device__ __noinline__ void addrlog_put(unsigned line, const void *p)
{
    addrlog *g = g_addrlog;
    if (!g || !g->armed || blockIdx.x | blockIdx.y | blockIdx.z)
        return;
    unsigned i = atomicAdd(&g->n, 1u);
    if (i >= ADDRLOG_MAX)
        return;
    g->line[i] = line;
    g->tid[i] = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    g->addr[i] = (unsigned)__cvta_generic_to_shared(p);
}
#define ADDR_LOG(p) addrlog_put(__LINE__, (const void *)(p))

#define CHECK(x)                                                                                                       \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                                \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

static addrlog *addrlog_dev;

/* Allocate the log and arm it for the next launch. */
static void addrlog_arm(bool armed)
{
    if (!addrlog_dev) {
        CHECK(cudaMalloc(&addrlog_dev, sizeof(addrlog)));
        CHECK(cudaMemcpyToSymbol(g_addrlog, &addrlog_dev, sizeof addrlog_dev));
    }
    unsigned h[2] = {0, armed ? 1u : 0u};
    CHECK(cudaMemcpy(addrlog_dev, h, sizeof h, cudaMemcpyHostToDevice));
}

/* Print what the armed launch logged: "addr LINE TID OFFSET", prefixed by tag. */
static void addrlog_print(const char *tag)
{
    CHECK(cudaDeviceSynchronize());
    if (getenv("ADDRLOG_QUIET")) /* the README's example: the program's own output only */
        return;
    static addrlog h;
    CHECK(cudaMemcpy(&h, addrlog_dev, sizeof h, cudaMemcpyDeviceToHost));
    unsigned n = h.n < ADDRLOG_MAX ? h.n : ADDRLOG_MAX;
    for (unsigned i = 0; i < n; i++)
        printf("addr %s %u %u %u\n", tag, h.line[i], h.tid[i], h.addr[i]);
}
