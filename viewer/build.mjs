// Bundles the viewer with esbuild into dist/: main.js (the page, with
// uPlot and its CSS as main.css) and worker.js (the decoder, with the
// MessagePack reader), each a classic script, minified.
import { build } from "esbuild";

const common = { bundle: true, minify: true, target: "es2020", logLevel: "warning", legalComments: "eof" };
await build({ ...common, entryPoints: ["src/main.js"], outfile: "dist/main.js", format: "iife" });
await build({ ...common, entryPoints: ["src/worker.js"], outfile: "dist/worker.js", format: "iife" });
