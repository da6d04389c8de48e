#!/usr/bin/env bash
# The packages, built and installed as their users install them, offline after the first run:
#   1. `bash scripts/package.sh` builds the wheel and this platform's npm tarballs into dist/;
#      the binary in the wheel is stripped and at most 15 MB;
#   2. the wheel, installed by pip (--no-index) into a fresh venv, finds what the cargo-built
#      binary finds in testdata/examples (same concise output, exit 1);
#   3. the npm tarballs, installed by `npm install --offline` with an empty cache, do the same
#      through the launcher; without the platform package the launcher says what to do, exit 2;
#   4. the real pre-commit (from PyPI) installs the hooks of packaging/pre-commit-mirror/, pinned
#      by a tag of a throwaway copy, from the wheel: no cargo or rustc runs (they are replaced by
#      traps on PATH) and the install takes under 60 s; the check hook fails on an invalid `$id`,
#      the fix hook repairs it, and both pass on a good schema;
#   5. action.yml's steps, run as GitHub runs composite steps (bash -eo pipefail, GITHUB_PATH,
#      GITHUB_OUTPUT), install the wheel and write the annotations and the SARIF file.
# Usage: tests/integration/package.sh [path/to/schema-lint]   (default: target/debug/schema-lint)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

LINTER="${1:-target/debug/schema-lint}"
PRE_COMMIT_VERSION=4.7.0
# The build backend of the mirror's package, which pip needs to install it with --no-index.
SETUPTOOLS_VERSION=84.2.1
MAX_BINARY_BYTES=$((15 * 1000 * 1000))
pre_commit_venv="$root/target/ci-venv-pre-commit"
wheelhouse="$root/target/package-wheelhouse"

start=$SECONDS
passed=0
fail() {
    echo "package: FAILED: $*" >&2
    exit 1
}
ok() {
    passed=$((passed + 1))
    echo "package: ok: $*"
}
# Runs a command, leaving its exit code in $code instead of stopping the script.
run() {
    set +e
    "$@"
    code=$?
    set -e
}

[ -x "$LINTER" ] || fail "no schema-lint binary at $LINTER (build it first: cargo build)"
for tool in python3 node npm git; do
    command -v "$tool" >/dev/null || fail "$tool is required"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# What the cargo-built binary finds: every package must find the same.
run "$LINTER" --output-format concise testdata/examples >"$work/expected.txt" 2>/dev/null
[ "$code" -eq 1 ] || fail "$LINTER exited $code on testdata/examples, not 1"
[ -s "$work/expected.txt" ] || fail "$LINTER found nothing in testdata/examples"
same_findings() { # what, exit code, output file
    [ "$2" -eq 1 ] || fail "$1 exited $2 on testdata/examples, not 1"
    diff -u "$work/expected.txt" "$3" || fail "$1 does not find what $LINTER finds"
}

echo "== 1. scripts/package.sh"
t=$SECONDS
bash scripts/package.sh
echo "package: scripts/package.sh took $((SECONDS - t)) s"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
wheels=(dist/schema_lint-"$version"-*.whl)
[ "${#wheels[@]}" -eq 1 ] && [ -f "${wheels[0]}" ] || fail "no single wheel for $version in dist/"
wheel="$root/${wheels[0]}"
wrapper_tgz="$root/dist/npm/schema-lint-$version.tgz"
platform_tgzs=(dist/npm/schema-lint-cli-*-"$version".tgz)
[ -f "$wrapper_tgz" ] || fail "no npm wrapper $wrapper_tgz"
[ "${#platform_tgzs[@]}" -eq 1 ] && [ -f "${platform_tgzs[0]}" ] || fail "no single npm platform package"
platform_tgz="$root/${platform_tgzs[0]}"
binary_bytes=$(python3 - "$wheel" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    print(sum(i.file_size for i in z.infolist() if "/scripts/schema-lint" in i.filename))
PY
)
echo "package: wheel $(stat -c %s "$wheel") bytes, its binary $binary_bytes bytes"
[ "$binary_bytes" -gt 0 ] || fail "no schema-lint binary in the wheel"
[ "$binary_bytes" -le "$MAX_BINARY_BYTES" ] || fail "the binary is $binary_bytes bytes, over $MAX_BINARY_BYTES"
if command -v readelf >/dev/null && readelf -S "$root/target/package/npm-stage/schema-lint-from-wheel" | grep -q '\.symtab'; then
    fail "the binary in the wheel is not stripped"
fi
ok "built ${wheel#"$root"/}, ${wrapper_tgz#"$root"/} and ${platform_tgz#"$root"/}"

echo "== 2. the wheel, installed by pip"
venv="$work/wheel-venv"
python3 -m venv "$venv"
t=$SECONDS
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-index --find-links dist schema-lint
echo "package: pip install of the wheel took $((SECONDS - t)) s"
[ "$("$venv/bin/schema-lint" --version)" = "schema-lint $version" ] || fail "the wheel's --version is not 'schema-lint $version'"
run "$venv/bin/schema-lint" --output-format concise testdata/examples >"$work/wheel.txt" 2>/dev/null
same_findings "the wheel's schema-lint" "$code" "$work/wheel.txt"
ok "the wheel finds the same, exit 1"

echo "== 3. the npm packages, installed by npm --offline"
mkdir -p "$work/npm-app"
echo '{"name": "app", "version": "1.0.0", "private": true}' >"$work/npm-app/package.json"
t=$SECONDS
(cd "$work/npm-app" && npm install --offline --cache "$work/npm-cache" --no-audit --no-fund \
    --loglevel=error "$wrapper_tgz" "$platform_tgz")
echo "package: npm install of the tarballs took $((SECONDS - t)) s"
npm_bin="$work/npm-app/node_modules/.bin/schema-lint"
[ "$("$npm_bin" --version)" = "schema-lint $version" ] || fail "npm's --version is not 'schema-lint $version'"
run "$npm_bin" --output-format concise testdata/examples >"$work/npm.txt" 2>/dev/null
same_findings "npm's schema-lint" "$code" "$work/npm.txt"
run "$npm_bin" --output-format no-such-format testdata/examples >/dev/null 2>&1
[ "$code" -eq 2 ] || fail "the launcher turned the binary's exit 2 into $code"
ok "npm's launcher runs the platform binary: same findings, exit 1; exit 2 passed through"

# docs/install.md's npm line, as a user runs it in the clone: installed globally (here into a
# prefix of the test's own), it writes no package.json or package-lock.json into the clone.
line=$(grep -F 'npm install --global' docs/install.md | head -n 1)
[ -n "$line" ] || fail "docs/install.md has no 'npm install --global' line"
before=$(git status --porcelain --untracked-files=all)
npm_config_prefix="$work/npm-global" npm_config_offline=true npm_config_cache="$work/npm-cache" \
    npm_config_audit=false npm_config_fund=false npm_config_loglevel=error bash -c "$line"
[ "$("$work/npm-global/bin/schema-lint" --version)" = "schema-lint $version" ] \
    || fail "the docs' npm line did not put schema-lint $version on the PATH"
[ "$(git status --porcelain --untracked-files=all)" = "$before" ] \
    || fail "the docs' npm line wrote into the clone: $(git status --porcelain --untracked-files=all)"
ok "the docs' npm line installs schema-lint $version from any folder and writes nothing in the clone"

mkdir -p "$work/npm-bare"
echo '{"name": "bare", "version": "1.0.0", "private": true}' >"$work/npm-bare/package.json"
(cd "$work/npm-bare" && npm install --offline --omit=optional --cache "$work/npm-cache" \
    --no-audit --no-fund --loglevel=error "$wrapper_tgz")
run "$work/npm-bare/node_modules/.bin/schema-lint" testdata/examples >"$work/bare.out" 2>"$work/bare.err"
cat "$work/bare.err"
[ "$code" -eq 2 ] || fail "without the platform package the launcher exited $code, not 2"
[ ! -s "$work/bare.out" ] || fail "without the platform package the launcher wrote to stdout"
for hint in "@schema-lint/cli-" "--omit=optional" "pip install schema-lint" "cargo install"; do
    grep -qF -- "$hint" "$work/bare.err" || fail "the launcher's message does not say '$hint'"
done
ok "without the platform package the launcher says what to do, exit 2"

echo "== 4. the pre-commit mirror, with the real pre-commit"
if [ ! -x "$pre_commit_venv/bin/pre-commit" ]; then
    python3 -m venv "$pre_commit_venv"
fi
if [ "$("$pre_commit_venv/bin/pre-commit" --version 2>/dev/null)" != "pre-commit $PRE_COMMIT_VERSION" ]; then
    "$pre_commit_venv/bin/pip" install --quiet --disable-pip-version-check "pre-commit==$PRE_COMMIT_VERSION"
fi
if ! ls "$wheelhouse"/setuptools-"$SETUPTOOLS_VERSION"-*.whl >/dev/null 2>&1; then
    "$pre_commit_venv/bin/pip" download --quiet --disable-pip-version-check --no-deps \
        --only-binary=:all: --dest "$wheelhouse" "setuptools==$SETUPTOOLS_VERSION"
fi

mirror_src=packaging/pre-commit-mirror
grep -qF "\"schema-lint==$version\"" "$mirror_src/pyproject.toml" ||
    fail "$mirror_src pins another schema-lint than $version: run $mirror_src/bump.sh $version"
cp -R "$mirror_src" "$work/bump-check"
bash "$work/bump-check/bump.sh" 9.8.7 >/dev/null
grep -qF '"schema-lint==9.8.7"' "$work/bump-check/pyproject.toml" || fail "bump.sh did not rewrite the pin"
grep -qF 'rev: v9.8.7' "$work/bump-check/README.md" || fail "bump.sh did not rewrite the README's rev"

mirror="$work/mirror"
cp -R "$mirror_src" "$mirror"
(
    cd "$mirror"
    git init -q
    git config user.email ci@example.invalid && git config user.name ci
    git add -A && git commit -qm "schema-lint $version" && git tag "v$version"
)

consumer="$work/consumer"
mkdir -p "$consumer/schemas"
cd "$consumer"
git init -q
git config user.email ci@example.invalid && git config user.name ci
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $mirror
    rev: v$version
    hooks:
      - id: schema-lint
      - id: schema-lint-fix
YAML
echo '{"$id": "my_tool:output", "type": "object"}' >schemas/tool.schema.json
echo '{"name": "demo", "version": "1.0.0"}' >package.json
git add -A && git commit -qm "an invalid \$id"

# Anything that compiles would go through these traps. pip asks `rustc --version` for its
# user agent; that is no compile, so `--version` alone is refused without being recorded.
mkdir -p "$work/traps"
for tool in cargo rustc rustup maturin; do
    cat >"$work/traps/$tool" <<SH
#!/bin/sh
[ "\$*" = "--version" ] && exit 1
echo "$tool \$*" >>"$work/compiled"
exit 1
SH
    chmod +x "$work/traps/$tool"
done
export PRE_COMMIT_HOME="$work/pre-commit-home"
pre_commit() {
    PATH="$work/traps:$PATH" PIP_NO_INDEX=1 PIP_FIND_LINKS="$root/dist $wheelhouse" \
        PIP_DISABLE_PIP_VERSION_CHECK=1 "$pre_commit_venv/bin/pre-commit" "$@"
}

t=$SECONDS
run pre_commit install-hooks >"$work/install.log" 2>&1
install_seconds=$((SECONDS - t))
cat "$work/install.log"
echo "package: pre-commit installed the hook environment in $install_seconds s"
[ "$code" -eq 0 ] || { cat "$PRE_COMMIT_HOME/pre-commit.log" 2>/dev/null || true; fail "pre-commit install-hooks exited $code"; }
[ ! -e "$work/compiled" ] || fail "installing the hooks ran: $(cat "$work/compiled")"
! grep -Eiq 'cargo|rustc|maturin' "$work/install.log" || fail "the install log mentions cargo, rustc or maturin"
[ "$install_seconds" -lt 60 ] || fail "installing the hooks took $install_seconds s (60 s at most)"
hook_binary=$(find "$PRE_COMMIT_HOME" -path '*/bin/schema-lint' -type f | head -n 1)
cmp -s "$hook_binary" "$root/target/package/npm-stage/schema-lint-from-wheel" ||
    fail "the hook's schema-lint ($hook_binary) is not the wheel's binary"
ok "pre-commit installed the hooks from the wheel in $install_seconds s, compiling nothing"

run pre_commit run schema-lint --all-files >"$work/hook.log" 2>&1
cat "$work/hook.log"
[ "$code" -ne 0 ] || fail "the check hook passed on an invalid \$id"
grep -q "SL201" "$work/hook.log" || fail "the check hook did not name SL201"
! grep -q "package.json" "$work/hook.log" || fail "the check hook reported package.json"
ok "the check hook fails on an invalid \$id (SL201)"

run pre_commit run schema-lint-fix --all-files >"$work/hook.log" 2>&1
cat "$work/hook.log"
[ "$code" -ne 0 ] || fail "the fix hook passed although it changed a file"
grep -q '"\$id": "my_tool_output"' schemas/tool.schema.json || fail "the fix hook did not repair the \$id"
ok "the fix hook repairs it"

echo '{"$id": "https://example.com/my_tool/output", "type": "object"}' >schemas/tool.schema.json
git add -A && git commit -qm "a good schema"
run pre_commit run --all-files >"$work/hook.log" 2>&1
cat "$work/hook.log"
[ "$code" -eq 0 ] || fail "the hooks did not pass on a good schema"
[ ! -e "$work/compiled" ] || fail "running the hooks ran: $(cat "$work/compiled")"
ok "both hooks pass on a good schema"
cd "$root"

echo "== 5. action.yml, its steps run as GitHub runs them"
mkdir -p "$work/action-temp"
: >"$work/github_path"
: >"$work/github_output"
run env PIP_NO_INDEX=1 PIP_FIND_LINKS="$root/dist" PIP_DISABLE_PIP_VERSION_CHECK=1 \
    RUNNER_TEMP="$work/action-temp" GITHUB_PATH="$work/github_path" GITHUB_OUTPUT="$work/github_output" \
    "$pre_commit_venv/bin/python" - "$root/action.yml" "$root" "$work/action.out" <<'PY'
# Runs a composite action's steps: the inputs below stand for a caller's `with:`; expressions
# in env, working-directory and if are the few this action uses.
import os, re, subprocess, sys
import yaml

action_file, root, out_file = sys.argv[1:]
with open(action_file, encoding="utf-8") as f:
    action = yaml.safe_load(f)
inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
inputs.update({"paths": "testdata/examples", "sarif-file": "target/action.sarif", "working-directory": root})
context = {"github.action_path": root, **{f"inputs.{k}": v for k, v in inputs.items()}}

def expand(text):
    return re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", lambda m: context[m.group(1)], str(text))

def condition(text):
    m = re.fullmatch(r"inputs\.([\w-]+) != ''", text.strip())
    assert m, f"unknown condition {text}"
    return inputs[m.group(1)] != ""

path = os.environ["PATH"]
code = 0
with open(out_file, "w", encoding="utf-8") as out:
    for step in action["runs"]["steps"]:
        if "if" in step and not condition(step["if"]):
            continue
        assert step["shell"] == "bash"
        env = {**os.environ, "PATH": path, **{k: expand(v) for k, v in step.get("env", {}).items()}}
        cwd = expand(step.get("working-directory", root))
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                cwd=cwd, env=env, stdout=out)
        with open(os.environ["GITHUB_PATH"], encoding="utf-8") as f:
            added = [line.strip() for line in f if line.strip()]
        path = os.pathsep.join(reversed(added)) + os.pathsep + os.environ["PATH"] if added else path
        code = result.returncode
        if code != 0:
            break
sys.exit(code)
PY
cat "$work/action.out"
[ "$code" -eq 1 ] || fail "the action's lint step exited $code, not 1"
grep -qx "version=$version" "$work/github_output" || fail "the action did not install its own version $version"
[ "$(grep -c '^::' "$work/action.out")" -eq "$(wc -l <"$work/expected.txt")" ] ||
    fail "the action's annotations are not one per finding"
python3 - target/action.sarif "$(wc -l <"$work/expected.txt")" <<'PY' || fail "the action's SARIF file is not what it should be"
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    sarif = json.load(f)
results = sarif["runs"][0]["results"]
assert len(results) == int(sys.argv[2]), (len(results), sys.argv[2])
PY
rm -f target/action.sarif
ok "the action installs schema-lint $version, annotates each finding and writes the SARIF file"

echo "package: took $((SECONDS - start)) s"
echo "package: $passed passed, 0 failed"
