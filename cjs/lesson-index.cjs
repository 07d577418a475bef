"use strict";
// meshway is ESM-only. Node ≥ 20.19 / 22.12 can require() an ES module, so try that; older
// Node gets a clear message instead of ERR_PACKAGE_PATH_NOT_EXPORTED.
try {
  module.exports = require("../dist/lesson.js");
} catch (e) {
  if (e && (e.code === "ERR_REQUIRE_ESM" || e.code === "ERR_REQUIRE_ASYNC_MODULE")) {
    throw new Error(
      'meshway is an ES module: use `import { … } from "meshway"`, or `await import("meshway")` ' +
        "from CommonJS (Node >= 20.19 and 22.12 can also require() it)",
      { cause: e },
    );
  }
  throw e;
}
