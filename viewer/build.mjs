// Bundles the viewer with esbuild into dist/: main.js (the page, with
// uPlot and its CSS as main.css) and worker.js (the decoder, with the
// MessagePack reader), each a classic script, minified. Each starts with
// V8's explicit compile hint (//# allFunctionsCalledOnLoad): Chromium then
// compiles every function while it streams the script, off the page's
// thread, instead of on first call: the first chart drawn (uPlot's code)
// had 70-145 ms of lazy compiling in one task.
import { build } from "esbuild";

const common = { bundle: true, minify: true, target: "es2020", logLevel: "warning", legalComments: "eof",
	banner: { js: "//# allFunctionsCalledOnLoad" } };
await build({ ...common, entryPoints: ["src/main.js"], outfile: "dist/main.js", format: "iife" });
await build({ ...common, entryPoints: ["src/worker.js"], outfile: "dist/worker.js", format: "iife" });
