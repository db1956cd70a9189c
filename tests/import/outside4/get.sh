#!/bin/sh
# Fills tests/import/outside4/ with the fourth outside corpus's CUDA sources, unmodified, at the
# commits that SOURCES.tsv pins; the same as tests/import/real/get.sh, for this folder:
#
#   sh tests/import/outside4/get.sh [--no-held-out] GITDIR
here=$(cd "$(dirname "$0")" && pwd)
BANKSCOPE_CORPUS_DIR=$here exec sh "$here/../real/get.sh" "$@"
