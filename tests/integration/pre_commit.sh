#!/usr/bin/env bash
# The pre-commit hooks, run by the real pre-commit (from PyPI) against a throwaway repository
# whose .pre-commit-config.yaml points at this checkout at its current commit:
#   1. the check hook fails and names the finding;
#   2. the fix hook repairs the file and fails, as fixers do, because it changed it;
#   3. a second run of both passes;
#   4. with two linked files and only one staged, the check hook resolves the reference into the
#      unstaged one (from the root and from a subfolder);
#   5. the fix hook, given only the file whose `$id` it renames, follows the rename into the
#      unstaged file that names it, and says so; the whole repository then lints clean.
# Usage: tests/integration/pre_commit.sh [--install-only]   (needs the commit checked in)
#   --install-only  only installs pre-commit and the hooks' environment (the release build of
#                   this commit), which a later full run reuses; .ci/run starts it early, in the
#                   background, so that the build overlaps the steps that wait on the network.
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
cat > schemas/legacy.jsonc <<'JSON'
// JSON with comments: the hooks take it too, and keep its comments when they fix it.
{
  "$id": "legacy_tool:output",
  "type": "object",
}
JSON
cat > package.json <<'JSON'
{"name": "demo", "type": "module", "version": "1.0.0"}
JSON
git add -A && git commit -qm "a schema with an invalid \$id"

fail() { echo "pre-commit integration: $*" >&2; exit 1; }

if [ "${1:-}" = "--install-only" ]; then
  "$venv/bin/pre-commit" install-hooks
  exit 0
fi

echo "== 1. the check hook fails with the finding"
set +e
out=$("$venv/bin/pre-commit" run schema-lint --all-files 2>&1); code=$?
set -e
echo "$out" | tail -20
[ "$code" -ne 0 ] || fail "the check hook passed on an invalid \$id"
echo "$out" | grep -q "SL201" || fail "the check hook did not name SL201"
echo "$out" | grep -q "package.json" && fail "the check hook reported package.json"
echo "$out" | grep -q "legacy.jsonc" || fail "the check hook did not lint the .jsonc file"

echo "== 2. the fix hook repairs the file, and fails because it changed it"
set +e
out=$("$venv/bin/pre-commit" run schema-lint-fix --all-files 2>&1); code=$?
set -e
echo "$out" | tail -20
[ "$code" -ne 0 ] || fail "the fix hook passed although it changed a file"
grep -q '"\$id": "my_tool_output"' schemas/tool.json || fail "the fix hook did not repair the \$id"
grep -q '"name": "demo"' package.json || fail "package.json changed"
grep -q '"\$id": "legacy_tool_output"' schemas/legacy.jsonc || fail "the fix hook did not repair the .jsonc file"
grep -q '^// JSON with comments' schemas/legacy.jsonc || fail "the fix hook lost the .jsonc file's comment"

echo "== 3. a second run passes"
"$venv/bin/pre-commit" run --all-files || fail "the second run did not pass"

# Two linked files, only one of them staged: the hooks get only the staged file, and schema-lint
# still reads the other one as context.
cat > schemas/ticket.json <<'JSON'
{
  "$id": "urn:my_tool:ticket",
  "type": "object",
  "properties": {"id": {"type": "string"}}
}
JSON
cat > schemas/list.json <<'JSON'
{
  "type": "object",
  "properties": {"items": {"type": "array", "items": {"$ref": "urn:my_tool:ticket"}}}
}
JSON
git add -A && git commit -qm "two linked schemas" --no-verify

echo "== 4. only list.json staged: its reference into ticket.json resolves (from the root and a subfolder)"
sed -i 's/"type": "object",/"type": "object", "title": "List",/' schemas/list.json
git add schemas/list.json
out=$("$venv/bin/pre-commit" run schema-lint 2>&1) || { echo "$out"; fail "the check hook failed on a staged list.json"; }
echo "$out" | grep -q "SL30[23]" && fail "the check hook did not see ticket.json: $out"
out=$(cd schemas && "$venv/bin/pre-commit" run schema-lint 2>&1) || { echo "$out"; fail "the check hook failed from a subfolder"; }
git commit -qm "list title" --no-verify

echo "== 5. only ticket.json staged: the fix hook renames its \$id and follows it into list.json"
sed -i 's/"type": "object",/"type": "object", "title": "Ticket",/' schemas/ticket.json
git add schemas/ticket.json
set +e
out=$(cd schemas && "$venv/bin/pre-commit" run schema-lint-fix 2>&1); code=$?
set -e
echo "$out" | tail -8
[ "$code" -ne 0 ] || fail "the fix hook passed although it changed files"
grep -q '"\$id": "urn:my-tool:ticket"' schemas/ticket.json || fail "the fix hook did not rename the \$id"
grep -q '"\$ref": "urn:my-tool:ticket"' schemas/list.json || fail "the fix hook left list.json's \$ref dangling"
echo "$out" | grep -q "Also changed" || fail "the fix hook did not say it also changed list.json"
"$venv/bin/pre-commit" run --all-files || fail "the whole repository does not lint clean after the fix"
echo "pre-commit integration: 5 passed, 0 failed"
