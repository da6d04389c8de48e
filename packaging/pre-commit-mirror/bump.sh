#!/usr/bin/env bash
# Pins another schema-lint release: rewrites the `schema-lint==` pin in pyproject.toml and the
# `rev:` of the README's example. Then commit, tag v<version> and push the tag.
# Usage: ./bump.sh 0.2.0
set -euo pipefail
cd "$(dirname "$0")"
version=${1:?usage: bump.sh <version>, e.g. bump.sh 0.2.0}
version=${version#v}
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([.+-][0-9A-Za-z.+-]+)?$ ]] || {
    echo "bump.sh: not a version: $version" >&2
    exit 2
}
sed -i.bak -E "s/\"schema-lint==[^\"]*\"/\"schema-lint==$version\"/" pyproject.toml
sed -i.bak -E "s/^(    rev: )v[^ ]*/\1v$version/" README.md
rm -f pyproject.toml.bak README.md.bak
grep -q "\"schema-lint==$version\"" pyproject.toml || {
    echo "bump.sh: no schema-lint pin in pyproject.toml" >&2
    exit 1
}
echo "pinned schema-lint==$version; now: git commit -am 'schema-lint $version' && git tag v$version && git push --follow-tags"
