// Builds the viewer bundle that fxkit embeds into its report pages:
//   npm ci && node build.mjs
// writes ../../exporters/report/viewer.min.js (minified, one IIFE, the licences of everything
// bundled at its top). Commit that file: fxkit's build (CMake) embeds it and needs no Node.
import * as esbuild from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";

const out = new URL("../../exporters/report/viewer.min.js", import.meta.url);
const bundled = ["sigma", "graphology", "graphology-utils", "events"];
let licences = "";
for (const name of bundled) {
  const pkg = JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, import.meta.url)));
  let text;
  for (const file of ["LICENSE.txt", "LICENSE", "LICENSE.md"]) {
    try {
      text = readFileSync(new URL(`node_modules/${name}/${file}`, import.meta.url), "utf8");
      break;
    } catch {}
  }
  if (!text) throw new Error(`no licence file in ${name}`);
  licences += `\n${name} ${pkg.version} (${pkg.license}):\n${text.trim()}\n`;
}
const result = await esbuild.build({
  entryPoints: [new URL("src/viewer.js", import.meta.url).pathname],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  charset: "ascii",
  legalComments: "none",
  write: false,
});
const header = `/*! fxkit graph viewer (tools/viewer, built by build.mjs). Bundled third-party code:\n${licences.replaceAll("*/", "* /")}*/\n`;
const js = header + result.outputFiles[0].text;
if (js.includes("</script") || js.includes(")fxjs\"")) throw new Error("bundle holds text the page or CMake cannot embed");
writeFileSync(out, js);
console.log(`wrote ${out.pathname}: ${js.length} bytes`);
