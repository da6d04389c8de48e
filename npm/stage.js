#!/usr/bin/env node
// Lays out an npm package ready for `npm pack` / `npm publish`, with the version given (Cargo.toml's):
//   node npm/stage.js wrapper <version> <out-dir>
//       npm/schema-lint with its version and every optionalDependencies entry set to <version>
//   node npm/stage.js platform <version> <os>-<cpu>[-musl] <binary> <out-dir>
//       npm/platform/package.json.tmpl filled in (os, cpu, libc), the binary as bin/schema-lint[.exe]
// Used by scripts/package.sh (this platform) and .github/workflows/release.yml (every platform).
"use strict";

const fs = require("fs");
const path = require("path");

const here = __dirname;
const [kind, version, ...rest] = process.argv.slice(2);

function die(message) {
  process.stderr.write(`stage.js: ${message}\n`);
  process.exit(2);
}

if (!/^\d+\.\d+\.\d+([-+].*)?$/.test(version || "")) die(`not a version: ${version}`);
const wrapper = JSON.parse(fs.readFileSync(path.join(here, "schema-lint", "package.json"), "utf8"));

function fresh(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
}

if (kind === "wrapper") {
  const [out] = rest;
  if (!out) die("usage: stage.js wrapper <version> <out-dir>");
  fresh(out);
  wrapper.version = version;
  for (const name of Object.keys(wrapper.optionalDependencies)) {
    wrapper.optionalDependencies[name] = version;
  }
  fs.writeFileSync(path.join(out, "package.json"), `${JSON.stringify(wrapper, null, 2)}\n`);
  const launcher = path.join(out, "bin", "schema-lint.js");
  fs.copyFileSync(path.join(here, "schema-lint", "bin", "schema-lint.js"), launcher);
  fs.chmodSync(launcher, 0o755);
  for (const doc of ["README.md"]) {
    const file = path.join(here, "..", doc);
    if (fs.existsSync(file)) fs.copyFileSync(file, path.join(out, doc));
  }
} else if (kind === "platform") {
  const [platform, binary, out] = rest;
  if (!out) die("usage: stage.js platform <version> <os>-<cpu>[-musl] <binary> <out-dir>");
  const match = /^(darwin|linux|win32)-(x64|arm64)(-musl)?$/.exec(platform);
  if (!match) die(`unknown platform ${platform}`);
  const [, os, cpu, musl] = match;
  if (musl && os !== "linux") die(`musl is for linux only: ${platform}`);
  const name = `@schema-lint/cli-${platform}`;
  if (!(name in wrapper.optionalDependencies)) {
    die(`${name} is not in npm/schema-lint/package.json's optionalDependencies`);
  }
  fresh(out);
  const text = fs
    .readFileSync(path.join(here, "platform", "package.json.tmpl"), "utf8")
    .replaceAll("@PLATFORM@", platform)
    .replaceAll("@VERSION@", version)
    .replaceAll("@OS@", os)
    .replaceAll("@CPU@", cpu)
    .replaceAll("@LIBC@", musl ? "musl" : "glibc");
  const manifest = JSON.parse(text);
  if (os !== "linux") delete manifest.libc;
  fs.writeFileSync(path.join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const target = path.join(out, "bin", os === "win32" ? "schema-lint.exe" : "schema-lint");
  fs.copyFileSync(binary, target);
  fs.chmodSync(target, 0o755);
} else {
  die("usage: stage.js wrapper|platform <version> ...");
}
