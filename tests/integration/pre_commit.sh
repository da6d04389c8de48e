#!/usr/bin/env bash
# The pre-commit hooks, run by the real pre-commit (from PyPI) against a throwaway repository
# whose .pre-commit-config.yaml points at this checkout at its current commit:
#   1. the check hook fails and names the finding;
#   2. the fix hook repairs the file and fails, as fixers do, because it changed it;
#   3. a second run of both passes.
# Usage: tests/integration/pre_commit.sh   (from the repository root; needs the commit checked in)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="$root/target/ci-venv-pre-commit"
PRE_COMMIT_VERSION=4.7.0

if [ ! -x "$venv/bin/pre-commit" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "pre-commit==$PRE_COMMIT_VERSION"
fi
rev=$(git -C "$root" rev-parse HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# pre-commit keeps its environments (and so the release build of schema-lint) here.
export PRE_COMMIT_HOME="$root/target/pre-commit-home"
export CARGO_TARGET_DIR="$root/target/pre-commit-build"

cd "$work"
git init -q repo && cd repo
git config user.email ci@example.invalid && git config user.name ci
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $root
    rev: $rev
    hooks:
      - id: schema-lint
      - id: schema-lint-fix
YAML
mkdir -p schemas
cat > schemas/tool.json <<'JSON'
{
  "$id": "my_tool:output",
  "type": "object",
  "properties": {"region": {"type": "string"}}
}
JSON
cat > package.json <<'JSON'
{"name": "demo", "type": "module", "version": "1.0.0"}
JSON
git add -A && git commit -qm "a schema with an invalid \$id"

fail() { echo "pre-commit integration: $*" >&2; exit 1; }

echo "== 1. the check hook fails with the finding"
set +e
out=$("$venv/bin/pre-commit" run schema-lint --all-files 2>&1); code=$?
set -e
echo "$out" | tail -20
[ "$code" -ne 0 ] || fail "the check hook passed on an invalid \$id"
echo "$out" | grep -q "SL201" || fail "the check hook did not name SL201"
echo "$out" | grep -q "package.json" && fail "the check hook reported package.json"

echo "== 2. the fix hook repairs the file, and fails because it changed it"
set +e
out=$("$venv/bin/pre-commit" run schema-lint-fix --all-files 2>&1); code=$?
set -e
echo "$out" | tail -20
[ "$code" -ne 0 ] || fail "the fix hook passed although it changed a file"
grep -q '"\$id": "my_tool_output"' schemas/tool.json || fail "the fix hook did not repair the \$id"
grep -q '"name": "demo"' package.json || fail "package.json changed"

echo "== 3. a second run passes"
"$venv/bin/pre-commit" run --all-files || fail "the second run did not pass"
echo "pre-commit integration: 3 passed, 0 failed"
