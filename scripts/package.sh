#!/usr/bin/env bash
# Builds this platform's packages from the checkout, with Cargo.toml's version:
#   dist/schema_lint-<version>-py3-none-<platform>.whl     the wheel (maturin, bindings = "bin")
#   dist/npm/schema-lint-<version>.tgz                     the npm wrapper (bin/schema-lint.js)
#   dist/npm/schema-lint-cli-<platform>-<version>.tgz      this platform's npm package (the binary)
# The first run installs maturin from PyPI into target/package-venv and runs `cargo fetch
# --locked`; after that it builds offline. The release build goes to target/package, apart from
# the debug builds. .github/workflows/release.yml builds the same for every platform.
# Usage: bash scripts/package.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

MATURIN_VERSION=1.16.0
venv="$root/target/package-venv"
stage="$root/target/package/npm-stage"
export CARGO_TARGET_DIR="$root/target/package"

fail() {
    echo "package: $*" >&2
    exit 1
}
for tool in cargo python3 node npm; do
    command -v "$tool" >/dev/null || fail "$tool is required"
done

cargo fetch --locked --quiet
version=$(cargo metadata --no-deps --format-version 1 --offline |
    python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "schema-lint"))')
host=$(rustc -vV | sed -n 's/^host: //p')
# The npm platform of the binary this host builds: <os>-<cpu>[-musl], as Node names them.
case "$host" in
    x86_64-*) cpu=x64 ;;
    aarch64-*) cpu=arm64 ;;
    *) fail "no npm package for the CPU of $host" ;;
esac
case "$host" in
    *-linux-gnu*) platform="linux-$cpu" ;;
    *-linux-musl*) platform="linux-$cpu-musl" ;;
    *-apple-darwin) platform="darwin-$cpu" ;;
    *-windows-msvc) platform="win32-$cpu" ;;
    *) fail "no npm package for $host" ;;
esac
echo "package: schema-lint $version for $host (npm: $platform)"

if [ ! -x "$venv/bin/maturin" ] || [ "$("$venv/bin/maturin" --version)" != "maturin $MATURIN_VERSION" ]; then
    echo "package: installing maturin==$MATURIN_VERSION into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "maturin==$MATURIN_VERSION"
fi

echo "package: the wheel"
mkdir -p dist
rm -f dist/schema_lint-*.whl
# The source paths of the dependencies are written into the binary (panic locations): mapped to
# one short prefix, the binary neither names the builder's folders nor grows with where cargo
# keeps its crates (CI's lanes keep them under the clone: 8 KB more than under ~/.cargo).
registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"
RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$registry=/registry" \
  CARGO_NET_OFFLINE=true "$venv/bin/maturin" build --profile dist --locked --out dist
wheels=(dist/schema_lint-"$version"-*.whl)
[ "${#wheels[@]}" -eq 1 ] && [ -f "${wheels[0]}" ] || fail "expected one wheel in dist/, found: ${wheels[*]}"
wheel=${wheels[0]}

echo "package: the npm packages"
# The platform package carries the very binary of the wheel.
binary="$stage/schema-lint-from-wheel"
mkdir -p "$stage"
python3 - "$wheel" "$binary" <<'PY'
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.split("/")[-2:-1] == ["scripts"]
             and n.rsplit("/", 1)[-1] in ("schema-lint", "schema-lint.exe")]
    if len(names) != 1:
        sys.exit(f"package: expected one schema-lint binary in {wheel}, found {names}")
    with open(out, "wb") as f:
        f.write(z.read(names[0]))
PY
node npm/stage.js wrapper "$version" "$stage/wrapper"
node npm/stage.js platform "$version" "$platform" "$binary" "$stage/platform"
rm -rf dist/npm
mkdir -p dist/npm
for package in wrapper platform; do
    (cd "$stage/$package" && npm pack --offline --silent --pack-destination "$root/dist/npm" >/dev/null)
done

echo "package: built"
ls -l "$wheel" dist/npm/*.tgz
