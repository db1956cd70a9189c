#!/bin/sh
# Rebuilds the tensor-era calibration table (tests/data/h200_tensor.tsv) on a GPU machine with
# CUDA (nvcc, CUPTI) and python3: the patterns of tests/gpu/tensor_patterns.py, measured by
# tests/gpu/calib_tensor.cu in one process per counter group (see its header), merged into the
# calibration columns. Usage: sh tests/gpu/calib_tensor.sh OUT.tsv [BINARY]. Exit 77 without a GPU.
set -u
out=${1:?usage: calib_tensor.sh OUT.tsv [BINARY]}
dir=$(dirname "$0")
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
nvidia-smi > /dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
bin=${2:-$tmp/calib_tensor}
[ -x "$bin" ] || nvcc -O2 -arch=sm_90 -std=c++17 "$dir/calib_tensor.cu" -o "$bin" -lcupti -lcuda || exit 99
python3 "$dir/tensor_patterns.py" calib > "$tmp/in.tsv" || exit 99
S=smsp__sass_l1tex_data
L=l1tex__data
grep -P '\t(ldmatrix|stmatrix|cp\.async\.ca)\t' "$tmp/in.tsv" > "$tmp/sass.tsv"
grep -P '\t(atom|red)\.' "$tmp/in.tsv" > "$tmp/atom.tsv"
# per-op counters: LDSM, STSM and LDGSTS through the SASS metrics, atomics through the hardware's
CALIB_NO_CYCLES=1 CALIB_METRICS=$S\_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,$S\_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum,$S\_pipe_lsu_wavefronts_mem_shared_op_stsm.sum,$S\_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum,$S\_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,$S\_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum \
    "$bin" "$tmp/sass.tsv" "$tmp/m_sass.tsv" > /dev/null || exit 1
CALIB_NO_CYCLES=1 CALIB_METRICS=$L\_pipe_lsu_wavefronts_mem_shared_op_atom.sum,$L\_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum \
    "$bin" "$tmp/atom.tsv" "$tmp/m_atom.tsv" > /dev/null || exit 1
CALIB_NO_COUNTERS=1 "$bin" "$tmp/in.tsv" /dev/null > "$tmp/cycles.tsv" || exit 1
# merge: counters of the instruction's own op, cycles; 8-byte atomics other than exch and cas
# (compare-and-swap loops) and cp.async.cg (no shared wavefronts in any counter) are left out
{
    sed -n '1,20p' "$dir/../data/h200_tensor.tsv" | grep '^#'
    printf 'id\top\twidth\twavefronts\tbank_conflicts\tcycles\taddresses\n'
    awk -F'\t' 'FILENAME ~ /m_sass/ { s[$1] = $4 " " $5 " " $6 " " $7 " " $8 " " $9; next }
        FILENAME ~ /m_atom/ { a[$1] = $4 " " $5; next }
        FILENAME ~ /cycles/ { if ($1 != "id" && $1 !~ /^#/) c[$1] = $6; next }
        $1 == "id" { next }
        {
            op = $2; w = $3
            if (op ~ /^ldmatrix/) { split(s[$1], v, " "); wf = v[1]; bc = v[2] }
            else if (op ~ /^stmatrix/) { split(s[$1], v, " "); wf = v[3]; bc = v[4] }
            else if (op == "cp.async.ca") { split(s[$1], v, " "); wf = v[5]; bc = v[6]; op = "cp.async" }
            else if (op ~ /^(atom|red)\./ && (w == 4 || op == "atom.exch" || op == "atom.cas")) { split(a[$1], v, " "); wf = v[1]; bc = v[2] }
            else next
            printf "%s\t%s\t%s\t%d\t%d\t%.3f\t%s\n", $1, op, w, wf, bc, c[$1], $7
        }' "$tmp/m_sass.tsv" "$tmp/m_atom.tsv" "$tmp/cycles.tsv" "$tmp/in.tsv"
} > "$out"
echo "$(grep -vc '^#' "$out") rows in $out"
