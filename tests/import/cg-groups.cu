// Cooperative groups: the block's size() and thread_rank(), a tile's size(), thread_rank() and
// meta_group_rank(), also through a thread_group parameter (bound to the block at one call and
// to a tile of 16 at the other).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int sum(cg::thread_group g, int *x, int v)
{
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        x[lane] = v;
        g.sync();
        if (lane < i)
            v += x[lane + i];
        g.sync();
    }
    return v;
}

__global__ void groups(int *out)
{
    __shared__ int work[64];
    __shared__ int per_tile[4];
    cg::thread_block block = cg::this_thread_block();
    int total = sum(block, work, block.thread_rank());
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int base = block.thread_rank() - tile.thread_rank();
    int part = sum(tile, work + base, tile.thread_rank());
    if (tile.thread_rank() == 0)
        per_tile[tile.meta_group_rank()] = part;
    out[block.thread_rank()] = total + per_tile[block.thread_rank() % 4];
}
