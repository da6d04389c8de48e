#!/usr/bin/env bash
# Seeds the fuzz corpora, named by hash so that seeding twice adds nothing (the corpus folders
# are not committed: .gitignore). `bytes` gets every JSON file under testdata/, the
# JSON-Schema-Test-Suite vendored in testdata/jsts included; `schemas` reads its input as the
# generator's choices, not as JSON, so testdata/ without the suite is seed enough: the suite's
# 1,800 files would only slow its replay.
set -euo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$fuzz")"
seed() { # target, folders [find tests...]
  local target="$1" count=0 file name
  shift
  mkdir -p "$fuzz/corpus/$target"
  while IFS= read -r -d '' file; do
    name="$(sha1sum "$file" | cut -c1-40)"
    [ -e "$fuzz/corpus/$target/$name" ] || cp "$file" "$fuzz/corpus/$target/$name"
    count=$((count + 1))
  done < <(find "$@" -type f -name '*.json' -size -64k -print0)
  echo "seeded $count files into fuzz/corpus/$target"
}
seed bytes "$root/testdata"
seed schemas "$root/testdata" -not -path "$root/testdata/jsts/*"
