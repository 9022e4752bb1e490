// Validates .glb/.gltf files with the Khronos glTF-Validator (npm package `gltf-validator`) and
// prints a summary per file plus every issue. Exit status: 0 if no file has an ERROR, 1 if one
// does, 2 if a file cannot be read or validated at all.
//
// Usage: node scripts/validate_gltf.mjs MODULE_DIR FILE...
// where MODULE_DIR is the folder whose node_modules holds gltf-validator (see validate_gltf.sh).

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const [moduleDir, ...files] = process.argv.slice(2);
if (!moduleDir || files.length === 0) {
    console.error("usage: node validate_gltf.mjs MODULE_DIR FILE...");
    process.exit(2);
}
const require = createRequire(path.join(path.resolve(moduleDir), "package.json"));
const validator = require("gltf-validator");

const SEVERITY = ["ERROR", "WARNING", "INFO", "HINT"];
let status = 0;
for (const file of files) {
    let report;
    try {
        const bytes = new Uint8Array(await readFile(file));
        report = await validator.validateBytes(bytes, {
            uri: path.basename(file),
            maxIssues: 0, // all of them
            writeTimestamp: false,
            // Every resource is in the GLB; an external one is an error of the writer.
            externalResourceFunction: (uri) => Promise.reject(`external resource ${uri} not allowed`),
        });
    } catch (error) {
        console.error(`${file}: cannot validate: ${error}`);
        status = Math.max(status, 2);
        continue;
    }
    const issues = report.issues;
    const info = report.info ?? {};
    console.log(
        `${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ${issues.numInfos} infos, ` +
            `${issues.numHints} hints (glTF-Validator ${report.validatorVersion}; ` +
            `${info.drawCallCount ?? 0} draw calls, ${info.totalVertexCount ?? 0} vertices, ` +
            `${info.totalTriangleCount ?? 0} triangles, ${info.materialCount ?? 0} materials)`,
    );
    for (const m of issues.messages) {
        console.log(`  ${SEVERITY[m.severity] ?? m.severity} ${m.code}${m.pointer ? ` at ${m.pointer}` : ""}: ${m.message}`);
    }
    if (issues.truncated) {
        console.log("  (issue list truncated)");
    }
    if (issues.numErrors > 0) {
        status = Math.max(status, 1);
    }
}
process.exit(status);
