// Values followed through straight-line code: a variable reassigned (pos += 64), set under a
// condition (a ?: of both values), a simple induction variable (off += 32 once per iteration),
// and a loop variable declared before its for statement and used by two loops.
__global__ void values(float *o)
{
    __shared__ float s[512];
    int tx = threadIdx.x;
    int pos = 2 * tx;
    s[pos] = 1.0f;
    pos += 64;
    s[pos] = 2.0f;
    if (tx < 8)
        pos = tx;
    s[pos] = 3.0f;
    int off = 0;
    for (int i = 0; i < 4; i++) {
        s[off + tx] = 4.0f;
        off += 32;
        s[off + tx] = 5.0f;
    }
    int j;
    for (j = 0; j < 2; j++)
        s[j * 32 + tx] = 7.0f;
    for (j = 0; j < 2; j++)
        s[j * 64 + tx] = 8.0f;
    o[tx] = s[tx];
}
