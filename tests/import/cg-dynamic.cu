// Cooperative groups as the training exercises write them: tiles made at run time
// (tiled_partition(parent, 16), kept in 'auto' variables and handed on as thread_group), and the
// block's dim3 methods (thread_index(), group_dim(), group_index()) for the built-ins.
#include <cooperative_groups.h>
using namespace cooperative_groups;

__device__ int reduce(thread_group g, int *x, int val)
{
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        x[lane] = val;
        g.sync();
        if (lane < i)
            val += x[lane + i];
        g.sync();
    }
    return val;
}

__global__ void k(int *data)
{
    __shared__ int sdata[128];
    __shared__ float part[128];
    auto block = this_thread_block();
    auto g32 = tiled_partition(block, 32);
    auto g = tiled_partition(g32, 16);
    int offset = (block.thread_index().x / g.size()) * g.size();
    reduce(g, sdata + offset, data[block.group_index().x * block.group_dim().x + block.thread_index().x]);
    part[block.thread_index().x] = 1.0f;
    block.sync();
    for (unsigned s = block.group_dim().x / 2; s > 0; s >>= 1) {
        if (block.thread_index().x < s)
            part[block.thread_index().x] += part[block.thread_index().x + s];
        block.sync();
    }
}
