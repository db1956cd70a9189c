/* ldmatrix: one warp loads a 16x16 tile of 16-bit values with ldmatrix.x4 (each lane gives one
 * row address), .x2.trans and .x1, then stores it back with stmatrix.x4 (sm_90), on a tile with
 * rows of 16 elements (32 bytes: row r and r+4 share banks, a 2-way conflict) and a padded one. */
// clang-format off: each access shares its line with its ADDR_LOG
#include "addrlog.cuh"
#include <cstdint>

__global__ void ldmatrix_tile(unsigned *out)
{
    __shared__ __align__(128) unsigned short tile[16][16];
    __shared__ __align__(128) unsigned short padded[16][24];
    int lane = threadIdx.x;
    for (int i = lane; i < 256; i += 32) {
        tile[i / 16][i % 16] = (unsigned short)i;
        padded[i / 16][i % 16] = (unsigned short)i;
    }
    __syncwarp();
    unsigned r0, r1, r2, r3, acc = 0;
    const unsigned short *p = &tile[lane % 16][(lane / 16) * 8];
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a)); ADDR_LOG(p);
    acc += r0 ^ r1 ^ r2 ^ r3;
    const unsigned short *q = &padded[lane % 16][(lane / 16) * 8];
    unsigned b = (unsigned)__cvta_generic_to_shared(q);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(b)); if (lane < 16) ADDR_LOG(q);
    acc += r0 ^ r1;
    const unsigned short *s = &tile[lane % 8][8];
    unsigned c = (unsigned)__cvta_generic_to_shared(s);
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(c)); if (lane < 8) ADDR_LOG(s);
    acc += r0;
    __syncwarp();
    unsigned short *t = &padded[lane % 16][(lane / 16) * 8];
    unsigned d = (unsigned)__cvta_generic_to_shared(t);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(d), "r"(r0), "r"(r1), "r"(r2), "r"(r3)); ADDR_LOG(t);
    __syncwarp();
    out[lane] = acc + padded[lane % 16][lane / 2];
}

int main()
{
    unsigned *out, h[32];
    CHECK(cudaMalloc(&out, sizeof h));
    addrlog_arm(true);
    ldmatrix_tile<<<1, 32>>>(out);
    addrlog_print("ldmatrix_tile");
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    unsigned x = 0;
    for (int i = 0; i < 32; i++)
        x ^= h[i] * (i + 1);
    printf("xor %u\n", x);
    return 0;
}
