/**
 * Renders a vega-lite spec to an SVG string, offline: vega-lite compiles it to vega, and vega's
 * headless view draws it with no renderer and no network (data are inline values).
 *
 * vega and vega-lite are imported when a chart is drawn, not when the package loads: vega-canvas
 * (under vega) has a top-level await, which would make `require("cpsim")` fail with
 * ERR_REQUIRE_ASYNC_MODULE, and most uses of the library draw no chart.
 */
import type * as Vl from "vega-lite";

let charts: Promise<[typeof import("vega"), typeof import("vega-lite")]> | undefined;

export async function vegaLiteToSvg(spec: Vl.TopLevelSpec): Promise<string> {
  charts ??= Promise.all([import("vega"), import("vega-lite")]);
  const [vega, vl] = await charts;
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
