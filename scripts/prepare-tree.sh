#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make build/linux a 6.12 tree with kmark in it:
#  1. extract /usr/src/linux-source-6.12.tar.xz once (again if Debian ships
#     a new 6.12.y);
#  2. apply scripts/patches/ (quilt-style "series" file) to existing kernel
#     files; when the series changes, only the patches from the first changed
#     one on are reverted and re-applied;
#  3. overlay our kernel/, include/, samples/ and Documentation/ files, copying only changed content so
#     that make rebuilds only what changed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
INFO_TAG=TREE

tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$tarball" ] || die "$tarball not found: run 'make setup' first"
version=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown)
state=$SRC/.kmark
mkdir -p "$BUILD"

if [ ! -f "$state/source-version" ] || [ "$(cat "$state/source-version")" != "$version" ]; then
	info "extracting linux-source-6.12 $version (about 20 s)"
	rm -rf "$SRC" "$BUILD/linux.tmp"
	mkdir -p "$BUILD/linux.tmp"
	tar -xf "$tarball" -C "$BUILD/linux.tmp"
	mv "$BUILD/linux.tmp/linux-source-6.12" "$SRC"
	rmdir "$BUILD/linux.tmp"
	mkdir -p "$state/applied"
	echo "$version" > "$state/source-version"
fi

# --- patches -----------------------------------------------------------
pdir=$top/scripts/patches
mapfile -t want < <(grep -v -e '^#' -e '^[[:space:]]*$' "$pdir/series")
mapfile -t have < <([ -f "$state/applied/series" ] && cat "$state/applied/series" || true)

# First index where the applied series and the wanted one differ.
first=0
while [ $first -lt ${#have[@]} ] && [ $first -lt ${#want[@]} ] &&
      [ "${have[$first]}" = "${want[$first]}" ] &&
      cmp -s "$pdir/${want[$first]}" "$state/applied/${have[$first]}"; do
	first=$((first + 1))
done

for ((i = ${#have[@]} - 1; i >= first; i--)); do
	p=${have[$i]}
	info "reverting $p"
	patch -d "$SRC" -p1 -R -s -N < "$state/applied/$p" ||
		die "cannot revert $p; remove $SRC to start over"
	rm -f "$state/applied/$p"
done

applied=("${want[@]:0:$first}")
printf '%s\n' "${applied[@]}" | grep -v '^$' > "$state/applied/series" || true
for ((i = first; i < ${#want[@]}; i++)); do
	p=${want[$i]}
	if ! out=$(patch -d "$SRC" -p1 -N --dry-run < "$pdir/$p" 2>&1); then
		printf '%s\n' "$out" >&2
		die "patch scripts/patches/$p does not apply to linux-source-6.12 $version; refresh it against this tree (the hunks above failed)"
	fi
	info "applying $p"
	patch -d "$SRC" -p1 -N -s --no-backup-if-mismatch < "$pdir/$p"
	cp "$pdir/$p" "$state/applied/$p"
	echo "$p" >> "$state/applied/series"
done

# --- overlay -----------------------------------------------------------
list=$state/overlay.list
touch "$list"
new_list=$(mktemp)
(cd "$top" && find kernel include samples Documentation -type f ! -name '*~' | LC_ALL=C sort) > "$new_list"
# Files we overlaid before but no longer have.
comm -23 "$list" "$new_list" | while read -r f; do
	info "removing $f"
	rm -f "$SRC/$f"
done
while read -r f; do
	if [ -e "$SRC/$f" ] && ! grep -qxF "$f" "$list"; then
		die "overlay file $f would overwrite a kernel file; change it with a patch instead"
	fi
	if ! cmp -s "$top/$f" "$SRC/$f"; then
		mkdir -p "$(dirname "$SRC/$f")"
		cp "$top/$f" "$SRC/$f"
		# The kernel file list stays right even if we are interrupted.
		grep -qxF "$f" "$list" || echo "$f" >> "$list"
	fi
done < "$new_list"
mv "$new_list" "$list"
