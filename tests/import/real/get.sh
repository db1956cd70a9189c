#!/bin/sh
# Fills tests/import/real/ with the corpus's CUDA sources, unmodified, at the commits that
# SOURCES.tsv pins (each project's own licence applies to its files; the repository keeps only
# their names, commits, licences and the hand counts, not the code).
#
#   sh tests/import/real/get.sh GITDIR
#
# GITDIR holds one git repository per project, named OWNER+NAME (a clone, or a bare clone as
# OWNER+NAME/repo), for example made with
#   git clone --bare https://github.com/NVIDIA/cuda-samples GITDIR/NVIDIA+cuda-samples/repo
# SOURCES.tsv rows: DEST REPO COMMIT PATH. A PATH ending in '/' copies every header (*.h, *.cuh,
# *.hpp) directly in that folder to DEST/. Exit 0 when every file is in place, 1 otherwise.
dir=$(cd "$(dirname "$0")" && pwd)
gitdir=${1:-${BANKSCOPE_CORPUS_GIT:-}}
[ -n "$gitdir" ] && [ -d "$gitdir" ] || {
    echo "usage: sh $0 GITDIR (a folder of OWNER+NAME git repositories)" >&2
    exit 2
}
missing=0
# git_of REPO: the git directory of OWNER/NAME under $gitdir, or nothing.
git_of() {
    d="$gitdir/$(echo "$1" | tr / +)"
    for g in "$d/repo" "$d/.git" "$d"; do
        git --git-dir="$g" rev-parse --git-dir >/dev/null 2>&1 && { echo "$g"; return; }
    done
}
grep -v '^#' "$dir/SOURCES.tsv" | while IFS='	' read -r dest repo commit path; do
    [ -n "$dest" ] || continue
    g=$(git_of "$repo")
    if [ -z "$g" ]; then
        echo "get.sh: no git repository for $repo under $gitdir" >&2
        missing=1
        continue
    fi
    case "$path" in
    */)
        mkdir -p "$dir/$dest"
        git --git-dir="$g" ls-tree --name-only "$commit" "$path" | grep -E '\.(h|cuh|hpp)$' |
            while read -r f; do
                git --git-dir="$g" show "$commit:$f" >"$dir/$dest/$(basename "$f")"
            done
        ;;
    *)
        mkdir -p "$(dirname "$dir/$dest")"
        git --git-dir="$g" show "$commit:$path" >"$dir/$dest" 2>/dev/null || {
            echo "get.sh: $repo $commit:$path not found" >&2
            rm -f "$dir/$dest"
        }
        ;;
    esac
done
# every corpus file of the manifest must now be present
rc=0
for f in $(cut -f1 "$dir/MANIFEST.tsv" | grep -v '^file$' | sort -u); do
    [ -f "$dir/$f" ] || { echo "get.sh: $f is missing" >&2; rc=1; }
done
exit $rc
