#!/bin/sh
# Fills tests/import/real/ with the corpus's CUDA sources, unmodified, at the commits that
# SOURCES.tsv pins (each project's own licence applies to its files; the repository keeps only
# their names, commits, licences and the hand counts, not the code).
#
#   sh tests/import/real/get.sh [--no-held-out] GITDIR
#
# GITDIR holds one git repository per project, named OWNER+NAME (a clone, or a bare clone as
# OWNER+NAME/repo), for example made with
#   git clone --bare https://github.com/NVIDIA/cuda-samples GITDIR/NVIDIA+cuda-samples/repo
# SOURCES.tsv rows: DEST REPO COMMIT PATH. A PATH ending in '/' copies every header (*.h, *.cuh,
# *.hpp) directly in that folder to DEST/. --no-held-out leaves out the files of the held-out
# kernels (MANIFEST.tsv) and what only they include, for developing an importer without them.
# BANKSCOPE_CORPUS_DIR names another corpus folder with its own SOURCES.tsv and MANIFEST.tsv
# (tests/import/outside/get.sh uses it). Exit 0 when every file asked for is in place, 1 otherwise.
dir=$(cd "${BANKSCOPE_CORPUS_DIR:-$(dirname "$0")}" && pwd)
dev=0
if [ "${1:-}" = "--no-held-out" ]; then
    dev=1
    shift
fi
gitdir=${1:-${BANKSCOPE_CORPUS_GIT:-}}
[ -n "$gitdir" ] && [ -d "$gitdir" ] || {
    echo "usage: sh $0 [--no-held-out] GITDIR (a folder of OWNER+NAME git repositories)" >&2
    exit 2
}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# the destinations to leave out: held-out files, and include folders that no other kernel names
: >"$tmp/skip"
if [ $dev -eq 1 ]; then
    awk -F'\t' 'NR > 1 {
            n = split($3, w, " ")
            for (i = 1; i < n; i++) if (w[i] == "-I") { if ($6 == "yes") held[w[i + 1]] = 1; else used[w[i + 1]] = 1 }
            if ($6 == "yes") heldfile[$1] = 1; else devfile[$1] = 1
        }
        END {
            for (f in heldfile) if (!(f in devfile)) print f
            for (d in held) if (!(d in used)) print d
        }' "$dir/MANIFEST.tsv" >"$tmp/skip"
fi
# skipped DEST: whether DEST is, or lies in, a destination left out
skipped() {
    while read -r s; do
        case "$1" in "$s" | "$s"/*) return 0 ;; esac
    done <"$tmp/skip"
    return 1
}
# git_of REPO: the git directory of OWNER/NAME under $gitdir, or nothing.
git_of() {
    d="$gitdir/$(echo "$1" | tr / +)"
    for g in "$d/repo" "$d/repo/.git" "$d/.git" "$d"; do
        git --git-dir="$g" rev-parse --git-dir >/dev/null 2>&1 && { echo "$g"; return; }
    done
}
grep -v '^#' "$dir/SOURCES.tsv" | while IFS='	' read -r dest repo commit path; do
    [ -n "$dest" ] || continue
    skipped "$dest" && continue
    g=$(git_of "$repo")
    if [ -z "$g" ]; then
        echo "get.sh: no git repository for $repo under $gitdir" >&2
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
# every corpus file asked for must now be present
rc=0
for f in $(cut -f1 "$dir/MANIFEST.tsv" | grep -v '^file$' | sort -u); do
    skipped "$f" && continue
    [ -f "$dir/$f" ] || { echo "get.sh: $f is missing" >&2; rc=1; }
done
exit $rc
