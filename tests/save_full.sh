#!/bin/sh
# Saving onto a full disk never loses the old file: on a small tmpfs mounted for the test (root
# only: skips with 77 where mount is not allowed), filled so that the temporary copy of the new
# content fits but not a second copy, `export --svg` onto
#  - a file with another hard link (written in place after the temporary copy): refused, the old
#    bytes unchanged on both names, the message says so and names the complete new content;
#  - a plain file (replaced by rename) when even the temporary copy does not fit: refused,
#    "nothing was written", the old file unchanged;
# and onto a FIFO that no process reads: refused at once with a message (no hang).
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
tmp=$(mktemp -d) || exit 99
mnt="$tmp/mnt"
mkdir "$mnt"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# a FIFO with no reader (needs no mount)
mkfifo "$tmp/fifo"
timeout 10 "$bin" export default --svg "$tmp/fifo" > "$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "no process reads that pipe; nothing was written" "$tmp/out" && ok || {
    bad "export onto a FIFO with no reader: status $rc"; cat "$tmp/out"; }

if ! mount -t tmpfs -o size=2m tmpfs "$mnt" 2>/dev/null; then
    echo "save_full: cannot mount a tmpfs here (not root?): the full-disk cases skipped ($pass passed, $fail failed)"
    [ $fail -eq 0 ] || exit 1
    exit 77
fi
"$bin" export default --svg "$tmp/new.svg" > /dev/null 2>&1 || { bad "export to $tmp/new.svg"; exit 1; }
n=$(wc -c < "$tmp/new.svg")
bs=$(stat -f -c %S "$mnt")
need=$(((n + bs - 1) / bs))
[ "$need" -ge 2 ] || { echo "the SVG is too small for the test ($n bytes)"; exit 99; }

# fill FREE: fill the file system up to FREE blocks left
fill() {
    rm -f "$mnt/fill"
    avail=$(stat -f -c %a "$mnt")
    dd if=/dev/zero of="$mnt/fill" bs="$bs" count=$((avail - $1)) 2>/dev/null
    [ "$(stat -f -c %a "$mnt")" -eq "$1" ] || { echo "could not fill $mnt to $1 blocks"; exit 99; }
}

# the hard-linked file: the temporary copy fits, the in-place write would need as much again
printf 'the old content\n' > "$mnt/old.svg"
ln "$mnt/old.svg" "$mnt/link.svg"
cp "$mnt/old.svg" "$tmp/orig"
fill "$need"
"$bin" export default --svg "$mnt/old.svg" > "$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && ok || bad "export onto a linked file of a full disk: status 0"
cmp -s "$mnt/old.svg" "$tmp/orig" && cmp -s "$mnt/link.svg" "$tmp/orig" && ok || {
    bad "the old file changed:"; head -c 200 "$mnt/old.svg"; echo; }
grep -q "No space left on device while writing in place; the old file is unchanged (the new content is in " "$tmp/out" &&
    ok || { bad "the message:"; cat "$tmp/out"; }
# ... the temporary copy it names holds the complete new content
kept=$(sed -n 's/.*(the new content is in \(.*\))$/\1/p' "$tmp/out")
[ -n "$kept" ] && cmp -s "$kept" "$tmp/new.svg" && ok || bad "the temporary copy '$kept' is not the new content"
rm -f "$kept"
# ... and with the space there, the same save goes through, both names see it
rm -f "$mnt/fill"
"$bin" export default --svg "$mnt/old.svg" > "$tmp/out" 2>&1 && cmp -s "$mnt/link.svg" "$tmp/new.svg" && ok ||
    { bad "the save with room: $(cat "$tmp/out")"; }

# a plain file when not even the temporary copy fits
rm -f "$mnt/link.svg"
printf 'the old content\n' > "$mnt/old.svg"
fill 1
"$bin" export default --svg "$mnt/old.svg" > "$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && cmp -s "$mnt/old.svg" "$tmp/orig" && grep -q "No space left on device; nothing was written" "$tmp/out" &&
    ok || { bad "a plain file on a full disk: status $rc"; cat "$tmp/out"; }
[ -z "$(find "$mnt" -name '.old.svg.*')" ] && ok || bad "a temporary file was left: $(ls -a "$mnt")"

echo "save_full: $pass passed, $fail failed"
[ $fail -eq 0 ]
