#!/usr/bin/env node
// Runs the schema-lint binary of this platform, which npm installed from one of the
// optionalDependencies (@schema-lint/cli-<os>-<arch>[-musl]), with this process's arguments and
// standard streams; its exit code (or signal) becomes ours. Exits 2, as schema-lint does on an
// error, with what to do when no platform package is installed.
"use strict";

const { spawnSync } = require("child_process");
const fs = require("fs");
const path = require("path");

function isMusl() {
  if (process.platform !== "linux") return false;
  try {
    // glibc's ldd says so; musl's is a script or link naming musl.
    if (fs.readFileSync("/usr/bin/ldd", "utf8").includes("musl")) return true;
  } catch (_) {
    // no ldd: ask Node below
  }
  try {
    if (process.report) {
      process.report.excludeNetwork = true;
      const header = process.report.getReport().header;
      return !header.glibcVersionRuntime;
    }
  } catch (_) {
    // fall through: assume glibc
  }
  return false;
}

const platform = `${process.platform}-${process.arch}`;
const musl = isMusl();
// A static musl binary also runs on glibc, so it is the fallback there.
const candidates = musl ? [`${platform}-musl`] : [platform, `${platform}-musl`];
const exe = process.platform === "win32" ? "schema-lint.exe" : "schema-lint";

function findBinary() {
  for (const name of candidates) {
    let manifest;
    try {
      manifest = require.resolve(`@schema-lint/cli-${name}/package.json`);
    } catch (_) {
      continue;
    }
    const binary = path.join(path.dirname(manifest), "bin", exe);
    if (fs.existsSync(binary)) return binary;
  }
  return null;
}

const binary = findBinary();
if (!binary) {
  const wanted = `@schema-lint/cli-${candidates[0]}`;
  process.stderr.write(
    `schema-lint: no binary for this platform (${platform}${musl ? ", musl" : ""}): ` +
      `the optional package ${wanted} is not installed.\n` +
      "Do one of:\n" +
      "  - reinstall schema-lint with optional dependencies (not with --no-optional or " +
      "--omit=optional, and not with optional=false in .npmrc);\n" +
      "  - pip install schema-lint  (or: pipx install schema-lint, uv tool install schema-lint);\n" +
      "  - cargo install --locked --git https://github.com/schema-lint/schema-lint\n",
  );
  process.exit(2);
}

const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: false });
if (result.error) {
  process.stderr.write(`schema-lint: could not run ${binary}: ${result.error.message}\n`);
  process.exit(2);
}
if (result.signal) {
  // Die of the same signal, so that the caller sees what the binary saw.
  process.kill(process.pid, result.signal);
  const signals = require("os").constants.signals;
  process.exit(128 + (signals[result.signal] || 1));
}
process.exit(result.status === null ? 2 : result.status);
