// The page's build: type-check the sources with tsc, then bundle and minify them with
// esbuild into static/app.js. Deterministic: the same sources and lock file give the same
// bytes (no timestamps, no source map, no machine paths), which tests/web checks by
// rebuilding and comparing with the committed file.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(here, "node_modules", ".bin", process.platform === "win32" ? "tsc.cmd" : "tsc");
try {
  execFileSync(tsc, ["--noEmit", "-p", join(here, "tsconfig.json")], { stdio: "inherit" });
} catch {
  process.exit(1); // tsc has printed the errors
}

// the bundled packages' notices travel with the bundle (their licences ask for that)
const notices = ["@msgpack/msgpack", "@noble/hashes"]
  .map((name) => `${name}:\n${readFileSync(join(here, "node_modules", name, "LICENSE"), "utf8").trim()}`)
  .join("\n\n")
  .replaceAll("*/", "* /");

await esbuild.build({
  banner: { js: `/*! Durak for LAN parties: the phones' page. Bundled packages:\n\n${notices}\n*/` },
  absWorkingDir: here,
  entryPoints: ["src/main.ts"],
  outfile: "static/app.js",
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020", "safari15"],
  legalComments: "eof",
  sourcemap: false,
  charset: "utf8",
  logLevel: "warning",
});
