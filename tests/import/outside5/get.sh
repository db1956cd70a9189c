#!/bin/sh
# Fills tests/import/outside5/ with the fifth outside corpus's CUDA sources, unmodified, at the
# commits that SOURCES.tsv pins; the same as tests/import/real/get.sh, for this folder:
#
#   sh tests/import/outside5/get.sh [--no-held-out] GITDIR
here=$(cd "$(dirname "$0")" && pwd)
BANKSCOPE_CORPUS_DIR=$here exec sh "$here/../real/get.sh" "$@"
